public import Foundation

/// `UIView`: a rectangle of the interface and its subviews. Headless: a view keeps all of its state
/// — hierarchy, frame, colours, hidden, alpha, interaction, tag, accessibility, gesture recognizers,
/// constraints (recorded, not solved) — and the screen shows it as a node of the view tree; only
/// drawing is absent.
///
/// Every state setter checks the thread, as the Main Thread Checker does on a device: a change off
/// the main thread is reported with its call site.
@preconcurrency @MainActor
open class UIView: UIResponder, UITraitEnvironment {
    private var storedFrame: CGRect
    private var boundsOrigin: CGPoint = .zero
    private weak var storedSuperview: UIView?
    private var storedSubviews: [UIView] = []
    /// The view controller whose root view this is (the next responder; appearance of children).
    package weak var owningViewController: UIViewController?
    var recordedConstraints: [NSLayoutConstraint] = []
    var layoutState: LayoutState?
    var storedGestureRecognizers: [UIGestureRecognizer] = []

    /// A view with `frame` in its superview's coordinates.
    public init(frame: CGRect) {
        storedFrame = frame
        super.init()
    }

    /// A view with a zero frame.
    public override convenience init() { self.init(frame: .zero) }

    /// A view from a storyboard: reads `frame`, `tag`, `hidden`, `alpha`, `backgroundColor`,
    /// `userInteractionEnabled`, `accessibilityIdentifier` and `accessibilityLabel` when present.
    public required init?(coder: NSCoder) {
        storedFrame = (coder.decodeObject(forKey: "frame") as? CGRect) ?? .zero
        super.init(coder: coder)
        tag = coder.decodeInteger(forKey: "tag")
        isHidden = coder.decodeBool(forKey: "hidden")
        if coder.containsValue(forKey: "alpha") { alpha = CGFloat(coder.decodeDouble(forKey: "alpha")) }
        backgroundColor = coder.decodeObject(forKey: "backgroundColor") as? UIColor
        if coder.containsValue(forKey: "userInteractionEnabled") {
            isUserInteractionEnabled = coder.decodeBool(forKey: "userInteractionEnabled")
        }
        accessibilityIdentifier = coder.decodeObject(forKey: "accessibilityIdentifier") as? String
        accessibilityLabel = coder.decodeObject(forKey: "accessibilityLabel") as? String
    }

    // MARK: - Geometry

    /// The frame in the superview's coordinates (set by code; constraints do not move it).
    open var frame: CGRect {
        get { storedFrame }
        set {
            UIKitThread.check("UIView.frame", self)
            storedFrame = newValue
        }
    }

    /// The view's own coordinate space: its origin and the frame's size. Setting it keeps the centre.
    open var bounds: CGRect {
        get { CGRect(origin: boundsOrigin, size: storedFrame.size) }
        set {
            UIKitThread.check("UIView.bounds", self)
            let center = self.center
            boundsOrigin = newValue.origin
            storedFrame = CGRect(
                x: center.x - newValue.width / 2, y: center.y - newValue.height / 2, width: newValue.width,
                height: newValue.height)
        }
    }

    /// The centre of the frame.
    open var center: CGPoint {
        get { CGPoint(x: storedFrame.midX, y: storedFrame.midY) }
        set {
            UIKitThread.check("UIView.center", self)
            storedFrame.origin = CGPoint(x: newValue.x - storedFrame.width / 2, y: newValue.y - storedFrame.height / 2)
        }
    }

    // MARK: - Appearance

