import Foundation
import HeadlessScreens

/// Something on screen a finger can tap, found while walking the view tree.
@MainActor
struct TapTarget {
    enum Kind {
        case control(UIControl)
        case barButton(UIBarButtonItem)
        case backButton(UINavigationController)
        case alertAction(UIAlertController, UIAlertAction)
        case cell(UITableView, IndexPath)
        case gesture(UIView, UIGestureRecognizer)
    }

    var kind: Kind
    /// What `tap TITLE` matches: the title, then the accessibility label.
    var titles: [String]
    /// What `tap #identifier` matches.
    var identifier: String?
    /// `UIButton "Post"`, for notes.
    var description: String
    /// Why a finger cannot use it now (nil: it can).
    var blocked: String?
    /// The layer it is in (0: the sheet).
    var layer: Int
    /// The diagnostic a tap that does nothing deserves beyond `tapIgnored`.
    var ignoredKind: UIDiagnostic.Kind?
}

/// Walks a window's layers into a ``ScreenSnapshot`` and the list of tap targets.
@MainActor
struct ScreenWalker {
    private(set) var targets: [TapTarget] = []
    private var layer = 0
    private var constraintsByView: [ObjectIdentifier: [NSLayoutConstraint]] = [:]
    private var constraintOwners: [ObjectIdentifier: UIView] = [:]

    /// The screen of `window` with `root` as the extension's sheet.
    mutating func snapshot(of window: UIWindow, root: UIViewController?, closed: Bool) -> ScreenSnapshot {
        targets = []
        collectConstraints(window)
        var layers: [ScreenSnapshot.Layer] = []
        if !closed {
            for subview in window.subviews {
                guard let controller = subview.owningViewController else {
                    if var last = layers.popLast() {
                        last.root.children.append(node(for: subview, blocked: nil))
                        layers.append(last)
                    }
                    continue
                }
                layer = layers.count
                layers.append(self.layer(for: controller, view: subview, isSheet: controller === root))
            }
        }
        let front = layers.count - 1
        for index in targets.indices where targets[index].layer < front && targets[index].blocked == nil {
            targets[index].blocked = "covered by \(layers[front].controller)"
        }
        if front > 0 {
            for index in layers.indices where index < front { clearTappable(&layers[index].root) }
        }
        return ScreenSnapshot(
            width: Double(window.bounds.width), height: Double(window.bounds.height), layers: layers,
            closed: closed ? true : nil)
    }

    private func clearTappable(_ node: inout ViewNode) {
        node.tappable = nil
        for index in node.children.indices { clearTappable(&node.children[index]) }
    }

    private mutating func layer(for controller: UIViewController, view: UIView, isSheet: Bool) -> ScreenSnapshot.Layer {
        let name = String(describing: type(of: controller))
        if let alert = controller as? UIAlertController {
            return ScreenSnapshot.Layer(
                kind: alert.preferredStyle == .alert ? .alert : .actionSheet, controller: name, title: alert.title,
                message: alert.message, root: alertNode(alert, blocked: view.isHidden ? "hidden" : nil))
        }
        let style = controller.resolvedPresentationStyle
        return ScreenSnapshot.Layer(
            kind: isSheet ? .sheet : .presented, controller: name,
            presentationStyle: isSheet ? (style == .fullScreen ? "fullScreen" : "pageSheet") : style.name,
            title: controller.title, root: node(for: view, blocked: nil))
    }

    // MARK: - Views

    private mutating func node(for view: UIView, blocked inherited: String?) -> ViewNode {
        var own: String?
        if view.isHidden {
            own = "hidden"
        } else if view.alpha < 0.01 {
            own = "transparent (alpha \(UIFont.number(view.alpha)))"
        } else if !view.isUserInteractionEnabled {
            own = "user interaction is off"
        }
        let blocked = inherited ?? own
        var node = ViewNode(
            type: String(describing: type(of: view)), role: .view, frame: Self.frame(view.frame))
        node.identifier = view.accessibilityIdentifier
        node.accessibilityLabel = view.accessibilityLabel
        if view.isHidden { node.hidden = true }
        if view.alpha != 1 { node.alpha = Double(view.alpha) }
        if !view.isUserInteractionEnabled, !(view is UILabel), !(view is UIImageView) { node.interactive = false }
        node.background = view.backgroundColor?.hexString
        if view.isFirstResponder { node.firstResponder = true }
        let gestures = view.storedGestureRecognizers.filter(\.isEnabled)
        if !gestures.isEmpty { node.gestures = gestures.map(\.gestureName) }
        let constraints = constraintsByView[ObjectIdentifier(view)] ?? []
        if !constraints.isEmpty { node.constraints = constraints.map { $0.text(relativeTo: view) } }
        var children = view.subviews
        describe(view, into: &node, children: &children, blocked: blocked)
        for recognizer in gestures where recognizer is UITapGestureRecognizer {
            let titles = [node.text, view.accessibilityLabel].compactMap { $0 }
            addTarget(
                .gesture(view, recognizer), node: &node, titles: titles, identifier: view.accessibilityIdentifier,
                description: "\(node.type) with a tap gesture", blocked: blocked)
        }
        node.children += children.map { self.node(for: $0, blocked: blocked) }
        return node
    }

