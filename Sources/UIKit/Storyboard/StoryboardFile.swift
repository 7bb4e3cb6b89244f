import ExtensionFoundation
import ExtensionRuntime
import Foundation
import HeadlessScreens

/// A storyboard read from its XML source (`MainInterface.storyboard`), made into view controllers as
/// UIKit makes them from the compiled `.storyboardc` on iOS: each object with `init?(coder:)` from a
/// coder carrying the attributes Interface Builder wrote, its view tree made when the view loads
/// (before `viewDidLoad()`), outlets set and actions connected then.
///
/// Every class the storyboard names is looked up before any object is made, so a storyboard that
/// cannot run is refused before any of the extension's code runs. Errors are
/// ``ExtensionFoundation/ExtensionBundleError`` naming the file, line and column.
@MainActor
final class StoryboardFile {
    /// The file, as messages name it.
    let path: String
    /// The `<document>` element.
    let document: LocatedXML.Element
    /// The module `customModuleProvider="target"` means (the extension's).
    let module: String
    /// The bundle named images are read from.
    let bundle: Bundle?
    private var objects: [String: LocatedXML.Element] = [:]
    private var classes: [ObjectIdentifier: AnyClass] = [:]

    /// The view controller elements UIKit knows, by element name.
    static let controllerElements: [String: AnyClass] = [
        "viewController": UIViewController.self, "navigationController": UINavigationController.self,
        "tableViewController": UITableViewController.self,
    ]

    /// The view elements UIKit knows, by element name.
    static let viewElements: [String: AnyClass] = [
        "view": UIView.self, "label": UILabel.self, "button": UIButton.self, "textView": UITextView.self,
        "textField": UITextField.self, "imageView": UIImageView.self, "stackView": UIStackView.self,
        "tableView": UITableView.self, "tableViewCell": UITableViewCell.self,
        "activityIndicatorView": UIActivityIndicatorView.self, "progressView": UIProgressView.self,
        "scrollView": UIScrollView.self, "containerView": UIView.self,
    ]

    /// Interface Builder's elements exthost's UIKit does not have, with the class each stands for.
    static let missingElements: [String: String] = [
        "tabBarController": "UITabBarController", "collectionViewController": "UICollectionViewController",
        "pageViewController": "UIPageViewController", "splitViewController": "UISplitViewController",
        "hostingController": "UIHostingController", "collectionView": "UICollectionView", "mapView": "MKMapView",
        "wkWebView": "WKWebView", "webView": "UIWebView", "switch": "UISwitch", "slider": "UISlider",
        "segmentedControl": "UISegmentedControl", "datePicker": "UIDatePicker", "pickerView": "UIPickerView",
        "searchBar": "UISearchBar", "pageControl": "UIPageControl", "stepper": "UIStepper",
        "visualEffectView": "UIVisualEffectView",
    ]

