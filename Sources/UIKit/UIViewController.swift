public import ExtensionFoundation
public import Foundation
package import HeadlessScreens

/// `UIViewController`: manages a view and its life cycle. An extension's principal view controller
/// gets `beginRequest(with:)`, then — when its sheet appears — `loadView`, `viewDidLoad`,
/// `viewWillAppear(_:)`, `viewIsAppearing(_:)`, `viewDidAppear(_:)`, and when the sheet goes away
/// `viewWillDisappear(_:)`, `viewDidDisappear(_:)`, in the order a device calls them. Each call UIKit
/// makes is recorded for the report.
@preconcurrency @MainActor
open class UIViewController: UIResponder, UITraitEnvironment {
    /// Where the view controller is in its appearance.
    enum Appearance {
        case disappeared, appearing, appeared, disappearing
    }

    private var storedView: UIView?
    private var isLoadingView = false
    private var storedNavigationItem: UINavigationItem?
    private var storedExtensionContext: NSExtensionContext?
    private let storedNibName: String?
    private let storedNibBundle: Bundle?
    var appearance = Appearance.disappeared
    var storedChildren: [UIViewController] = []
    weak var storedParent: UIViewController?
    weak var storedPresenting: UIViewController?
    var storedPresented: UIViewController?
    /// The journal the screen keeps (set on the screen's root; others find it through their parent
    /// or presenter).
    var hostedJournal: LifeCycleJournal?
    private var pendingLifeCycle: [LifeCycleJournal.Entry] = []
    /// A view a storyboard made for this controller (`loadView` uses it instead of a plain view).
    package var storyboardView: (() -> UIView)?
    /// The storyboard this controller was made from.
    var storedStoryboard: UIStoryboard?
    /// The segues its storyboard scene declares, by identifier.
    var storyboardSegues: [String: StoryboardSegueTemplate] = [:]
    /// Steps the scripted user takes when given none (a compose sheet: `tap Post`).
    package var defaultUserScript = UIScript(steps: [])
    /// Runs before `viewWillAppear(_:)`, once the view is loaded (the compose sheet asks for its
    /// configuration items).
    package var beforeAppearing: (() -> Void)?
    /// Runs after `viewDidAppear(_:)` (the compose sheet calls `presentationAnimationDidFinish()`).
    package var afterAppearing: (() -> Void)?
    /// Whether UIKit's calls to this controller go into the report's life cycle (`false` for the
    /// controllers a framework makes for itself, such as the compose sheet's own navigation).
    package var recordsLifeCycle = true

