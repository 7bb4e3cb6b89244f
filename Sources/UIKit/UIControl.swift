public import Foundation
package import HeadlessScreens

/// `UIControl`: a view that sends actions when touched. Headless, the scripted user's `tap` sends
/// what a finger's tap sends — `touchDown`, then `touchUpInside` and `primaryActionTriggered` — and
/// only to a control a finger could reach: visible, in the window, user-interaction-enabled and
/// enabled.
@preconcurrency @MainActor
open class UIControl: UIView {
    /// What happened to a control.
    public struct Event: OptionSet, Sendable, Hashable {
        /// The bits.
        public var rawValue: UInt
        /// An event.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// A finger went down.
        public static let touchDown = Event(rawValue: 1 << 0)
        /// A finger went down again (a double tap).
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        /// A finger moved inside.
        public static let touchDragInside = Event(rawValue: 1 << 2)
        /// A finger moved outside.
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        /// A finger moved in.
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        /// A finger moved out.
        public static let touchDragExit = Event(rawValue: 1 << 5)
        /// A finger lifted inside (a tap).
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// A finger lifted outside.
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        /// The system cancelled the touches.
        public static let touchCancel = Event(rawValue: 1 << 8)
        /// The value changed.
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// The button's semantic action (a tap on a button).
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        /// A menu's action, before the menu shows.
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        /// A text field began editing.
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        /// A text field's text changed.
        public static let editingChanged = Event(rawValue: 1 << 17)
        /// A text field ended editing.
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        /// Return was pressed in a text field.
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        /// Every touch event.
        public static let allTouchEvents = Event(rawValue: 0x0000_0FFF)
        /// Every editing event.
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        /// Events for the app's own use.
        public static let applicationReserved = Event(rawValue: 0x0F00_0000)
        /// Events for the system's own use.
        public static let systemReserved = Event(rawValue: 0xF000_0000)
        /// Every event.
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// A control's state.
    public struct State: OptionSet, Sendable, Hashable {
        /// The bits.
        public var rawValue: UInt
        /// A state.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Enabled, not selected or highlighted.
        public static let normal = State([])
        /// Touched.
        public static let highlighted = State(rawValue: 1 << 0)
        /// Disabled.
        public static let disabled = State(rawValue: 1 << 1)
        /// Selected.
        public static let selected = State(rawValue: 1 << 2)
        /// Focused.
        public static let focused = State(rawValue: 1 << 3)
        /// States for the app's own use.
        public static let application = State(rawValue: 0x00FF_0000)
        /// States for the system's own use.
        public static let reserved = State(rawValue: 0xFF00_0000)
    }

    /// How content lines up horizontally.
    public enum ContentHorizontalAlignment: Int, Sendable {
        /// Centred.
        case center = 0
        /// Left.
        case left = 1
        /// Right.
        case right = 2
        /// Filling.
        case fill = 3
        /// Leading.
        case leading = 4
        /// Trailing.
        case trailing = 5
    }

    /// How content lines up vertically.
    public enum ContentVerticalAlignment: Int, Sendable {
        /// Centred.
        case center = 0
        /// Top.
        case top = 1
        /// Bottom.
        case bottom = 2
        /// Filling.
        case fill = 3
    }

    /// One registered handler: an action, or a target and selector.
    enum Handler {
        case action(UIAction)
    }

    var handlers: [(events: Event, handler: Handler)] = []
    /// What a tap on this control while it is disabled means, beyond "nothing happened" (the compose
    /// sheet's Post button: Post tapped while `isContentValid()` was false).
    package var disabledTapDiagnostic: UIDiagnostic.Kind?

    /// A control with `frame`.
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// A control from a storyboard (reads `enabled`, `selected` when present).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        if coder.containsValue(forKey: "enabled") { isEnabled = coder.decodeBool(forKey: "enabled") }
        isSelected = coder.decodeBool(forKey: "selected")
    }