    /// The background colour (nil: transparent).
    open var backgroundColor: UIColor? { didSet { UIKitThread.check("UIView.backgroundColor", self) } }
    /// Whether the view and its subviews are hidden (a hidden view cannot be tapped).
    open var isHidden = false { didSet { UIKitThread.check("UIView.isHidden", self) } }
    /// The opacity (0…1; below 0.01 a view cannot be tapped, as on iOS).
    open var alpha: CGFloat = 1 { didSet { UIKitThread.check("UIView.alpha", self) } }
    /// Whether the view is opaque.
    open var isOpaque = true { didSet { UIKitThread.check("UIView.isOpaque", self) } }
    // Apple declares it implicitly unwrapped:
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The tint colour (the superview's when nil; the system blue at the top).
    open var tintColor: UIColor! {
        get { storedTintColor ?? superview?.tintColor ?? .systemBlue }
        set {
            UIKitThread.check("UIView.tintColor", self)
            storedTintColor = newValue
        }
    }
    private var storedTintColor: UIColor?
    /// Whether subviews are clipped to the bounds.
    open var clipsToBounds = false { didSet { UIKitThread.check("UIView.clipsToBounds", self) } }
    /// How content is laid out in the bounds.
    open var contentMode: ContentMode = .scaleToFill { didSet { UIKitThread.check("UIView.contentMode", self) } }
    /// Whether touches reach the view (off: neither it nor its subviews can be tapped).
    open var isUserInteractionEnabled = true {
        didSet { UIKitThread.check("UIView.isUserInteractionEnabled", self) }
    }
    /// A number to find the view by (``viewWithTag(_:)``).
    open var tag = 0 { didSet { UIKitThread.check("UIView.tag", self) } }
    /// The identifier UI tests (and `tap #identifier`) find the view by.
    open var accessibilityIdentifier: String? { didSet { UIKitThread.check("UIView.accessibilityIdentifier", self) } }
    /// The label VoiceOver reads (`tap` also matches it).
    open var accessibilityLabel: String? { didSet { UIKitThread.check("UIView.accessibilityLabel", self) } }
    /// A hint VoiceOver reads.
    open var accessibilityHint: String?
    /// Whether VoiceOver sees the view as one element.
    open var isAccessibilityElement = false
    /// The margins for content (8 points).
    open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    /// The margins for content, leading and trailing.
    open var directionalLayoutMargins = NSDirectionalEdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8)
    /// The insets the system bars leave (zero: the extension's sheet is below the status bar).
    open var safeAreaInsets: UIEdgeInsets { .zero }
    /// How the view resizes with its superview.
    open var autoresizingMask: AutoresizingMask = []
    /// Whether subviews resize with the view.
    open var autoresizesSubviews = true

    /// The traits of the headless phone.
    open var traitCollection: UITraitCollection { UITraitCollection.current }
    /// Never called: the headless phone's traits do not change.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}

    // MARK: - Hierarchy

    /// The superview, or nil.
    open var superview: UIView? { storedSuperview }
    /// The subviews, back to front.
    open var subviews: [UIView] { storedSubviews }
    /// The window the view is in, or nil.
    open var window: UIWindow? {
        var view: UIView? = self
        while let current = view {
            if let window = current as? UIWindow { return window }
            view = current.storedSuperview
        }
        return nil
    }

    /// The view controller that manages it, else the superview (Apple: UIView "returns the
    /// UIViewController object that manages it (if it has one) or its superview (if it doesn’t)").
    open override var next: UIResponder? { owningViewController ?? storedSuperview }

    override var firstResponderWindow: UIWindow? { window }

    /// Adds `view` at the front (Apple: "If view already has a superview and that view is not the
    /// receiver, this method removes the previous superview before making the receiver its new superview").
    open func addSubview(_ view: UIView) { insert(view, at: storedSubviews.count) }

    /// Inserts `view` at `index` of the subviews.
    open func insertSubview(_ view: UIView, at index: Int) { insert(view, at: index) }

    /// Inserts `view` just above `siblingSubview`.
    open func insertSubview(_ view: UIView, aboveSubview siblingSubview: UIView) {
        let index = storedSubviews.firstIndex { $0 === siblingSubview }.map { $0 + 1 } ?? storedSubviews.count
        insert(view, at: index)
    }

    /// Inserts `view` just below `siblingSubview`.
    open func insertSubview(_ view: UIView, belowSubview siblingSubview: UIView) {
        let index = storedSubviews.firstIndex { $0 === siblingSubview } ?? 0
        insert(view, at: index)
    }