    /// A view controller with no nib (`nibName` and `nibBundle` as given).
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        storedNibName = nibNameOrNil
        storedNibBundle = nibBundleOrNil
        super.init()
    }

    /// A view controller with no nib.
    public override convenience init() { self.init(nibName: nil, bundle: nil) }

    /// A view controller from a storyboard (UIKit makes a storyboard's and a principal class's view
    /// controllers this way); reads `title` and `nibName` when the coder has them.
    public required init?(coder: NSCoder) {
        storedNibName = coder.decodeObject(forKey: "nibName") as? String
        storedNibBundle = nil
        super.init(coder: coder)
        title = coder.decodeObject(forKey: "title") as? String
    }

    // MARK: - The view

    /// The nib's name, when the controller was made with one (or from a storyboard).
    open var nibName: String? { storedNibName }
    /// The nib's bundle.
    open var nibBundle: Bundle? { storedNibBundle }
    /// Apple's `storyboard`: "The storyboard from which the view controller originated" — nil for a
    /// controller made in code (developer.apple.com/documentation/uikit/uiviewcontroller/storyboard).
    open var storyboard: UIStoryboard? { storedStoryboard }

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The view, loaded on first access (Apple: "The view controller calls this method when its view
    /// property is requested but is currently nil"): `loadView()`, then `viewDidLoad()`.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return storedView
        }
        set {
            UIKitThread.check("UIViewController.view", self)
            if let old = storedView, old.owningViewController === self { old.owningViewController = nil }
            storedView = newValue
            newValue?.owningViewController = self
        }
    }

    /// The view if it is loaded, without loading it.
    open var viewIfLoaded: UIView? { storedView }
    /// Whether the view is loaded.
    open var isViewLoaded: Bool { storedView != nil }

    /// Loads the view now if it is not loaded.
    open func loadViewIfNeeded() {
        guard storedView == nil, !isLoadingView else { return }
        isLoadingView = true
        record("loadView()")
        loadView()
        isLoadingView = false
        // A loadView that sets no view leaves UIKit asking again on every access; a plain view keeps
        // the controller usable.
        if storedView == nil { view = UIView(frame: UIScreen.main.bounds) }
        record("viewDidLoad()")
        viewDidLoad()
    }

    /// Makes the view: the storyboard's when there is one, else a plain `UIView` (Apple: "If the view
    /// controller does not have an associated nib file, this method creates a plain UIView object").
    /// Override it to build the view in code and assign ``view``; do not call `super` then.
    open func loadView() {
        view = storyboardView?() ?? UIView(frame: UIScreen.main.bounds)
    }

    /// Called after the view loaded.
    open func viewDidLoad() {}
    /// Called before the view is added to the window (Apple: "Notifies the view controller that its
    /// view is about to be added to a view hierarchy").
    open func viewWillAppear(_ animated: Bool) {}
    /// Called once the view is in the window, before it shows (Apple: "after it has been added to the
    /// hierarchy and been laid out by its superview").
    open func viewIsAppearing(_ animated: Bool) {}
    /// Called after the view appeared.
    open func viewDidAppear(_ animated: Bool) {}
    /// Called before the view leaves the screen.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Called after the view left the screen.
    open func viewDidDisappear(_ animated: Bool) {}
    /// Called before the view lays out its subviews.
    open func viewWillLayoutSubviews() {}
    /// Called after the view laid out its subviews.
    open func viewDidLayoutSubviews() {}
    /// Called when the constraints need updating.
    open func updateViewConstraints() {}
    /// Called when memory is low (never here: the memory limit ends the process, as jetsam does).
    open func didReceiveMemoryWarning() {}

    /// The title (the navigation bar shows it).
    open var title: String? {
        didSet {
            UIKitThread.check("UIViewController.title", self)
            storedNavigationItem?.titleFromController = title
        }
    }

    /// The size the controller would like when a container lays it out (a compose sheet's
    /// configuration controllers set it).
    open var preferredContentSize: CGSize = .zero {
        didSet { UIKitThread.check("UIViewController.preferredContentSize", self) }
    }

    /// The traits of the headless phone.
    open var traitCollection: UITraitCollection { UITraitCollection.current }
    /// Never called: the headless phone's traits do not change.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}
    /// Light or dark mode forced for this controller (recorded; the screen stays light).
    open var overrideUserInterfaceStyle: UIUserInterfaceStyle = .unspecified

    /// Whether the controller is editing.
    open private(set) var isEditing = false
    /// Turns editing on or off.
    open func setEditing(_ editing: Bool, animated: Bool) { isEditing = editing }

    // MARK: - Presentation

    /// How the controller covers the screen when presented (Apple: "The default value is
    /// UIModalPresentationStyle.automatic", a page sheet on a phone).
    open var modalPresentationStyle: UIModalPresentationStyle = .automatic {
        didSet { UIKitThread.check("UIViewController.modalPresentationStyle", self) }
    }
    /// How the presentation animates (recorded).
    open var modalTransitionStyle: UIModalTransitionStyle = .coverVertical
    /// Whether a sheet refuses to be swiped away.
    open var isModalInPresentation = false
    /// Whether presentations from inside cover only this controller.
    open var definesPresentationContext = false
    /// Where the controller is in a presentation.
    var presentationPhase: PresentationPhase?
    /// Where the controller is in being added to or removed from a parent.
    var containmentPhase: ContainmentPhase?

    /// Called before the controller is added to or removed from a container.
    open func willMove(toParent parent: UIViewController?) {}

    /// Called after the controller was added to or removed from a container (Apple: the container
    /// calls it after `addChild(_:)`; `removeFromParent()` calls it itself).
    open func didMove(toParent parent: UIViewController?) {
        if containmentPhase == .adding { containmentPhase = nil }
    }

    /// Called when the controller's view went on screen as a presented layer (alerts focus their
    /// first text field).
    func didAppearOnScreen() {}

    /// Called when the controller left the screen after a dismissal.
    func didLeaveScreen() {}

    /// Whether the controller forwards appearance calls to its children (`true`, as UIKit's default).
    open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

    // MARK: - The extension

    /// The request this controller serves (Apple: "If no extension context is set for the current view
    /// controller, the system walks up the view controller hierarchy to find a parent view controller
    /// that has a non-nil extensionContext value").
    open var extensionContext: NSExtensionContext? {
        storedExtensionContext ?? storedParent?.extensionContext ?? storedPresenting?.extensionContext
    }

    /// Begins the extension's request (`NSExtensionRequestHandling`): UIKit calls it on the principal
    /// view controller before its view loads; it keeps `context` as ``extensionContext``. An override
    /// calls `super`.
    open func beginRequest(with context: NSExtensionContext) {
        storedExtensionContext = context
    }

    // MARK: - The responder chain

    /// The presenting controller for a presented one, else the view's superview (Apple:
    /// "UIViewController … returns its view's superview").
    open override var next: UIResponder? {
        if storedParent == nil, let presenting = storedPresenting { return presenting }
        return storedView?.superview
    }

    // MARK: - Navigation

    /// The navigation item a navigation controller shows for this controller (made on first use).
    open var navigationItem: UINavigationItem {
        if let item = storedNavigationItem { return item }
        let item = UINavigationItem(title: "")
        item.title = nil
        item.titleFromController = title
        storedNavigationItem = item
        return item
    }

    /// The nearest navigation controller up the parent chain.
    open var navigationController: UINavigationController? {
        var current = storedParent
        while let controller = current {
            if let navigation = controller as? UINavigationController { return navigation }
            current = controller.storedParent
        }
        return nil
    }

    /// The items a navigation controller's toolbar shows for this controller.
    open var toolbarItems: [UIBarButtonItem]?
    /// Whether a tab bar hides when this controller is pushed.
    open var hidesBottomBarWhenPushed = false

    /// A bar button that toggles ``isEditing``.
    open var editButtonItem: UIBarButtonItem {
        UIBarButtonItem(
            systemItem: isEditing ? .done : .edit,
            primaryAction: UIAction(title: "") { [weak self] _ in
                guard let self else { return }
                self.setEditing(!self.isEditing, animated: true)
            })
    }

    // MARK: - Segues

    /// Apple's `prepare(for:sender:)`: "Notifies the view controller that a segue is about to be
    /// performed" — override it to hand data to `segue.destination`. Does nothing by default; runs
    /// before every segue from this controller, embed segues included (while the view loads).
    open func prepare(for segue: UIStoryboardSegue, sender: Any?) {}

    /// Apple's `shouldPerformSegue(withIdentifier:sender:)`: whether a segue a control triggers runs
    /// (`true` by default). As on iOS, `performSegue(withIdentifier:sender:)` does not ask it.
    open func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { true }

    /// Apple's `performSegue(withIdentifier:sender:)`: runs the segue with `identifier` that the
    /// controller's storyboard scene declares — `prepare(for:sender:)`, then the transition.
    ///
    /// An identifier the scene does not declare raises NSInvalidArgumentException on iOS ("Receiver …
    /// has no segue with identifier …"); exthost reports it (`storyboardRefused`) and does nothing.
    open func performSegue(withIdentifier identifier: String, sender: Any?) {
        UIKitThread.check("UIViewController.performSegue(withIdentifier:sender:)", self)
        guard let template = storyboardSegues[identifier] else {
            UIKitDiagnostics.record(
                .storyboardRefused,
                "Receiver (\(String(describing: type(of: self)))) has no segue with identifier '\(identifier)' (iOS "
                    + "raises NSInvalidArgumentException and ends the extension)", object: self)
            return
        }
        template.run(from: self, sender: sender)
    }

    /// Shows `vc`: pushes it when in a navigation controller, else presents it.
    open func show(_ vc: UIViewController, sender: Any?) {
        if let navigationController {
            navigationController.pushViewController(vc, animated: true)
        } else {
            present(vc, animated: true)
        }
    }

    // MARK: - The life-cycle record

    /// Records a call UIKit (or a framework on it, such as Social) makes to this controller.
    package func record(_ call: String) {
        guard recordsLifeCycle else { return }
        let entry = LifeCycleJournal.Entry(
            sequence: LifeCycleClock.tick(),
            event: LifeCycleEvent(controller: String(describing: type(of: self)), call: call))
        if let journal { journal.append(entry) } else { pendingLifeCycle.append(entry) }
    }

    /// The journal of the screen this controller is on, if any.
    var journal: LifeCycleJournal? {
        hostedJournal ?? storedParent?.journal ?? storedPresenting?.journal
    }

    /// Hands calls recorded before the controller was on a screen to its journal (and its children's).
    func flushLifeCycle() {
        if let journal, !pendingLifeCycle.isEmpty {
            journal.append(contentsOf: pendingLifeCycle)
            pendingLifeCycle = []
        }
        for child in storedChildren { child.flushLifeCycle() }
        storedPresented?.flushLifeCycle()
    }
}

