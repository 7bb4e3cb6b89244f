public import Foundation

/// `UIStackView`: lays its arranged subviews out in a row or column. Headless, the arrangement is
/// kept (the HTML page lays the stack out as a row or column; frames are not computed).
@preconcurrency @MainActor
open class UIStackView: UIView {
    /// How views fill the stack's length.
    public enum Distribution: Int, Sendable {
        /// Fill.
        case fill = 0
        /// Equal sizes.
        case fillEqually = 1
        /// Proportional sizes.
        case fillProportionally = 2
        /// Equal spacing.
        case equalSpacing = 3
        /// Equal centre spacing.
        case equalCentering = 4
    }

    /// How views line up across the stack.
    public enum Alignment: Int, Sendable {
        /// Fill.
        case fill = 0
        /// Leading (top in a row).
        case leading = 1
        /// First baseline.
        case firstBaseline = 2
        /// Centre.
        case center = 3
        /// Trailing (bottom in a row).
        case trailing = 4
        /// Last baseline.
        case lastBaseline = 5

        /// Top (in a row).
        public static var top: Alignment { .leading }
        /// Bottom (in a row).
        public static var bottom: Alignment { .trailing }
    }

    /// Default spacing (the system's).
    public static let spacingUseDefault: CGFloat = .greatestFiniteMagnitude
    /// Spacing from the views' own.
    public static let spacingUseSystem: CGFloat = -.greatestFiniteMagnitude

    private var storedArrangedSubviews: [UIView] = []

    /// A vertical stack of `views`.
    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    /// A stack with `frame`.
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// A stack from a storyboard.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Row or column (column by default).
    open var axis: NSLayoutConstraint.Axis = .horizontal { didSet { UIKitThread.check("UIStackView.axis", self) } }
    /// How views fill the length.
    open var distribution: Distribution = .fill
    /// How views line up across.
    open var alignment: Alignment = .fill
    /// Space between views.
    open var spacing: CGFloat = 0 { didSet { UIKitThread.check("UIStackView.spacing", self) } }
    /// Whether the layout margins inset the arrangement.
    open var isLayoutMarginsRelativeArrangement = false
    /// Whether spacing is measured from baselines.
    open var isBaselineRelativeArrangement = false

    /// The arranged views, in order.
    open var arrangedSubviews: [UIView] { storedArrangedSubviews }

    /// Adds `view` at the end (and as a subview).
    open func addArrangedSubview(_ view: UIView) { insertArrangedSubview(view, at: storedArrangedSubviews.count) }

    /// Inserts `view` at `stackIndex` (and as a subview).
    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        UIKitThread.check("UIStackView.insertArrangedSubview(_:at:)", self)
        storedArrangedSubviews.removeAll { $0 === view }
        storedArrangedSubviews.insert(view, at: min(max(0, stackIndex), storedArrangedSubviews.count))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
    }

    /// Stops arranging `view` (it stays a subview, as on iOS).
    open func removeArrangedSubview(_ view: UIView) {
        UIKitThread.check("UIStackView.removeArrangedSubview(_:)", self)
        storedArrangedSubviews.removeAll { $0 === view }
    }

    /// Removing an arranged subview from the stack stops arranging it.
    open override func willRemoveSubview(_ subview: UIView) {
        super.willRemoveSubview(subview)
        storedArrangedSubviews.removeAll { $0 === subview }
    }

    /// Space after `arrangedSubview`.
    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {}
}

/// `UIActivityIndicatorView`: a spinner. Hidden while stopped when ``hidesWhenStopped`` (the default).
@preconcurrency @MainActor
open class UIActivityIndicatorView: UIView {
    /// The spinner's look.
    public enum Style: Int, Sendable {
        /// Medium (iOS 13).
        case medium = 100
        /// Large (iOS 13).
        case large = 101
        /// Large and white (deprecated).
        case whiteLarge = 0
        /// White (deprecated).
        case white = 1
        /// Grey (deprecated).
        case gray = 2
    }

    /// A medium spinner with `frame`, stopped and hidden.
    public override init(frame: CGRect) {
        style = .medium
        super.init(frame: frame)
        isHidden = true
    }

    /// A stopped spinner of `style`.
    public convenience init(style: Style) {
        self.init(frame: .zero)
        self.style = style
    }

    /// A spinner from a storyboard.
    public required init?(coder: NSCoder) {
        style = .medium
        super.init(coder: coder)
        if coder.decodeBool(forKey: "animating") { startAnimating() } else { isHidden = hidesWhenStopped }
    }

    /// The look.
    open var style: Style
    // Apple declares it implicitly unwrapped:
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The colour.
    open var color: UIColor!
    /// Whether it hides while stopped (`true`).
    open var hidesWhenStopped = true {
        didSet { if !isAnimating { isHidden = hidesWhenStopped } }
    }
    /// Whether it spins.
    open private(set) var isAnimating = false

    /// Starts spinning (and shows it).
    open func startAnimating() {
        UIKitThread.check("UIActivityIndicatorView.startAnimating()", self)
        isAnimating = true
        isHidden = false
    }

    /// Stops spinning (and hides it when ``hidesWhenStopped``).
    open func stopAnimating() {
        UIKitThread.check("UIActivityIndicatorView.stopAnimating()", self)
        isAnimating = false
        if hidesWhenStopped { isHidden = true }
    }
}

/// `UIProgressView`: a progress bar.
@preconcurrency @MainActor
open class UIProgressView: UIView {
    /// The bar's look.
    public enum Style: Int, Sendable {
        /// The default.
        case `default` = 0
        /// In a toolbar.
        case bar = 1
    }

    /// A default bar with `frame`.
    public override init(frame: CGRect) {
        progressViewStyle = .default
        super.init(frame: frame)
    }

    /// A bar of `style`.
    public convenience init(progressViewStyle style: Style) {
        self.init(frame: .zero)
        progressViewStyle = style
    }

    /// A bar from a storyboard.
    public required init?(coder: NSCoder) {
        progressViewStyle = .default
        super.init(coder: coder)
        progress = Float(coder.decodeDouble(forKey: "progress"))
    }

    /// The look.
    open var progressViewStyle: Style
    /// The progress, 0…1 (values outside are pinned, as on iOS).
    open var progress: Float {
        get { storedProgress }
        set {
            UIKitThread.check("UIProgressView.progress", self)
            storedProgress = min(1, max(0, newValue))
        }
    }
    private var storedProgress: Float = 0
    /// The filled part's colour.
    open var progressTintColor: UIColor?
    /// The track's colour.
    open var trackTintColor: UIColor?
    /// A `Progress` the bar follows (its fraction is read when the screen is drawn).
    open var observedProgress: Progress? {
        didSet { if let observedProgress { progress = Float(observedProgress.fractionCompleted) } }
    }

    /// Sets the progress.
    open func setProgress(_ progress: Float, animated: Bool) { self.progress = progress }
}
