public import Foundation

/// `UIScrollView`: a view whose content can be larger than its bounds. Headless, nothing scrolls
/// under a finger; the offsets code sets are kept.
///
/// A plain scroll view has no `delegate` here: Swift does not let `UITableView` and `UITextView`
/// narrow an inherited property's type as Objective-C does, so only they have one (their delegate
/// protocols refine ``UIScrollViewDelegate``).
@preconcurrency @MainActor
open class UIScrollView: UIView {
    /// How the keyboard is dismissed when scrolling.
    public enum KeyboardDismissMode: Int, Sendable {
        /// Not.
        case none = 0
        /// When dragging starts.
        case onDrag = 1
        /// Interactively.
        case interactive = 2
    }

    /// How the safe area adjusts the insets.
    public enum ContentInsetAdjustmentBehavior: Int, Sendable {
        /// Automatically.
        case automatic = 0
        /// Along scrollable axes.
        case scrollableAxes = 1
        /// Never.
        case never = 2
        /// Always.
        case always = 3
    }

    /// The content's size.
    open var contentSize: CGSize = .zero
    /// How far the content is scrolled.
    open var contentOffset: CGPoint = .zero { didSet { UIKitThread.check("UIScrollView.contentOffset", self) } }
    /// Extra space around the content.
    open var contentInset: UIEdgeInsets = .zero
    /// The insets including the safe area.
    open var adjustedContentInset: UIEdgeInsets { contentInset }
    /// How the safe area adjusts the insets.
    open var contentInsetAdjustmentBehavior: ContentInsetAdjustmentBehavior = .automatic
    /// Whether scrolling is on.
    open var isScrollEnabled = true
    /// Whether it pages.
    open var isPagingEnabled = false
    /// Whether it bounces.
    open var bounces = true
    /// Whether it bounces vertically even when the content fits.
    open var alwaysBounceVertical = false
    /// Whether it bounces horizontally even when the content fits.
    open var alwaysBounceHorizontal = false
    /// Whether the vertical indicator shows.
    open var showsVerticalScrollIndicator = true
    /// Whether the horizontal indicator shows.
    open var showsHorizontalScrollIndicator = true
    /// How the keyboard is dismissed.
    open var keyboardDismissMode: KeyboardDismissMode = .none
    /// Scrolls to `contentOffset` (a table view or text view then tells its delegate).
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        self.contentOffset = contentOffset
        didScroll()
    }

    /// Tells the delegate of a table view or text view that the content scrolled.
    func didScroll() {}

    /// Scrolls so that `rect` is visible (the offset is kept: nothing is laid out).
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {}
}

/// `UIScrollViewDelegate`: told about scrolling. Every method is optional (a default here).
@preconcurrency @MainActor
public protocol UIScrollViewDelegate: NSObjectProtocol {
    /// The content offset changed.
    func scrollViewDidScroll(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
    /// Nothing.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
}
