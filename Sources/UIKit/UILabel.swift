public import Foundation

/// `UILabel`: read-only text. Its text, font, colour and alignment are on the screen.
@preconcurrency @MainActor
open class UILabel: UIView {
    /// A label with `frame`.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// A label from a storyboard (reads `text`).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        text = coder.decodeObject(forKey: "text") as? String
        isUserInteractionEnabled = false
    }

    /// The text.
    open var text: String? {
        get { storedText }
        set {
            UIKitThread.check("UILabel.text", self)
            storedText = newValue
            storedAttributedText = nil
        }
    }
    private var storedText: String?
    private var storedAttributedText: NSAttributedString?

    /// The text with attributes (its string is ``text``).
    open var attributedText: NSAttributedString? {
        get { storedAttributedText ?? storedText.map { NSAttributedString(string: $0) } }
        set {
            UIKitThread.check("UILabel.attributedText", self)
            storedAttributedText = newValue
            storedText = newValue?.string
        }
    }

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The font (the system font at 17 points by default).
    open var font: UIFont! {
        get { storedFont ?? .systemFont(ofSize: UIFont.labelFontSize) }
        set {
            UIKitThread.check("UILabel.font", self)
            storedFont = newValue
        }
    }
    private var storedFont: UIFont?

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The text colour (`.label` by default).
    open var textColor: UIColor! {
        get { storedTextColor ?? .label }
        set {
            UIKitThread.check("UILabel.textColor", self)
            storedTextColor = newValue
        }
    }
    private var storedTextColor: UIColor?

    /// The alignment.
    open var textAlignment: NSTextAlignment = .natural { didSet { UIKitThread.check("UILabel.textAlignment", self) } }
    /// The most lines shown (0: any number).
    open var numberOfLines = 1 { didSet { UIKitThread.check("UILabel.numberOfLines", self) } }
    /// How long lines break.
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail
    /// Whether the font shrinks to fit the width.
    open var adjustsFontSizeToFitWidth = false
    /// How far the font may shrink.
    open var minimumScaleFactor: CGFloat = 0
    /// Whether the font follows the person's text size.
    open var adjustsFontForContentSizeCategory = false
    /// Whether the label is enabled (dimmed when not).
    open var isEnabled = true
    /// Whether the label is highlighted.
    open var isHighlighted = false
    /// The colour of highlighted text.
    open var highlightedTextColor: UIColor?
    /// The largest width for line breaking.
    open var preferredMaxLayoutWidth: CGFloat = 0

    /// An estimate of the text's size: a San Francisco glyph is about 0.55 of the point size wide.
    open override var intrinsicContentSize: CGSize {
        let size = font.pointSize
        let lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        let widest = lines.map(\.count).max() ?? 0
        return CGSize(
            width: (CGFloat(widest) * size * 0.55).rounded(.up), height: CGFloat(max(1, lines.count)) * font.lineHeight)
    }

    /// The estimated text size.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }
}
