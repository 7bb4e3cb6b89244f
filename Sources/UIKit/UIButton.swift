public import Foundation

/// `UIButton`: a control with a title and an image per state. The scripted user taps it by its
/// current title (`tap Save`), its accessibility label or identifier.
@preconcurrency @MainActor
open class UIButton: UIControl {
    /// The kind of button.
    public enum ButtonType: Int, Sendable {
        /// No style.
        case custom = 0
        /// The system's style (tinted text).
        case system = 1
        /// An ⓘ disclosure button.
        case detailDisclosure = 2
        /// A light ⓘ button.
        case infoLight = 3
        /// A dark ⓘ button.
        case infoDark = 4
        /// A ⊕ button.
        case contactAdd = 5
        /// A plain button.
        case plain = 6
        /// A close ⊗ button.
        case close = 7

        /// The kind's name.
        var name: String {
            switch self {
            case .custom: "custom"
            case .system: "system"
            case .detailDisclosure: "detailDisclosure"
            case .infoLight: "infoLight"
            case .infoDark: "infoDark"
            case .contactAdd: "contactAdd"
            case .plain: "plain"
            case .close: "close"
            }
        }

        /// What VoiceOver calls a button of this kind with no title.
        var implicitLabel: String? {
            switch self {
            case .detailDisclosure, .infoLight, .infoDark: "More Info"
            case .contactAdd: "Add"
            case .close: "Close"
            case .custom, .system, .plain: nil
            }
        }
    }

    /// The kind of button.
    open private(set) var buttonType: ButtonType
    private var titles: [UInt: String] = [:]
    private var attributedTitles: [UInt: NSAttributedString] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private var images: [UInt: UIImage] = [:]
    private var backgroundImages: [UInt: UIImage] = [:]
    private lazy var storedTitleLabel: UILabel = UILabel()
    private lazy var storedImageView: UIImageView = UIImageView()

    /// A custom button with `frame`.
    public override init(frame: CGRect) {
        buttonType = .custom
        super.init(frame: frame)
    }

    /// A button from a storyboard (reads `title` for the normal state, and `buttonType`).
    public required init?(coder: NSCoder) {
        buttonType = ButtonType(rawValue: coder.decodeInteger(forKey: "buttonType")) ?? .system
        super.init(coder: coder)
        if let title = coder.decodeObject(forKey: "title") as? String { setTitle(title, for: .normal) }
    }

    /// A button of `buttonType`.
    public convenience init(type buttonType: ButtonType) {
        self.init(frame: .zero)
        self.buttonType = buttonType
    }

    /// A system button that performs `primaryAction` (its title and image become the button's).
    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction {
            if !primaryAction.title.isEmpty { setTitle(primaryAction.title, for: .normal) }
            if let image = primaryAction.image { setImage(image, for: .normal) }
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    /// A button with `frame` that performs `primaryAction`.
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(type: .system, primaryAction: primaryAction)
        self.frame = frame
    }

    /// Sets the title shown in `state` (Apple: titles of other states fall back to the normal one).
    open func setTitle(_ title: String?, for state: UIControl.State) {
        UIKitThread.check("UIButton.setTitle(_:for:)", self)
        titles[state.rawValue] = title
    }

    /// The title for `state` (the normal state's when `state` has none).
    open func title(for state: UIControl.State) -> String? {
        titles[state.rawValue] ?? attributedTitles[state.rawValue]?.string ?? titles[0] ?? attributedTitles[0]?.string
    }

    /// Sets the attributed title shown in `state`.
    open func setAttributedTitle(_ title: NSAttributedString?, for state: UIControl.State) {
        UIKitThread.check("UIButton.setAttributedTitle(_:for:)", self)
        attributedTitles[state.rawValue] = title
    }

    /// The attributed title for `state`.
    open func attributedTitle(for state: UIControl.State) -> NSAttributedString? {
        attributedTitles[state.rawValue] ?? attributedTitles[0]
    }

    /// Sets the title colour of `state`.
    open func setTitleColor(_ color: UIColor?, for state: UIControl.State) {
        UIKitThread.check("UIButton.setTitleColor(_:for:)", self)
        titleColors[state.rawValue] = color
    }

    /// The title colour of `state`.
    open func titleColor(for state: UIControl.State) -> UIColor? { titleColors[state.rawValue] ?? titleColors[0] }

    /// Sets the image shown in `state`.
    open func setImage(_ image: UIImage?, for state: UIControl.State) {
        UIKitThread.check("UIButton.setImage(_:for:)", self)
        images[state.rawValue] = image
    }

    /// The image for `state`.
    open func image(for state: UIControl.State) -> UIImage? { images[state.rawValue] ?? images[0] }

    /// Sets the background image of `state`.
    open func setBackgroundImage(_ image: UIImage?, for state: UIControl.State) {
        backgroundImages[state.rawValue] = image
    }

    /// The background image of `state`.
    open func backgroundImage(for state: UIControl.State) -> UIImage? {
        backgroundImages[state.rawValue] ?? backgroundImages[0]
    }

    /// The title shown now.
    open var currentTitle: String? { title(for: state) }
    /// The attributed title shown now.
    open var currentAttributedTitle: NSAttributedString? { attributedTitle(for: state) }
    /// The title colour now.
    open var currentTitleColor: UIColor { titleColor(for: state) ?? tintColor }
    /// The image shown now.
    open var currentImage: UIImage? { image(for: state) }

    /// The label that shows the title (its text follows ``currentTitle``).
    open var titleLabel: UILabel? {
        storedTitleLabel.text = currentTitle
        return storedTitleLabel
    }

    /// The view that shows the image.
    open var imageView: UIImageView? {
        storedImageView.image = currentImage
        return storedImageView
    }

    /// The insets of the content.
    open var contentEdgeInsets: UIEdgeInsets = .zero
    /// The insets of the title.
    open var titleEdgeInsets: UIEdgeInsets = .zero
    /// The insets of the image.
    open var imageEdgeInsets: UIEdgeInsets = .zero

    /// The title's estimated size plus the insets.
    open override var intrinsicContentSize: CGSize {
        let label = UILabel()
        label.text = currentTitle
        let size = label.intrinsicContentSize
        return CGSize(
            width: size.width + contentEdgeInsets.left + contentEdgeInsets.right,
            height: max(size.height, 34) + contentEdgeInsets.top + contentEdgeInsets.bottom)
    }

    /// The estimated size.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }
}
