public import Foundation

/// `UIEdgeInsets`: distances inward from each edge of a rectangle.
public struct UIEdgeInsets: Equatable, Hashable, Sendable {
    /// From the top edge.
    public var top: CGFloat
    /// From the left edge.
    public var left: CGFloat
    /// From the bottom edge.
    public var bottom: CGFloat
    /// From the right edge.
    public var right: CGFloat

    /// Insets of zero.
    public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }

    /// Insets from each edge.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Insets of zero.
    public static let zero = UIEdgeInsets()
}

/// `NSDirectionalEdgeInsets`: insets from the leading and trailing edges (left and right in a
/// left-to-right language, which the headless phone uses).
public struct NSDirectionalEdgeInsets: Equatable, Hashable, Sendable {
    /// From the top edge.
    public var top: CGFloat
    /// From the leading edge.
    public var leading: CGFloat
    /// From the bottom edge.
    public var bottom: CGFloat
    /// From the trailing edge.
    public var trailing: CGFloat

    /// Insets of zero.
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }

    /// Insets from each edge.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// Insets of zero.
    public static let zero = NSDirectionalEdgeInsets()
}

/// `UIOffset`: a horizontal and vertical offset.
public struct UIOffset: Equatable, Hashable, Sendable {
    /// Horizontally.
    public var horizontal: CGFloat
    /// Vertically.
    public var vertical: CGFloat
    /// An offset.
    public init(horizontal: CGFloat, vertical: CGFloat) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    /// No offset.
    public static let zero = UIOffset(horizontal: 0, vertical: 0)
}

extension CGRect {
    /// The rectangle with `insets` taken from its edges.
    public func inset(by insets: UIEdgeInsets) -> CGRect {
        CGRect(
            x: origin.x + insets.left, y: origin.y + insets.top, width: size.width - insets.left - insets.right,
            height: size.height - insets.top - insets.bottom)
    }
}

/// `NSTextAlignment`: how text lines up.
public enum NSTextAlignment: Int, Sendable {
    /// Along the left edge.
    case left = 0
    /// Centred.
    case center = 1
    /// Along the right edge.
    case right = 2
    /// Spread to both edges.
    case justified = 3
    /// The script's natural alignment (left here).
    case natural = 4
}

/// `NSLineBreakMode`: how a line that does not fit is broken.
public enum NSLineBreakMode: Int, Sendable {
    /// At word boundaries.
    case byWordWrapping = 0
    /// At characters.
    case byCharWrapping = 1
    /// Cut off.
    case byClipping = 2
    /// "…text".
    case byTruncatingHead = 3
    /// "text…".
    case byTruncatingTail = 4
    /// "te…xt".
    case byTruncatingMiddle = 5
}

extension NSAttributedString.Key {
    /// The font (`UIFont`).
    public static let font = NSAttributedString.Key(rawValue: "NSFont")
    /// The text colour (`UIColor`).
    public static let foregroundColor = NSAttributedString.Key(rawValue: "NSColor")
    /// The background colour (`UIColor`).
    public static let backgroundColor = NSAttributedString.Key(rawValue: "NSBackgroundColor")
    /// A link (`URL` or `String`).
    public static let link = NSAttributedString.Key(rawValue: "NSLink")
    /// Underlining (an `NSUnderlineStyle` raw value).
    public static let underlineStyle = NSAttributedString.Key(rawValue: "NSUnderline")
    /// Strikethrough (an `NSUnderlineStyle` raw value).
    public static let strikethroughStyle = NSAttributedString.Key(rawValue: "NSStrikethrough")
    /// Letter spacing in points.
    public static let kern = NSAttributedString.Key(rawValue: "NSKern")
}

extension IndexPath {
    /// The index path of `row` in `section` (a table view's rows).
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

    /// The index path of `item` in `section` (a collection view's items).
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The section (the first index).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row (the second index).
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item (the second index).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
