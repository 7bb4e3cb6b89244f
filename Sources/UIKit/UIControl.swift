public import ExtensionFoundation
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
        case target(TargetAction)
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

    // MARK: - Target–action

    /// Apple's `addTarget(_:action:for:)`: "Associates a target object and action method with the
    /// control." When one of `controlEvents` happens the control calls `action` on `target` — with no
    /// argument, the control, or the control and the event, as the selector has colons
    /// (`"close"`, `"tapped:"`, `"tapped:forEvent:"`).
    ///
    /// Apple: "If you specify nil, UIKit searches the responder chain for an object that responds to
    /// the specified action message and delivers the message to that object", and the control does not
    /// retain its target (developer.apple.com/documentation/uikit/uicontrol/addtarget(_:action:for:)).
    /// Linux has no Objective-C runtime: the target answers `action` through `SelectorDispatching`
    /// (what `exthost import` writes for an `@objc` method; docs/objc-runtime.md). Registering the same
    /// target and action again adds the events; the action is still sent once per event.
    open func addTarget(_ target: Any?, action: Selector, for controlEvents: UIControl.Event) {
        UIKitThread.check("UIControl.addTarget(_:action:for:)", self)
        let added = TargetAction(target: target, action: action)
        if let index = handlers.firstIndex(where: { entry in
            if case .target(let existing) = entry.handler { return existing.matches(added.target, action) }
            return false
        }) {
            handlers[index].events.formUnion(controlEvents)
        } else {
            handlers.append((controlEvents, .target(added)))
        }
    }

    /// Apple's `removeTarget(_:action:for:)`: "Stops the delivery of events to the specified target
    /// object." A nil `target` removes `action` from every target, a nil `action` every action of
    /// `target`, for `controlEvents` (`.allEvents` for all).
    open func removeTarget(_ target: Any?, action: Selector?, for controlEvents: UIControl.Event) {
        UIKitThread.check("UIControl.removeTarget(_:action:for:)", self)
        let object = TargetAction.object(target)
        handlers = handlers.compactMap { entry in
            guard case .target(let registered) = entry.handler,
                target == nil || (object != nil && registered.object === object),
                action == nil || registered.action == action
            else { return entry }
            let remaining = entry.events.subtracting(controlEvents)
            return remaining.isEmpty ? nil : (remaining, entry.handler)
        }
    }

    /// Apple's `allTargets`: the objects with actions on this control; `NSNull` stands for actions sent
    /// up the responder chain ("The returned set may include one or more NSNull objects to indicate
    /// actions that are dispatched to the responder chain").
    open var allTargets: Set<AnyHashable> {
        var targets: Set<AnyHashable> = []
        for entry in handlers {
            guard case .target(let registered) = entry.handler else { continue }
            if registered.isResponderChain {
                targets.insert(AnyHashable(NSNull()))
            } else if let object = registered.object as? NSObject {
                targets.insert(AnyHashable(object))
            } else if let object = registered.object {
                targets.insert(AnyHashable(ObjectIdentifier(object)))
            }
        }
        return targets
    }

    /// Apple's `actions(forTarget:forControlEvent:)`: the selector names of `target`'s actions for
    /// `controlEvent`, or nil when there are none ("Specifying nil always returns nil").
    open func actions(forTarget target: Any?, forControlEvent controlEvent: UIControl.Event) -> [String]? {
        guard let object = TargetAction.object(target) else { return nil }
        let names = handlers.compactMap { entry -> String? in
            guard case .target(let registered) = entry.handler, registered.object === object,
                !entry.events.isDisjoint(with: controlEvent)
            else { return nil }
            return registered.action.name
        }
        return names.isEmpty ? nil : names
    }

    /// Apple's `sendAction(_:to:for:)`: calls `action` on `target` (nil: the first object of the
    /// responder chain that answers it) with this control as sender and `event`.
    ///
    /// Apple: "This method takes the provided information and forwards it to the singleton
    /// UIApplication object for dispatching." The chain starts at the window's first responder, else at
    /// this control, and goes up `next`. A target that does not answer `action` is reported as the
    /// unrecognized selector it would be on iOS.
    open func sendAction(_ action: Selector, to target: Any?, for event: UIEvent?) {
        TargetAction.send(action, to: target, from: self, event: event)
    }

    /// Sends the actions of `controlEvents`, as the control does when they happen; an action that takes
    /// an event gets nil (no touch caused it).
    open func sendActions(for controlEvents: UIControl.Event) { sendActions(for: controlEvents, event: nil) }

    /// Sends the actions of `controlEvents` with `event` (a finger's tap passes its touches event).
    func sendActions(for controlEvents: UIControl.Event, event: UIEvent?) {
        for entry in handlers where !entry.events.isDisjoint(with: controlEvents) {
            switch entry.handler {
            case .action(let action): action.perform(sender: self)
            case .target(let registered):
                // A target that has gone away is skipped: the control did not keep it alive.
                guard registered.isResponderChain || registered.target != nil else { continue }
                sendAction(registered.action, to: registered.target, for: event)
            }
        }
    }

    /// Sends `action` (its handler runs with this control as sender).
    open func sendAction(_ action: UIAction) { action.perform(sender: self) }

    /// Performs the primary action (the actions of `primaryActionTriggered`).
    open func performPrimaryAction() { sendActions(for: .primaryActionTriggered) }

    /// What a finger's tap does: `touchDown`, then `touchUpInside` and `primaryActionTriggered`.
    func tapAsFinger() {
        let touches = UIEvent(type: .touches)
        isHighlighted = true
        sendActions(for: .touchDown, event: touches)
        isHighlighted = false
        sendActions(for: [.touchUpInside, .primaryActionTriggered], event: touches)
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

/// A target and selector registered with `UIControl.addTarget(_:action:for:)` (or a bar button item's
/// `target` and `action`). An object target is held weakly, as UIKit holds it; nil means the responder
/// chain.
struct TargetAction {
    /// The target, when it is an object (held weakly).
    weak var object: AnyObject?
    /// The target, when it is a value (kept).
    var value: Any?
    /// Whether the target was nil: the action goes up the responder chain.
    let isResponderChain: Bool
    /// The action.
    let action: Selector

    init(target: Any?, action: Selector) {
        self.action = action
        isResponderChain = target == nil
        object = Self.object(target)
        value = object == nil ? target : nil
    }

    /// The target as given.
    var target: Any? { object ?? value }

    /// `target` when it is an instance of a class.
    static func object(_ target: Any?) -> AnyObject? {
        guard let target, type(of: target as Any) is AnyClass else { return nil }
        return target as AnyObject
    }

    /// Whether this is `target`'s `action`.
    func matches(_ target: Any?, _ action: Selector) -> Bool {
        guard action == self.action else { return false }
        if isResponderChain { return target == nil }
        return object != nil && object === Self.object(target)
    }

    /// Calls `action` on `target` — or, when nil, on the first responder of the chain from the
    /// window's first responder (else `sender`) that answers it — with the arguments its colons take:
    /// `sender`, then `event`.
    @MainActor
    static func send(_ action: Selector, to target: Any?, from sender: AnyObject, event: UIEvent?) {
        let receiver: Any
        if let target {
            receiver = target
        } else {
            let responder = sender as? UIResponder
            let start = responder?.firstResponderWindow?.firstResponder ?? responder
            guard let found = firstAnswering(action, from: start) ?? firstAnswering(action, from: responder) else {
                ExtensionLog.error(
                    "the action '\(action.name)' of \(type(of: sender)) was sent up the responder chain, but no "
                        + "responder answers it (nothing was called, as on iOS)")
                return
            }
            receiver = found
        }
        let arguments: [Any?] = Array([sender as Any?, event as Any?].prefix(action.argumentCount))
        if let object = receiver as? NSObject {
            switch arguments.count {
            case 0: object.perform(action)
            case 1: object.perform(action, with: arguments[0] as Any?)
            default: object.perform(action, with: arguments[0] as Any?, with: arguments[1] as Any?)
            }
        } else if let dispatching = receiver as? any SelectorDispatching, dispatching.canDispatch(action) {
            _ = dispatching.dispatch(action, arguments: arguments)
        } else {
            ExtensionLog.error(
                "-[\(type(of: receiver)) \(action.name)]: unrecognized selector sent to instance (on iOS this raises "
                    + "NSInvalidArgumentException and ends the process); exthost answers only selectors an object "
                    + "lists through SelectorDispatching")
        }
    }

    @MainActor
    private static func firstAnswering(_ action: Selector, from responder: UIResponder?) -> UIResponder? {
        var current = responder
        while let candidate = current {
            if candidate.canDispatch(action) { return candidate }
            current = candidate.next
        }
        return nil
    }
}

/// `UIEvent`: what the user did that made a control send its actions (the second argument of an
/// action method such as `tapped(_:forEvent:)`).
@preconcurrency @MainActor
open class UIEvent: NSObject {
    /// The kind of event.
    public enum EventType: Int, Sendable {
        /// Touches on the screen.
        case touches = 0
        /// The device moved.
        case motion = 1
        /// Remote-control commands.
        case remoteControl = 2
        /// Physical presses (keys, buttons).
        case presses = 3
        /// A scroll.
        case scroll = 10
        /// A hover.
        case hover = 11
        /// A transform (a pinch on a trackpad).
        case transform = 14
    }

    /// The kind of event.
    open private(set) var type: EventType
    /// When it happened, in seconds since the system started.
    open private(set) var timestamp: TimeInterval

    /// An event of `type` now.
    init(type: EventType) {
        self.type = type
        timestamp = ProcessInfo.processInfo.systemUptime
        super.init()
    }
}