    /// Reads and checks the storyboard at `url`.
    /// - Parameters:
    ///   - displayPath: the path messages name (default: `url`'s).
    ///   - module: the extension's module (`customModuleProvider="target"`).
    /// - Throws: ``ExtensionBundleError`` when the file cannot be read, is not well-formed XML, or is not a
    ///   storyboard.
    init(contentsOf url: URL, displayPath: String? = nil, module: String, bundle: Bundle?) throws {
        path = displayPath ?? url.path
        self.module = module
        self.bundle = bundle
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ExtensionBundleError("cannot read the storyboard", file: path)
        }
        do {
            document = try LocatedXML.parse(Array(data))
        } catch let error as LocatedXML.SyntaxError {
            throw ExtensionBundleError(
                "the storyboard is not well-formed XML: \(error.message)", file: path, line: error.line,
                column: error.column)
        }
        guard document.name == "document" else {
            throw ExtensionBundleError(
                "not a storyboard: the root element is <\(document.name)>, not Interface Builder's <document>",
                file: path, line: document.line, column: document.column)
        }
        if let type = document["type"], !type.contains("Storyboard") {
            throw ExtensionBundleError(
                "not a storyboard: the document's type is '\(type)' (a storyboard's is "
                    + "'com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB')",
                file: path, line: document.line, column: document.column)
        }
        index(document)
    }

    private func index(_ element: LocatedXML.Element) {
        var pending = [element]
        while let next = pending.popLast() {
            if let id = next["id"], objects[id] == nil { objects[id] = next }
            pending += next.children
        }
    }

    private func failure(_ message: String, at element: LocatedXML.Element) -> ExtensionBundleError {
        ExtensionBundleError(message, file: path, line: element.line, column: element.column)
    }

    // MARK: - The initial view controller

    /// The element of the initial view controller (`initialViewController` of `<document>`).
    /// - Throws: when there is none or it names no view controller.
    func initialViewControllerElement() throws -> LocatedXML.Element {
        guard let id = document["initialViewController"] else {
            throw failure(
                "the storyboard has no initial view controller (no initialViewController attribute on <document>; in "
                    + "Xcode tick 'Is Initial View Controller'): iOS cannot make the extension's principal object",
                at: document)
        }
        guard let element = objects[id] else {
            throw failure("initialViewController '\(id)' names no object of the storyboard", at: document)
        }
        return element
    }

    /// The view controller element whose Storyboard ID (`storyboardIdentifier`) is `identifier`.
    func viewControllerElement(identifiedBy identifier: String) -> LocatedXML.Element? {
        var pending = [document]
        while let next = pending.popLast() {
            if next["storyboardIdentifier"] == identifier,
                Self.controllerElements[next.name] != nil || next["sceneMemberID"] == "viewController"
            {
                return next
            }
            pending += next.children.reversed()
        }
        return nil
    }

    // MARK: - Classes, checked before anything is made

    /// Looks up every class the view controller at `element` needs (its own, its views', the root of a
    /// navigation controller), so that making it cannot fail on a missing class.
    /// - Throws: naming the element whose class does not exist or is not of the kind the element needs.
    func check(controller element: LocatedXML.Element, visited: Set<ObjectIdentifier> = []) throws {
        let visited = visited.union([ObjectIdentifier(element)])
        guard let base = Self.controllerElements[element.name] else {
            let what =
                Self.missingElements[element.name].map { "exthost's UIKit has no \($0)" }
                ?? "it is not a view controller"
            throw failure("<\(element.name)> cannot be made: \(what)", at: element)
        }
        try resolve(element, base: base)
        if let view = element.children.first(where: { $0["key"] == "view" }) { try check(view: view) }
        if element.name == "navigationController", let root = rootSegue(of: element) {
            guard let destination = root["destination"].flatMap({ objects[$0] }) else {
                throw failure(
                    "the rootViewController segue's destination '\(root["destination"] ?? "")' names no object",
                    at: root)
            }
            guard !visited.contains(ObjectIdentifier(destination)) else {
                throw failure(
                    "the rootViewController segue leads back to <\(destination.name)> '\(destination["id"] ?? "")': "
                        + "navigation controllers cannot be each other's roots",
                    at: root)
            }
            try check(controller: destination, visited: visited)
        }
    }

    private func check(view element: LocatedXML.Element) throws {
        guard let base = Self.viewElements[element.name] else {
            let what =
                Self.missingElements[element.name].map { "exthost's UIKit has no \($0)" } ?? "not a view UIKit knows"
            throw failure("<\(element.name)> cannot be made: \(what)", at: element)
        }
        try resolve(element, base: base)
        if element.name == "containerView", let embed = embedSegue(of: element) {
            guard let destination = embed["destination"].flatMap({ objects[$0] }) else {
                throw failure(
                    "the embed segue's destination '\(embed["destination"] ?? "")' names no object", at: embed)
            }
            try check(controller: destination)
        }
        for subview in element.child("subviews")?.children ?? [] { try check(view: subview) }
        for cell in element.child("prototypes")?.children ?? [] where cell.name == "tableViewCell" {
            try resolve(cell, base: UITableViewCell.self)
        }
    }

    /// The class of `element`: its `customClass` (in `customModule`, or the extension's module), else the
    /// UIKit class of the element; it must be `base` or a subclass.
    @discardableResult
    private func resolve(_ element: LocatedXML.Element, base: AnyClass) throws -> AnyClass {
        if let known = classes[ObjectIdentifier(element)] { return known }
        var type: AnyClass = base
        if let custom = element["customClass"] {
            let names: [String]
            if let customModule = element["customModule"] {
                names = ["\(customModule).\(custom)"]
            } else if element["customModuleProvider"] == "target" {
                names = ["\(module).\(custom)"]
            } else {
                names = ["\(module).\(custom)", "UIKit.\(custom)", custom]
            }
            guard let found = names.lazy.compactMap({ _typeByName($0) as? AnyClass }).first else {
                throw failure(
                    "customClass '\(custom)' names no class (looked for \(names.map { "'\($0)'" }.joined(separator: ", "))); "
                        + "the class must be in the extension's module or name its module in customModule",
                    at: element)
            }
            guard ClassMetadata(found).isSubclass(of: base) else {
                let isHandler = found is any NSExtensionRequestHandling.Type
                throw failure(
                    "customClass '\(String(reflecting: found))' of <\(element.name)> is not a \(String(reflecting: base)) "
                        + "subclass"
                        + (isHandler
                            ? " (it is a request handler: name it with NSExtensionPrincipalClass instead of a storyboard)"
                            : ""),
                    at: element)
            }
            type = found
        }
        classes[ObjectIdentifier(element)] = type
        return type
    }

    /// The embed segue of a container view.
    private func embedSegue(of element: LocatedXML.Element) -> LocatedXML.Element? {
        element.child("connections")?.children.first { $0.name == "segue" && $0["kind"] == "embed" }
    }

    private func rootSegue(of element: LocatedXML.Element) -> LocatedXML.Element? {
        element.child("connections")?.children.first {
            $0.name == "segue" && $0["kind"] == "relationship" && $0["relationship"] == "rootViewController"
        }
    }

    // MARK: - Making

    /// Makes the view controller at `element` (checked first): `init?(coder:)`, its navigation item, and
    /// its view tree made when the view loads; a navigation controller gets its root view controller.
    /// - Throws: when a class is missing (see ``check(controller:visited:)``), or `init?(coder:)` returns nil.
    /// - Parameter creator: makes the controller from the coder instead of its class's `init?(coder:)`
    ///   (`instantiateViewController(identifier:creator:)`); nil from it falls back to `init?(coder:)`.
    func instantiate(_ element: LocatedXML.Element, creator: ((NSCoder) -> UIViewController?)? = nil) throws
        -> UIViewController
    {
        try check(controller: element)
        let type: AnyClass = try resolve(element, base: Self.controllerElements[element.name] ?? UIViewController.self)
        let coder = UIKeyedCoder(Self.coderValues(element))
        guard let controllerType = type as? UIViewController.Type,
            let controller = creator?(coder) ?? controllerType.init(coder: coder)
        else {
            throw failure("init?(coder:) of '\(String(reflecting: type))' returned nil", at: element)
        }
        var scene = SceneObjects()
        scene.controller = controller
        if let id = element["id"] { scene.objects[id] = controller }
        if let item = element.child("navigationItem", key: "navigationItem") {
            configure(controller.navigationItem, from: item, scene: &scene)
        }
        // Outlets and actions whose ends exist now (bar button items); the rest when the view loads.
        connect(in: element, scene: &scene)
        if let viewElement = element.children.first(where: { $0["key"] == "view" && Self.viewElements[$0.name] != nil })
        {
            let sceneAtLoad = scene
            controller.storyboardView = { [weak controller] in
                var scene = sceneAtLoad
                let view = self.makeView(viewElement, scene: &scene) ?? UIView(frame: UIScreen.main.bounds)
                if controller != nil { self.connect(in: element, scene: &scene) }
                self.activateConstraints(in: viewElement, scene: scene)
                if let controller { self.embed(scene.embeds, in: controller) }
                return view
            }
        }
        if element.name == "navigationController", let navigation = controller as? UINavigationController,
            let root = rootSegue(of: element)?["destination"].flatMap({ objects[$0] })
        {
            navigation.setViewControllers([try instantiate(root)], animated: false)
        }
        return controller
    }

    /// The objects of one scene made so far, by storyboard id, and the connections already made.
    struct SceneObjects {
        var objects: [String: AnyObject] = [:]
        var connected: Set<ObjectIdentifier> = []
        var views: [(element: LocatedXML.Element, view: UIView)] = []
        /// The scene's view controller (the source of its segues).
        weak var controller: UIViewController?
        /// Container views and their embed segues, made when the view has loaded.
        var embeds: [(container: UIView, segue: LocatedXML.Element)] = []
    }

    /// The values `init?(coder:)` reads for `element`: every attribute as written, and under UIKit's
    /// keys the typed values (`frame`, `hidden`, `backgroundColor`, `text`, `title`, …).
    static func coderValues(_ element: LocatedXML.Element) -> [String: Any] {
        var values: [String: Any] = element.attributes
        values["frame"] = StoryboardValues.rect(element.child("rect", key: "frame"))
        values["tag"] = element["tag"].flatMap { Int($0) }
        for key in ["hidden", "userInteractionEnabled", "enabled", "selected", "editable", "animating"] {
            values[key] = StoryboardValues.bool(element[key])
        }
        values["alpha"] = StoryboardValues.double(element["alpha"])
        values["progress"] = StoryboardValues.double(element["progress"])
        values["backgroundColor"] = StoryboardValues.color(element.child("color", key: "backgroundColor"))
        if let accessibility = element.child("accessibility", key: "accessibilityConfiguration") {
            values["accessibilityIdentifier"] = accessibility["identifier"]
            values["accessibilityLabel"] = accessibility["label"]
        }
        values["text"] = element["text"] ?? element.child("string", key: "text")?.text
        values["title"] =
            element.child("state", key: "normal")?["title"] ?? element.child("buttonConfiguration")?["title"]
            ?? element["title"]
        values["buttonType"] = StoryboardValues.buttonType(element["buttonType"])?.rawValue
        switch (element.name, element["style"]) {
        case ("tableView", "grouped"): values["style"] = UITableView.Style.grouped.rawValue
        case ("tableView", "insetGrouped"): values["style"] = UITableView.Style.insetGrouped.rawValue
        case ("tableView", _): values["style"] = UITableView.Style.plain.rawValue
        case ("tableViewCell", let style?):
            let styles = [
                "IBUITableViewCellStyleValue1": 1, "IBUITableViewCellStyleValue2": 2,
                "IBUITableViewCellStyleSubtitle": 3,
            ]
            values["style"] = styles[style] ?? 0
        default: values["style"] = nil
        }
        return values.compactMapValues { $0 }
    }

    private func configure(_ item: UINavigationItem, from element: LocatedXML.Element, scene: inout SceneObjects) {
        if let title = element["title"] { item.title = title }
        for key in ["leftBarButtonItem", "rightBarButtonItem"] {
            guard let itemElement = element.child("barButtonItem", key: key),
                let barItem = UIBarButtonItem(coder: UIKeyedCoder(Self.coderValues(itemElement)))
            else { continue }
            if let system = itemElement["systemItem"], let made = Self.systemItem(system) {
                let replacement = UIBarButtonItem(systemItem: made)
                replacement.title = barItem.title
                if let id = itemElement["id"] { scene.objects[id] = replacement }
                if key == "leftBarButtonItem" {
                    item.leftBarButtonItem = replacement
                } else {
                    item.rightBarButtonItem = replacement
                }
            } else {
                if let id = itemElement["id"] { scene.objects[id] = barItem }
                if key == "leftBarButtonItem" {
                    item.leftBarButtonItem = barItem
                } else {
                    item.rightBarButtonItem = barItem
                }
            }
        }
    }

    private static func systemItem(_ name: String) -> UIBarButtonItem.SystemItem? {
        let items: [String: UIBarButtonItem.SystemItem] = [
            "done": .done, "cancel": .cancel, "edit": .edit, "save": .save, "add": .add,
            "flexibleSpace": .flexibleSpace, "fixedSpace": .fixedSpace, "compose": .compose, "reply": .reply,
            "action": .action, "organize": .organize,
        ]
        return items[name]
    }

    /// Makes the view at `element` and its subviews (checked before: every class exists).
    private func makeView(_ element: LocatedXML.Element, scene: inout SceneObjects) -> UIView? {
        guard
            let type = classes[ObjectIdentifier(element)] as? UIView.Type ?? Self.viewElements[element.name]
                as? UIView.Type,
            let view = type.init(coder: UIKeyedCoder(Self.coderValues(element)))
        else { return nil }
        if let id = element["id"] { scene.objects[id] = view }
        scene.views.append((element, view))
        if let guide = element.child("viewLayoutGuide", key: "safeArea"), let id = guide["id"] {
            scene.objects[id] = view.safeAreaLayoutGuide
        }
        if let translates = StoryboardValues.bool(element["translatesAutoresizingMaskIntoConstraints"]) {
            view.translatesAutoresizingMaskIntoConstraints = translates
        }
        apply(element, to: view)
        if element.name == "containerView", let embed = embedSegue(of: element) {
            scene.embeds.append((view, embed))
        }
        for subviewElement in element.child("subviews")?.children ?? [] {
            guard let subview = makeView(subviewElement, scene: &scene) else { continue }
            if let stack = view as? UIStackView { stack.addArrangedSubview(subview) } else { view.addSubview(subview) }
        }
        return view
    }

    /// What `init?(coder:)` does not read, set as the nib loader sets the remaining attributes.
    private func apply(_ element: LocatedXML.Element, to view: UIView) {
        let font = StoryboardValues.font(element.child("fontDescription", key: "fontDescription"))
        let textColor = StoryboardValues.color(element.child("color", key: "textColor"))
        let alignment = StoryboardValues.textAlignment(element["textAlignment"])
        switch view {
        case let label as UILabel:
            if let font { label.font = font }
            if let textColor { label.textColor = textColor }
            if let alignment { label.textAlignment = alignment }
            if let lines = element["numberOfLines"].flatMap({ Int($0) }) { label.numberOfLines = lines }
        case let textView as UITextView:
            if let font { textView.font = font }
            if let textColor { textView.textColor = textColor }
        case let field as UITextField:
            if let font { field.font = font }
            if let textColor { field.textColor = textColor }
        case let imageView as UIImageView:
            let name = element["image"] ?? element.child("imageReference", key: "image")?["image"]
            if let name { imageView.image = UIImage(named: name, in: bundle, compatibleWith: nil) }
        case let stack as UIStackView:
            if let axis = StoryboardValues.axis(element["axis"]) { stack.axis = axis }
            if let spacing = StoryboardValues.double(element["spacing"]) { stack.spacing = CGFloat(spacing) }
            if let value = StoryboardValues.stackAlignment(element["alignment"]) { stack.alignment = value }
            if let value = StoryboardValues.stackDistribution(element["distribution"]) { stack.distribution = value }
        case let table as UITableView:
            for cell in element.child("prototypes")?.children ?? [] where cell.name == "tableViewCell" {
                guard let identifier = cell["reuseIdentifier"] else { continue }
                table.register(
                    classes[ObjectIdentifier(cell)] ?? UITableViewCell.self, forCellReuseIdentifier: identifier)
            }
            if let height = StoryboardValues.double(element["rowHeight"]) { table.rowHeight = CGFloat(height) }
        case let spinner as UIActivityIndicatorView:
            if element["style"] == "large" { spinner.style = .large }
        default: break
        }
    }

    /// Connects the outlets and actions written in `element` and its descendants whose two ends exist.
    private func connect(in element: LocatedXML.Element, scene: inout SceneObjects) {
        var pending: [(owner: LocatedXML.Element, element: LocatedXML.Element)] = [(element, element)]
        while let (owner, next) = pending.popLast() {
            for child in next.children {
                if child.name == "connections" {
                    for connection in child.children { connect(connection, from: owner, scene: &scene) }
                } else {
                    pending.append((child, child))
                }
            }
        }
    }

    private func connect(_ connection: LocatedXML.Element, from owner: LocatedXML.Element, scene: inout SceneObjects) {
        guard !scene.connected.contains(ObjectIdentifier(connection)), let ownerID = owner["id"],
            let source = scene.objects[ownerID]
        else { return }
        switch connection.name {
        case "outlet":
            guard let property = connection["property"],
                let destination = connection["destination"].flatMap({ scene.objects[$0] })
            else { return }
            scene.connected.insert(ObjectIdentifier(connection))
            setOutlet(property, of: source, to: destination, at: connection)
        case "action":
            guard let selectorName = connection["selector"], let destinationID = connection["destination"] else {
                return
            }
            let target = scene.objects[destinationID]
            // An action sent to the First Responder placeholder goes up the responder chain.
            guard target != nil || objects[destinationID]?.name == "placeholder" else { return }
            scene.connected.insert(ObjectIdentifier(connection))
            let selector = Selector(selectorName)
            let send: UIActionHandler = { [weak target] action in
                let receiver =
                    (target as? NSObject) ?? Self.firstResponder(from: action.sender as? UIResponder, for: selector)
                _ = receiver?.perform(selector, with: action.sender)
            }
            if let control = source as? UIControl {
                control.addAction(
                    UIAction(handler: send),
                    for: StoryboardValues.event(connection["eventType"]) ?? .primaryActionTriggered)
            } else if let item = source as? UIBarButtonItem {
                item.primaryAction = UIAction(title: item.title ?? "", handler: send)
            }
        case "segue":
            guard let kind = connection["kind"], kind != "relationship", kind != "embed",
                let destination = connection["destination"].flatMap({ objects[$0] }),
                let controller = scene.controller
            else { return }
            scene.connected.insert(ObjectIdentifier(connection))
            let identifier = connection["identifier"]
            let template = StoryboardSegueTemplate(identifier: identifier, kind: kind) { [self] in
                let made = try instantiate(destination)
                made.storedStoryboard = controller.storedStoryboard
                return made
            }
            // By its identifier, performSegue(withIdentifier:sender:) runs it (a manual segue, or a
            // triggered one run from code).
            if let identifier { controller.storyboardSegues[identifier] = template }
            guard source !== controller else { return }
            // A segue a control triggers, when tapped: shouldPerformSegue(withIdentifier:sender:) first.
            let trigger: UIActionHandler = { [weak controller] action in
                guard let controller else { return }
                if let identifier, !controller.shouldPerformSegue(withIdentifier: identifier, sender: action.sender) {
                    return
                }
                template.run(from: controller, sender: action.sender)
            }
            if let control = source as? UIControl {
                control.addAction(UIAction(handler: trigger), for: .primaryActionTriggered)
            } else if let item = source as? UIBarButtonItem {
                item.primaryAction = UIAction(title: item.title ?? "", handler: trigger)
            }
        default:
            return
        }
    }

    /// Performs the embed segues of `controller`'s container views, as UIKit does while the view
    /// loads: for each, a new destination, `prepare(for:sender:)` on `controller`, then the destination
    /// as a child whose view fills the container.
    private func embed(_ embeds: [(container: UIView, segue: LocatedXML.Element)], in controller: UIViewController) {
        for (container, segue) in embeds {
            guard let destinationElement = segue["destination"].flatMap({ objects[$0] }) else { continue }
            let template = StoryboardSegueTemplate(identifier: segue["identifier"], kind: "embed") { [self] in
                let made = try instantiate(destinationElement)
                made.storedStoryboard = controller.storedStoryboard
                return made
            }
            template.run(from: controller, sender: nil) { child in
                controller.addChild(child)
                child.view.frame = container.bounds
                container.addSubview(child.view)
                child.didMove(toParent: controller)
            }
        }
    }

    private static func firstResponder(from responder: UIResponder?, for selector: Selector) -> NSObject? {
        var current = responder
        while let candidate = current {
            if candidate.canDispatch(selector) { return candidate }
            current = candidate.next
        }
        return nil
    }

    /// Sets outlet `property` of `source` to `destination`, as key-value coding does on iOS: UIKit's own
    /// outlets (`dataSource`, `delegate`) through their setters, a class's own stored properties by name.
    private func setOutlet(
        _ property: String, of source: AnyObject, to destination: AnyObject, at element: LocatedXML.Element
    ) {
        switch (source, property) {
        case (let table as UITableView, "dataSource"):
            table.dataSource = destination as? any UITableViewDataSource
            return
        case (let table as UITableView, "delegate"):
            table.delegate = destination as? any UITableViewDelegate
            return
        case (let textView as UITextView, "delegate"):
            textView.delegate = destination as? any UITextViewDelegate
            return
        case (let field as UITextField, "delegate"):
            field.delegate = destination as? any UITextFieldDelegate
            return
        default: break
        }
        if ClassMetadata(type(of: source)).set(property, of: source, to: destination) { return }
        UIKitDiagnostics.record(
            .unknownOutlet,
            "\(path):\(element.line):\(element.column): outlet '\(property)' of \(String(reflecting: type(of: source))) "
                + "was not set: the class has no stored property '\(property)' that takes a "
                + "\(String(reflecting: type(of: destination))) (on iOS: NSUnknownKeyException, \"this class is not "
                + "key value coding-compliant for the key \(property)\", and the extension ends)",
            object: source)
    }

    /// Records the `<constraints>` of every view made (recorded, not solved) and activates them.
    private func activateConstraints(in element: LocatedXML.Element, scene: SceneObjects) {
        var constraints: [NSLayoutConstraint] = []
        for (viewElement, view) in scene.views {
            for constraint in viewElement.child("constraints")?.children ?? [] where constraint.name == "constraint" {
                let first: AnyObject = constraint["firstItem"].flatMap { scene.objects[$0] } ?? view
                let second: AnyObject? = constraint["secondItem"].flatMap { scene.objects[$0] }
                guard let firstAttribute = StoryboardValues.attribute(constraint["firstAttribute"]) else { continue }
                let secondAttribute = StoryboardValues.attribute(constraint["secondAttribute"]) ?? .notAnAttribute
                if constraint["secondItem"] != nil, second == nil { continue }
                let relation: NSLayoutConstraint.Relation =
                    switch constraint["relation"] {
                    case "greaterThanOrEqual": .greaterThanOrEqual
                    case "lessThanOrEqual": .lessThanOrEqual
                    default: .equal
                    }
                let made = NSLayoutConstraint(
                    item: first, attribute: firstAttribute, relatedBy: relation, toItem: second,
                    attribute: second == nil ? .notAnAttribute : secondAttribute,
                    multiplier: StoryboardValues.multiplier(constraint["multiplier"]),
                    constant: CGFloat(StoryboardValues.double(constraint["constant"]) ?? 0))
                if let priority = StoryboardValues.double(constraint["priority"]) {
                    made.priority = UILayoutPriority(Float(priority))
                }
                made.identifier = constraint["identifier"] ?? constraint["id"]
                constraints.append(made)
            }
        }
        NSLayoutConstraint.activate(constraints)
    }
}
