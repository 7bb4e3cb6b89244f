public import ExtensionFoundation
public import Foundation

/// `UIGestureRecognizer`: recognizes a gesture on the view it is attached to and tells its targets.
/// Headless, the scripted user performs the gesture: `tap` on a view with a tap recognizer
/// recognizes it.
@preconcurrency @MainActor
open class UIGestureRecognizer: NSObject {
    /// The recognizer's state.
    public enum State: Int, Sendable {
        /// Waiting for touches.
        case possible = 0
        /// A continuous gesture began.
        case began = 1
        /// A continuous gesture changed.
        case changed = 2
        /// The gesture ended (a discrete gesture is recognized).
        case ended = 3
        /// The gesture was cancelled.
        case cancelled = 4
        /// The touches were not this gesture.
        case failed = 5

        /// A discrete gesture was recognized (the same as ``ended``).
        public static var recognized: State { .ended }
    }

    /// The view it is attached to.
    open internal(set) weak var view: UIView?
    /// The state.
    open var state: State = .possible
    /// Whether it recognizes gestures.
    open var isEnabled = true { didSet { UIKitThread.check("UIGestureRecognizer.isEnabled", self) } }
    /// Whether recognized touches are cancelled in the view.
    open var cancelsTouchesInView = true
    /// Whether touches are delayed until the gesture fails.
    open var delaysTouchesBegan = false
    /// Closures to call, in order, when the gesture is recognized.
    var handlers: [(UIGestureRecognizer) -> Void] = []

    /// Targets and actions told when the gesture is recognized, after ``handlers``.
    var targetActions: [TargetAction] = []

    /// A recognizer with no target.
    public override init() { super.init() }

    /// Apple's `init(target:action:)`: a recognizer that calls `action` on `target` when it recognizes
    /// its gesture; the action takes no argument or the recognizer (`handle()`, `handle(_:)`). The
    /// target answers `action` through `SelectorDispatching` (docs/objc-runtime.md) and is not retained.
    public init(target: Any?, action: Selector?) {
        super.init()
        if let target, let action { addTarget(target, action: action) }
    }

    /// Apple's `addTarget(_:action:)`: also calls `action` on `target` when the gesture is recognized.
    open func addTarget(_ target: Any, action: Selector) {
        guard !targetActions.contains(where: { $0.matches(target, action) }) else { return }
        targetActions.append(TargetAction(target: target, action: action))
    }

    /// Apple's `removeTarget(_:action:)`: stops calling `action` on `target` (nil: any target, any action).
    open func removeTarget(_ target: Any?, action: Selector?) {
        let object = TargetAction.object(target)
        targetActions.removeAll { registered in
            (target == nil || (object != nil && registered.object === object))
                && (action == nil || registered.action == action)
        }
    }

    /// The gesture's name on the screen (`tap`).
    var gestureName: String { "gesture" }

    /// Performs the gesture as a finger would: the state goes to ``State/ended`` and the targets are told.
    func recognize() {
        state = .ended
        for handler in handlers { handler(self) }
        for registered in targetActions {
            // A target that has gone away is skipped: the recognizer did not keep it alive.
            guard let target = registered.target else { continue }
            TargetAction.send(registered.action, to: target, from: self, event: nil)
        }
        state = .possible
    }
}

/// `UITapGestureRecognizer`: a tap (or several) on the view.
@preconcurrency @MainActor
open class UITapGestureRecognizer: UIGestureRecognizer {
    /// Taps needed (1).
    open var numberOfTapsRequired = 1
    /// Fingers needed (1).
    open var numberOfTouchesRequired = 1

    override var gestureName: String { "tap" }
}

/// `UILongPressGestureRecognizer`: a press held on the view.
@preconcurrency @MainActor
open class UILongPressGestureRecognizer: UIGestureRecognizer {
    /// How long (0.5 s).
    open var minimumPressDuration: TimeInterval = 0.5

    override var gestureName: String { "longPress" }
}

/// `UISwipeGestureRecognizer`: a swipe across the view.
@preconcurrency @MainActor
open class UISwipeGestureRecognizer: UIGestureRecognizer {
    /// A swipe's direction.
    public struct Direction: OptionSet, Sendable {
        /// The bits.
        public var rawValue: UInt
        /// A direction.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// To the right.
        public static let right = Direction(rawValue: 1 << 0)
        /// To the left.
        public static let left = Direction(rawValue: 1 << 1)
        /// Up.
        public static let up = Direction(rawValue: 1 << 2)
        /// Down.
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// The direction recognized (right).
    open var direction: Direction = .right

    override var gestureName: String { "swipe" }
}

/// `UIPanGestureRecognizer`: a drag on the view.
@preconcurrency @MainActor
open class UIPanGestureRecognizer: UIGestureRecognizer {
    override var gestureName: String { "pan" }
}