    private mutating func describe(
        _ view: UIView, into node: inout ViewNode, children: inout [UIView], blocked: String?
    ) {
        switch view {
        case is UIWindow:
            node.role = .window
        case let bar as UINavigationBar:
            describeBar(bar, into: &node, blocked: blocked)
        case let table as UITableView:
            describeTable(table, into: &node, children: &children, blocked: blocked)
        case let textView as UITextView:
            node.role = .textView
            node.text = textView.text
            node.placeholder = textView.placeholderText
            node.font = textView.font?.summary
            if !textView.isEditable { node.style = "readOnly" }
        case is UIScrollView:
            node.role = .scrollView
        case let field as UITextField:
            node.role = .textField
            node.text = field.text
            node.placeholder = field.placeholder
            node.font = field.font?.summary
            node.textColor = field.textColor?.hexString
            if field.isSecureTextEntry { node.secure = true }
            if !field.isEnabled { node.enabled = false }
            addTarget(
                .control(field), node: &node, titles: [field.placeholder, field.accessibilityLabel].compactMap { $0 },
                identifier: field.accessibilityIdentifier,
                description: "UITextField \(quote(field.placeholder ?? field.text ?? ""))",
                blocked: blocked ?? (field.isEnabled ? nil : "disabled"))
        case let button as UIButton:
            node.role = .button
            node.text = button.currentTitle
            node.textColor = button.currentTitleColor.hexString
            if let image = button.currentImage { node.image = Self.summary(of: image) }
            if ![.custom, .system].contains(button.buttonType) { node.style = button.buttonType.name }
            if !button.isEnabled { node.enabled = false }
            if button.isSelected { node.selected = true }
            let titles = [button.currentTitle, button.accessibilityLabel, button.buttonType.implicitLabel]
            addTarget(
                .control(button), node: &node, titles: titles.compactMap { $0 },
                identifier: button.accessibilityIdentifier,
                description: "UIButton \(quote(button.currentTitle ?? button.accessibilityLabel ?? ""))",
                blocked: blocked ?? (button.isEnabled ? nil : "disabled"),
                ignoredKind: button.disabledTapDiagnostic)
        case let control as UIControl:
            node.role = .control
            if !control.isEnabled { node.enabled = false }
            if control.isSelected { node.selected = true }
            let labels = Self.labelTexts(in: control)
            node.text = control.accessibilityLabel ?? labels.first
            if labels.count > 1 { node.detail = labels.dropFirst().joined(separator: " ") }
            children = []
            addTarget(
                .control(control), node: &node, titles: [control.accessibilityLabel].compactMap { $0 } + labels,
                identifier: control.accessibilityIdentifier,
                description: "\(node.type) \(quote(node.text ?? ""))",
                blocked: blocked ?? (control.isEnabled ? nil : "disabled"),
                ignoredKind: control.disabledTapDiagnostic)
            node.children = control.subviews.filter { !($0 is UILabel) }.map { self.node(for: $0, blocked: blocked) }
        case let label as UILabel:
            node.role = .label
            node.text = label.text
            node.font = label.font.summary
            node.textColor = label.textColor.hexString
        case let imageView as UIImageView:
            node.role = .image
            if let image = imageView.image { node.image = Self.summary(of: image) }
        case let stack as UIStackView:
            node.role = .stack
            node.style = stack.axis == .horizontal ? "horizontal" : "vertical"
        case let indicator as UIActivityIndicatorView:
            node.role = .activityIndicator
            if indicator.isAnimating { node.animating = true }
        case let progress as UIProgressView:
            node.role = .progress
            node.progress = Double(progress.progress)
        default:
            break
        }
    }

    private mutating func describeBar(_ bar: UINavigationBar, into node: inout ViewNode, blocked: String?) {
        node.role = .navigationBar
        guard let controller = bar.controller, let item = bar.topItem else { return }
        node.text = item.title
        if let back = bar.backItem, !item.hidesBackButton {
            let title = back.backBarButtonItem?.title ?? back.backButtonTitle ?? back.title ?? "Back"
            var button = ViewNode(type: "UIBarButtonItem", role: .backButton, text: title)
            button.style = "back"
            addTarget(
                .backButton(controller), node: &button, titles: [title, "Back"], identifier: nil,
                description: "the back button \(quote(title))", blocked: blocked)
            node.children.append(button)
        }
        for (side, items) in [
            ("left", item.leftBarButtonItems ?? []), ("right", (item.rightBarButtonItems ?? []).reversed()),
        ] {
            for barItem in items where !barItem.isSpace {
                node.children.append(barButtonNode(barItem, side: side, blocked: blocked))
            }
        }
    }

