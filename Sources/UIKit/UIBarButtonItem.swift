public import ExtensionFoundation
public import Foundation
package import HeadlessScreens

/// `UIBarItem`: an item of a navigation bar, toolbar or tab bar.
@preconcurrency @MainActor
open class UIBarItem: NSObject {
    /// The title.
    open var title: String? { didSet { UIKitThread.check("UIBarItem.title", self) } }
    /// The image.
    open var image: UIImage?
    /// Whether it can be tapped.
    open var isEnabled = true { didSet { UIKitThread.check("UIBarItem.isEnabled", self) } }
    /// A number to tell it apart.
    open var tag = 0
    /// The identifier UI tests (and `tap #identifier`) find it by.
    open var accessibilityIdentifier: String?
    /// The label VoiceOver reads.
    open var accessibilityLabel: String?

    /// An item.
    public override init() { super.init() }
}

/// `UIBarButtonItem`: a button in a navigation bar or toolbar. The scripted user taps it by its
/// title (a system item by the title iOS shows: `Done`, `Cancel`, `Save`, …).
@preconcurrency @MainActor
open class UIBarButtonItem: UIBarItem {
    /// The look.
    public enum Style: Int, Sendable {
        /// Plain.
        case plain = 0
        /// Bordered (deprecated).
        case bordered = 1
        /// Bold: the main action.
        case done = 2
    }

    /// A system item.
    public enum SystemItem: Int, Sendable {
        /// Done.
        case done = 0
        /// Cancel.
        case cancel = 1
        /// Edit.
        case edit = 2
        /// Save.
        case save = 3
        /// Add (+).
        case add = 4
        /// A flexible space.
        case flexibleSpace = 5
        /// A fixed space.
        case fixedSpace = 6
        /// Compose.
        case compose = 7
        /// Reply.
        case reply = 8
        /// Share.
        case action = 9
        /// Organize.
        case organize = 10
        /// Bookmarks.
        case bookmarks = 11
        /// Search.
        case search = 12
        /// Refresh.
        case refresh = 13
        /// Stop.
        case stop = 14
        /// Camera.
        case camera = 15
        /// Delete.
        case trash = 16
        /// Play.
        case play = 17
        /// Pause.
        case pause = 18
        /// Rewind.
        case rewind = 19
        /// Fast forward.
        case fastForward = 20
        /// Undo.
        case undo = 21
        /// Redo.
        case redo = 22
        /// Page curl.
        case pageCurl = 23
        /// Close.
        case close = 24

        /// The title (or accessibility label) iOS shows for the item.
        var shownTitle: String? {
            switch self {
            case .done: "Done"
            case .cancel: "Cancel"
            case .edit: "Edit"
            case .save: "Save"
            case .add: "Add"
            case .flexibleSpace, .fixedSpace, .pageCurl: nil
            case .compose: "Compose"
            case .reply: "Reply"
            case .action: "Share"
            case .organize: "Organize"
            case .bookmarks: "Bookmarks"
            case .search: "Search"
            case .refresh: "Refresh"
            case .stop: "Stop"
            case .camera: "Camera"
            case .trash: "Delete"
            case .play: "Play"
            case .pause: "Pause"
            case .rewind: "Rewind"
            case .fastForward: "Fast Forward"
            case .undo: "Undo"
            case .redo: "Redo"
            case .close: "Close"
            }
        }
    }

    /// The look.
    open var style: Style = .plain
    /// The system item it was made as.
    public private(set) var systemItem: SystemItem?
    /// A view shown instead of a button.
    open var customView: UIView?
    /// The action performed when tapped.
    open var primaryAction: UIAction?
    /// The menu shown when tapped (or held).
    open var menu: UIMenu?
    /// The width of a fixed space.
    open var width: CGFloat = 0
    /// The tint colour.
    open var tintColor: UIColor?
    /// What a tap on this item while it is disabled means, beyond "nothing happened" (the compose
    /// sheet's Post: Post tapped while `isContentValid()` was false).
    package var disabledTapDiagnostic: UIDiagnostic.Kind?

    /// A plain item.
    public override init() { super.init() }

    /// An item from a storyboard.
    public required init?(coder: NSCoder) {
        super.init()
        title = coder.decodeObject(forKey: "title") as? String
    }

    /// An item that shows `customView`.
    public convenience init(customView: UIView) {
        self.init()
        self.customView = customView
    }

    /// A system item that performs `primaryAction` (or shows `menu`).
    public convenience init(systemItem: SystemItem, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.init()
        self.systemItem = systemItem
        self.primaryAction = primaryAction
        self.menu = menu
        if systemItem == .done { style = .done }
    }