/// The calls UIKit made to the view controllers of one screen, in order.
@MainActor
package final class LifeCycleJournal {
    /// One call, numbered across the process.
    struct Entry {
        var sequence: UInt64
        var event: LifeCycleEvent
    }

    private var entries: [Entry] = []

    /// An empty journal.
    package init() {}

    func append(_ entry: Entry) { entries.append(entry) }

    func append(contentsOf more: [Entry]) { entries.append(contentsOf: more) }

    /// The calls, in the order UIKit made them.
    package var events: [LifeCycleEvent] { entries.sorted { $0.sequence < $1.sequence }.map(\.event) }

    /// Records a call made outside UIKit (the extension runtime making the principal object).
    package func record(controller: String, call: String) {
        append(Entry(sequence: LifeCycleClock.tick(), event: LifeCycleEvent(controller: controller, call: call)))
    }
}

/// `UIModalPresentationStyle`: how a presented view controller covers the screen.
public enum UIModalPresentationStyle: Int, Sendable {
    /// The whole screen; the presenter disappears.
    case fullScreen = 0
    /// A sheet over the presenter (the phone's default).
    case pageSheet = 1
    /// A smaller sheet (a page sheet on a phone).
    case formSheet = 2
    /// Over the presenter's context.
    case currentContext = 3
    /// A custom presentation.
    case custom = 4
    /// The whole screen, the presenter staying under it.
    case overFullScreen = 5
    /// Over the presenter's context, which stays under it.
    case overCurrentContext = 6
    /// A popover (a sheet on a phone).
    case popover = 7
    /// No adaptation.
    case none = -1
    /// The system's choice (a page sheet).
    case automatic = -2

    var name: String {
        switch self {
        case .fullScreen: "fullScreen"
        case .pageSheet: "pageSheet"
        case .formSheet: "formSheet"
        case .currentContext: "currentContext"
        case .custom: "custom"
        case .overFullScreen: "overFullScreen"
        case .overCurrentContext: "overCurrentContext"
        case .popover: "popover"
        case .none: "none"
        case .automatic: "automatic"
        }
    }
}

/// `UIModalTransitionStyle`: how a presentation animates (recorded; nothing moves).
public enum UIModalTransitionStyle: Int, Sendable {
    /// From the bottom.
    case coverVertical = 0
    /// A flip.
    case flipHorizontal = 1
    /// A fade.
    case crossDissolve = 2
    /// A page curl.
    case partialCurl = 3
}