    private mutating func barButtonNode(_ item: UIBarButtonItem, side: String, blocked: String?) -> ViewNode {
        if let custom = item.customView { return self.node(for: custom, blocked: blocked) }
        var node = ViewNode(type: String(describing: type(of: item)), role: .barButton, text: item.shownTitle)
        node.identifier = item.accessibilityIdentifier
        node.style = item.style == .done ? side + " done" : side
        if !item.isEnabled { node.enabled = false }
        if let image = item.image { node.image = Self.summary(of: image) }
        let titles = [item.title, item.systemItem?.shownTitle, item.accessibilityLabel].compactMap { $0 }
        addTarget(
            .barButton(item), node: &node, titles: titles, identifier: item.accessibilityIdentifier,
            description: "the bar button \(quote(item.shownTitle ?? ""))",
            blocked: blocked ?? (item.isEnabled ? nil : "disabled"), ignoredKind: item.disabledTapDiagnostic)
        return node
    }

    private mutating func describeTable(
        _ table: UITableView, into node: inout ViewNode, children: inout [UIView], blocked: String?
    ) {
        node.role = .table
        node.style = table.style == .plain ? nil : table.style.name
        table.loadRowsIfNeeded()
        var cells: [ViewNode] = []
        if let header = table.tableHeaderView { cells.append(self.node(for: header, blocked: blocked)) }
        for row in table.loadedRows {
            var cellNode = self.node(for: row.cell, blocked: blocked)
            cellNode.role = .cell
            let content = row.cell.shownContent
            cellNode.text = content.text
            cellNode.detail = content.detail
            if let image = content.image { cellNode.image = Self.summary(of: image) }
            if table.indexPathsForSelectedRows?.contains(row.indexPath) == true { cellNode.selected = true }
            let reason = blocked ?? (table.allowsSelection ? nil : "the table does not allow selection")
            addTarget(
                .cell(table, row.indexPath), node: &cellNode, titles: [content.text].compactMap { $0 },
                identifier: row.cell.accessibilityIdentifier,
                description: "row \(row.indexPath.row + 1) of section \(row.indexPath.section + 1)", blocked: reason)
            cells.append(cellNode)
        }
        if table.rowCount > table.loadedRows.count {
            var more = ViewNode(
                type: "UITableView", role: .label, text: "… \(table.rowCount - table.loadedRows.count) more rows")
            more.style = "more"
            cells.append(more)
        }
        if let footer = table.tableFooterView { cells.append(self.node(for: footer, blocked: blocked)) }
        node.children = cells
        children = []
    }

    private mutating func alertNode(_ alert: UIAlertController, blocked: String?) -> ViewNode {
        var node = ViewNode(type: "UIAlertController", role: .alert, text: alert.title)
        node.detail = alert.message
        if alert.preferredStyle == .actionSheet { node.style = "actionSheet" }
        for field in alert.textFields ?? [] { node.children.append(self.node(for: field, blocked: blocked)) }
        for action in alert.actions {
            var actionNode = ViewNode(type: "UIAlertAction", role: .alertAction, text: action.title)
            if action.style != .default { actionNode.style = action.style.name }
            if !action.isEnabled { actionNode.enabled = false }
            addTarget(
                .alertAction(alert, action), node: &actionNode, titles: [action.title].compactMap { $0 },
                identifier: nil, description: "the alert action \(quote(action.title ?? ""))",
                blocked: blocked ?? (action.isEnabled ? nil : "disabled"))
            node.children.append(actionNode)
        }
        return node
    }

    private mutating func addTarget(
        _ kind: TapTarget.Kind, node: inout ViewNode, titles: [String], identifier: String?, description: String,
        blocked: String?, ignoredKind: UIDiagnostic.Kind? = nil
    ) {
        targets.append(
            TapTarget(
                kind: kind, titles: titles, identifier: identifier, description: description, blocked: blocked,
                layer: layer, ignoredKind: ignoredKind))
        if blocked == nil { node.tappable = true }
    }

    // MARK: - Helpers

    private mutating func collectConstraints(_ view: UIView) {
        for constraint in view.recordedConstraints {
            guard let first = NSLayoutConstraint.view(of: constraint.firstItem) else { continue }
            constraintsByView[ObjectIdentifier(first), default: []].append(constraint)
        }
        for subview in view.subviews { collectConstraints(subview) }
        if let table = view as? UITableView {
            for row in table.loadedRows { collectConstraints(row.cell) }
        }
    }

    static func frame(_ rect: CGRect) -> ViewNode.Frame {
        ViewNode.Frame(
            x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
    }

    static func summary(of image: UIImage) -> ViewNode.Image {
        ViewNode.Image(
            width: Double(image.size.width), height: Double(image.size.height), scale: Double(image.scale),
            thumbnailPNG: image.thumbnailPNG(maximumPixels: 160).map { [UInt8]($0) })
    }

    static func labelTexts(in view: UIView) -> [String] {
        var texts: [String] = []
        for subview in view.subviews where !subview.isHidden {
            if let label = subview as? UILabel, let text = label.text, !text.isEmpty { texts.append(text) }
            texts += labelTexts(in: subview)
        }
        return texts
    }

    private func quote(_ text: String) -> String { "\"\(text)\"" }
}