    /// A control that performs `primaryAction` when triggered.
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(frame: frame)
        if let primaryAction { addAction(primaryAction, for: .primaryActionTriggered) }
    }

    /// Whether the control responds (Apple: a disabled control "ignores touch events"; the scripted
    /// user's tap does nothing to it and says so).
    open var isEnabled = true { didSet { UIKitThread.check("UIControl.isEnabled", self) } }
    /// Whether the control is selected.
    open var isSelected = false { didSet { UIKitThread.check("UIControl.isSelected", self) } }
    /// Whether the control is highlighted (during a touch).
    open var isHighlighted = false
    /// How content lines up horizontally.
    open var contentHorizontalAlignment: ContentHorizontalAlignment = .center
    /// How content lines up vertically.
    open var contentVerticalAlignment: ContentVerticalAlignment = .center

    /// The state: enabled, selected, highlighted.
    open var state: State {
        var state: State = []
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        if isHighlighted { state.insert(.highlighted) }
        return state
    }

    /// Adds `action` for `controlEvents` (an action with the same identifier replaces the earlier one).
    open func addAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        UIKitThread.check("UIControl.addAction(_:for:)", self)
        handlers.removeAll { entry in
            if case .action(let existing) = entry.handler { return existing.identifier == action.identifier }
            return false
        }
        handlers.append((controlEvents, .action(action)))
    }

    /// Removes `action` from `controlEvents`.
    open func removeAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        removeAction(identifiedBy: action.identifier, for: controlEvents)
    }

    /// Removes the action with `actionIdentifier` from `controlEvents`.
    open func removeAction(identifiedBy actionIdentifier: UIAction.Identifier, for controlEvents: UIControl.Event) {
        UIKitThread.check("UIControl.removeAction(identifiedBy:for:)", self)
        handlers = handlers.compactMap { entry in
            guard case .action(let action) = entry.handler, action.identifier == actionIdentifier else { return entry }
            let remaining = entry.events.subtracting(controlEvents)
            return remaining.isEmpty ? nil : (remaining, entry.handler)
        }
    }

    /// The events that have actions.
    open var allControlEvents: UIControl.Event {
        handlers.reduce(into: Event()) { $0.formUnion($1.events) }
    }

    /// Sends the actions of `controlEvents`, as the control does when they happen.
    open func sendActions(for controlEvents: UIControl.Event) {
        for entry in handlers where !entry.events.isDisjoint(with: controlEvents) {
            switch entry.handler {
            case .action(let action): action.perform(sender: self)
            }
        }
    }

    /// Sends `action` (its handler runs with this control as sender).
    open func sendAction(_ action: UIAction) { action.perform(sender: self) }

    /// Performs the primary action (the actions of `primaryActionTriggered`).
    open func performPrimaryAction() { sendActions(for: .primaryActionTriggered) }

    /// What a finger's tap does: `touchDown`, then `touchUpInside` and `primaryActionTriggered`.
    func tapAsFinger() {
        isHighlighted = true
        sendActions(for: .touchDown)
        isHighlighted = false
        sendActions(for: [.touchUpInside, .primaryActionTriggered])
    }
}

/// `UIMenuElement`: something a menu shows.
@preconcurrency @MainActor
open class UIMenuElement: NSObject {
    /// How an element looks and behaves.
    public struct Attributes: OptionSet, Sendable {
        /// The bits.
        public var rawValue: UInt
        /// Attributes.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Dimmed and not selectable.
        public static let disabled = Attributes(rawValue: 1 << 0)
        /// Shown in red.
        public static let destructive = Attributes(rawValue: 1 << 1)
        /// Not shown.
        public static let hidden = Attributes(rawValue: 1 << 2)
        /// The menu stays open after it is chosen.
        public static let keepsMenuPresented = Attributes(rawValue: 1 << 3)
    }

    /// A check mark's state.
    public enum State: Int, Sendable {
        /// No check mark.
        case off = 0
        /// A check mark.
        case on = 1
        /// A dash.
        case mixed = 2
    }

    /// The title.
    open var title: String
    /// The image.
    open var image: UIImage?

    init(title: String, image: UIImage?) {
        self.title = title
        self.image = image
        super.init()
    }
}

/// `UIAction`: a closure with a title, for controls, bar buttons and menus.
@preconcurrency @MainActor
open class UIAction: UIMenuElement {
    /// An action's identifier (actions with the same identifier replace each other on a control).
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        /// The identifier.
        public var rawValue: String
        /// An identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// An identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// The identifier (a fresh one unless given).
    public let identifier: Identifier
    /// How it looks and behaves.
    open var attributes: UIMenuElement.Attributes
    /// Its check mark.
    open var state: UIMenuElement.State
    /// The title shown when discovering commands.
    open var discoverabilityTitle: String?
    /// The control or item that sent it, while its handler runs.
    open private(set) var sender: Any?
    private let handler: UIActionHandler

    /// An action that runs `handler`.
    public init(
        title: String = "", image: UIImage? = nil, identifier: UIAction.Identifier? = nil,
        discoverabilityTitle: String? = nil, attributes: UIMenuElement.Attributes = [],
        state: UIMenuElement.State = .off, handler: @escaping UIActionHandler
    ) {
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.discoverabilityTitle = discoverabilityTitle
        self.attributes = attributes
        self.state = state
        self.handler = handler
        super.init(title: title, image: image)
    }

    /// Runs the handler with `sender` as ``sender``.
    func perform(sender: Any?) {
        self.sender = sender
        handler(self)
        self.sender = nil
    }
}

/// The handler of a ``UIAction``.
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// `UIMenu`: a titled group of actions and menus.
@preconcurrency @MainActor
open class UIMenu: UIMenuElement {
    /// The elements.
    public let children: [UIMenuElement]

    /// A menu of `children`.
    public init(title: String = "", image: UIImage? = nil, children: [UIMenuElement] = []) {
        self.children = children
        super.init(title: title, image: image)
    }
}