    /// Moves `view` in front of its siblings.
    open func bringSubviewToFront(_ view: UIView) {
        guard let index = storedSubviews.firstIndex(where: { $0 === view }) else { return }
        UIKitThread.check("UIView.bringSubviewToFront(_:)", self)
        storedSubviews.append(storedSubviews.remove(at: index))
    }

    /// Moves `view` behind its siblings.
    open func sendSubviewToBack(_ view: UIView) {
        guard let index = storedSubviews.firstIndex(where: { $0 === view }) else { return }
        UIKitThread.check("UIView.sendSubviewToBack(_:)", self)
        storedSubviews.insert(storedSubviews.remove(at: index), at: 0)
    }

    /// Swaps the subviews at two indices.
    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard storedSubviews.indices.contains(index1), storedSubviews.indices.contains(index2) else { return }
        UIKitThread.check("UIView.exchangeSubview(at:withSubviewAt:)", self)
        storedSubviews.swapAt(index1, index2)
    }

    /// Takes the view out of its superview and window.
    open func removeFromSuperview() {
        guard let superview = storedSuperview else { return }
        UIKitThread.check("UIView.removeFromSuperview()", self)
        let oldWindow = window
        willMove(toSuperview: nil)
        if oldWindow != nil { propagateWillMove(toWindow: nil) }
        superview.willRemoveSubview(self)
        superview.storedSubviews.removeAll { $0 === self }
        storedSuperview = nil
        if let oldWindow, let responder = oldWindow.firstResponder as? UIView, responder.isDescendant(of: self) {
            oldWindow.firstResponder = nil
            responder.firstResponderDidEnd()
        }
        didMoveToSuperview()
        if oldWindow != nil { propagateDidMoveToWindow() }
    }

    /// Whether the view is `view` or inside it.
    open func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.storedSuperview
        }
        return false
    }

    /// The first view in this subtree (this view included) whose tag is `tag`.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for subview in storedSubviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// Called before the superview changes.
    open func willMove(toSuperview newSuperview: UIView?) {}
    /// Called after the superview changed.
    open func didMoveToSuperview() {}
    /// Called before the window changes.
    open func willMove(toWindow newWindow: UIWindow?) {}
    /// Called after the window changed.
    open func didMoveToWindow() {}
    /// Called after a subview was added.
    open func didAddSubview(_ subview: UIView) {}
    /// Called before a subview is removed.
    open func willRemoveSubview(_ subview: UIView) {}

    private func insert(_ view: UIView, at index: Int) {
        UIKitThread.check("UIView.addSubview(_:)", self)
        // UIKit raises for a view added to itself or to its own subtree; nothing happens here.
        guard view !== self, !isDescendant(of: view) else { return }
        let oldWindow = view.window
        let newWindow = window
        if view.storedSuperview === self {
            storedSubviews.removeAll { $0 === view }
            storedSubviews.insert(view, at: min(max(0, index), storedSubviews.count))
            return
        }
        view.willMove(toSuperview: self)
        if oldWindow !== newWindow { view.propagateWillMove(toWindow: newWindow) }
        if let old = view.storedSuperview {
            old.willRemoveSubview(view)
            old.storedSubviews.removeAll { $0 === view }
        }
        storedSubviews.insert(view, at: min(max(0, index), storedSubviews.count))
        view.storedSuperview = self
        view.didMoveToSuperview()
        if oldWindow !== newWindow { view.propagateDidMoveToWindow() }
        didAddSubview(view)
    }

    private func propagateWillMove(toWindow newWindow: UIWindow?) {
        willMove(toWindow: newWindow)
        for subview in storedSubviews { subview.propagateWillMove(toWindow: newWindow) }
    }

    private func propagateDidMoveToWindow() {
        didMoveToWindow()
        movedToWindow(window)
        for subview in storedSubviews { subview.propagateDidMoveToWindow() }
        owningViewController?.rootViewDidMove(toWindow: window)
    }

    /// UIKit's own reaction to entering or leaving a window (tables load their rows).
    func movedToWindow(_ window: UIWindow?) {}

    // MARK: - Editing

    /// Makes the first responder in this subtree resign.
    /// - Returns: whether it did (or there was none).
    @discardableResult
    open func endEditing(_ force: Bool) -> Bool {
        guard let window, let responder = window.firstResponder as? UIView, responder.isDescendant(of: self) else {
            return true
        }
        if force {
            window.firstResponder = nil
            responder.firstResponderDidEnd()
            return true
        }
        return responder.resignFirstResponder()
    }

    // MARK: - Layout

    /// Marks the layout as needing an update (nothing is solved: the call is recorded by doing nothing).
    open func setNeedsLayout() {}
    /// Lays out subviews now: calls ``layoutSubviews()``.
    open func layoutIfNeeded() { layoutSubviews() }
    /// Lays out subviews (override to position them by frame).
    open func layoutSubviews() {}
    /// Marks the view as needing display (nothing is drawn).
    open func setNeedsDisplay() {}
    /// The size that fits `size` (the bounds' size by default).
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }
    /// Resizes the frame to ``sizeThatFits(_:)``.
    open func sizeToFit() {
        let size = sizeThatFits(CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude))
        frame = CGRect(origin: frame.origin, size: size)
    }
    /// The natural size (none by default: `UIView.noIntrinsicMetric` each way).
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
    /// Tells layout that the natural size changed.
    open func invalidateIntrinsicContentSize() {}
    /// No natural size along an axis (-1).
    public static let noIntrinsicMetric: CGFloat = -1

    // MARK: - Gestures

    /// The gesture recognizers attached.
    open var gestureRecognizers: [UIGestureRecognizer]? {
        get { storedGestureRecognizers.isEmpty ? nil : storedGestureRecognizers }
        set {
            UIKitThread.check("UIView.gestureRecognizers", self)
            for recognizer in storedGestureRecognizers { recognizer.view = nil }
            storedGestureRecognizers = newValue ?? []
            for recognizer in storedGestureRecognizers { recognizer.view = self }
        }
    }

    /// Attaches `gestureRecognizer` (a tap recognizer makes the view tappable by the scripted user).
    open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        UIKitThread.check("UIView.addGestureRecognizer(_:)", self)
        gestureRecognizer.view?.removeGestureRecognizer(gestureRecognizer)
        storedGestureRecognizers.append(gestureRecognizer)
        gestureRecognizer.view = self
    }

    /// Detaches `gestureRecognizer`.
    open func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        UIKitThread.check("UIView.removeGestureRecognizer(_:)", self)
        storedGestureRecognizers.removeAll { $0 === gestureRecognizer }
        if gestureRecognizer.view === self { gestureRecognizer.view = nil }
    }
}

extension UIView {
    /// How a view's content fills its bounds.
    public enum ContentMode: Int, Sendable {
        /// Stretched to fill.
        case scaleToFill = 0
        /// Scaled to fit, keeping the aspect ratio.
        case scaleAspectFit = 1
        /// Scaled to fill, keeping the aspect ratio.
        case scaleAspectFill = 2
        /// Redrawn when the bounds change.
        case redraw = 3
        /// Centred.
        case center = 4
        /// At the top.
        case top = 5
        /// At the bottom.
        case bottom = 6
        /// At the left.
        case left = 7
        /// At the right.
        case right = 8
        /// At the top left.
        case topLeft = 9
        /// At the top right.
        case topRight = 10
        /// At the bottom left.
        case bottomLeft = 11
        /// At the bottom right.
        case bottomRight = 12
    }

    /// How a view resizes with its superview.
    public struct AutoresizingMask: OptionSet, Sendable {
        /// The bits.
        public var rawValue: UInt
        /// A mask.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The left margin grows.
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        /// The width grows.
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        /// The right margin grows.
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        /// The top margin grows.
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        /// The height grows.
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        /// The bottom margin grows.
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }
}
