public import Foundation

/// `UIImageView`: shows an image. The screen shows its size, and the HTML page a thumbnail of it.
@preconcurrency @MainActor
open class UIImageView: UIView {
    /// An image view with `frame`.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// An image view from a storyboard.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isUserInteractionEnabled = false
    }

    /// An image view showing `image`, sized to it (Apple: "This method adjusts the frame of the
    /// receiver to match the size of the specified image").
    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
    }

    /// An image view showing `image`, or `highlightedImage` when highlighted.
    public convenience init(image: UIImage?, highlightedImage: UIImage?) {
        self.init(image: image)
        self.highlightedImage = highlightedImage
    }

    /// The image shown.
    open var image: UIImage? { didSet { UIKitThread.check("UIImageView.image", self) } }
    /// The image shown when highlighted.
    open var highlightedImage: UIImage?
    /// Whether it is highlighted.
    open var isHighlighted = false
    /// Images to animate through (recorded; nothing moves).
    open var animationImages: [UIImage]?
    /// Whether it animates.
    open private(set) var isAnimating = false
    /// Starts animating ``animationImages``.
    open func startAnimating() { isAnimating = true }
    /// Stops animating.
    open func stopAnimating() { isAnimating = false }

    /// The image's size.
    open override var intrinsicContentSize: CGSize { image?.size ?? .zero }
}