    /// An item with a title or image that performs `primaryAction` (or shows `menu`).
    public convenience init(
        title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil
    ) {
        self.init()
        self.title = title ?? primaryAction.map(\.title).flatMap { $0.isEmpty ? nil : $0 }
        self.image = image ?? primaryAction?.image
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// The title a person sees (a system item's too).
    var shownTitle: String? { title ?? systemItem?.shownTitle ?? accessibilityLabel }

    /// Whether it is a space, not a button.
    var isSpace: Bool { systemItem == .flexibleSpace || systemItem == .fixedSpace }

    /// Apple's `target`: the object that receives ``action`` when the item is tapped — held weakly;
    /// nil sends ``action`` up the responder chain.
    open weak var target: AnyObject?
    /// Apple's `action`: the selector called on ``target`` when the item is tapped (the target answers
    /// it through `SelectorDispatching`; docs/objc-runtime.md). Used when the item has no
    /// ``primaryAction``.
    open var action: Selector?

    /// Apple's `init(barButtonSystemItem:target:action:)`: a system item that calls `action` on `target`.
    public convenience init(barButtonSystemItem systemItem: SystemItem, target: Any?, action: Selector?) {
        self.init(systemItem: systemItem)
        self.target = TargetAction.object(target)
        self.action = action
    }

    /// Apple's `init(title:style:target:action:)`: an item titled `title` that calls `action` on `target`.
    public convenience init(title: String?, style: UIBarButtonItem.Style, target: Any?, action: Selector?) {
        self.init()
        self.title = title
        self.style = style
        self.target = TargetAction.object(target)
        self.action = action
    }

    /// Apple's `init(image:style:target:action:)`: an item showing `image` that calls `action` on `target`.
    public convenience init(image: UIImage?, style: UIBarButtonItem.Style, target: Any?, action: Selector?) {
        self.init()
        self.image = image
        self.style = style
        self.target = TargetAction.object(target)
        self.action = action
    }

    /// What a finger's tap does: the primary action, else ``action`` on ``target``.
    func tapAsFinger() {
        if let control = customView as? UIControl {
            control.tapAsFinger()
            return
        }
        if let primaryAction {
            primaryAction.perform(sender: self)
        } else if let action {
            TargetAction.send(action, to: target, from: self, event: UIEvent(type: .touches))
        }
    }
}

/// `UINavigationItem`: what a navigation bar shows for a view controller.
@preconcurrency @MainActor
open class UINavigationItem: NSObject {
    /// How a large title shows.
    public enum LargeTitleDisplayMode: Int, Sendable {
        /// As the previous item.
        case automatic = 0
        /// Always.
        case always = 1
        /// Never.
        case never = 2
    }

    /// The title (the view controller's title when nil).
    open var title: String? {
        get { storedTitle ?? titleFromController }
        set {
            UIKitThread.check("UINavigationItem.title", self)
            storedTitle = newValue
        }
    }
    private var storedTitle: String?
    /// The owning view controller's title.
    var titleFromController: String?
    /// A view shown instead of the title.
    open var titleView: UIView?
    /// A line above the title.
    open var prompt: String?
    /// The title of the back button that returns to this item.
    open var backButtonTitle: String?
    /// The back button that returns to this item.
    open var backBarButtonItem: UIBarButtonItem?
    /// Whether the back button is hidden.
    open var hidesBackButton = false
    /// Whether left items go beside the back button.
    open var leftItemsSupplementBackButton = false
    /// How a large title shows.
    open var largeTitleDisplayMode: LargeTitleDisplayMode = .automatic
    /// The items on the left.
    open var leftBarButtonItems: [UIBarButtonItem]? {
        didSet { UIKitThread.check("UINavigationItem.leftBarButtonItems", self) }
    }
    /// The items on the right (the first is rightmost).
    open var rightBarButtonItems: [UIBarButtonItem]? {
        didSet { UIKitThread.check("UINavigationItem.rightBarButtonItems", self) }
    }

    /// The first item on the left.
    open var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    /// The first item on the right.
    open var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    /// An item titled `title`.
    public init(title: String) {
        storedTitle = title
        super.init()
    }

    /// An item from a storyboard.
    public required init?(coder: NSCoder) {
        storedTitle = coder.decodeObject(forKey: "title") as? String
        super.init()
    }

    /// Sets the items on the left.
    open func setLeftBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { leftBarButtonItems = items }
    /// Sets the items on the right.
    open func setRightBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { rightBarButtonItems = items }
    /// Sets the item on the left.
    open func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) { leftBarButtonItem = item }
    /// Sets the item on the right.
    open func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) { rightBarButtonItem = item }
    /// Hides or shows the back button.
    open func setHidesBackButton(_ hidesBackButton: Bool, animated: Bool) { self.hidesBackButton = hidesBackButton }
}
