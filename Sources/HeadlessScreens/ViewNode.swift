/// One view as a headless screen shows it: what a person would see of it, and whether a finger can
/// use it. Nothing is drawn on Linux; this is the state UIKit's objects hold.
///
/// Optional members are absent from the JSON when they say nothing (a view that is not hidden has
/// no `hidden`), so a screen reads like what is on it.
public struct ViewNode: Codable, Sendable, Equatable {
    /// What kind of thing the view is to a person looking at the screen.
    public enum Role: String, Codable, Sendable, CaseIterable {
        /// A plain view or a view subclass with no more specific role.
        case view
        /// `UIWindow`.
        case window
        /// `UILabel`.
        case label
        /// `UIButton`.
        case button
        /// Another `UIControl` (a switch, a segmented control, a compose sheet's configuration row).
        case control
        /// `UITextField`.
        case textField
        /// `UITextView`.
        case textView
        /// `UIImageView`.
        case image
        /// `UIStackView`.
        case stack
        /// `UIActivityIndicatorView`.
        case activityIndicator
        /// `UIProgressView`.
        case progress
        /// `UIScrollView`.
        case scrollView
        /// `UITableView`.
        case table
        /// `UITableViewCell`.
        case cell
        /// A navigation bar (`UINavigationBar`, or the one a compose sheet shows).
        case navigationBar
        /// A bar button item in a navigation bar or toolbar.
        case barButton
        /// The back button of a navigation bar.
        case backButton
        /// The box of an alert or action sheet.
        case alert
        /// One of an alert's actions.
        case alertAction
    }

    /// A rectangle in points.
    public struct Frame: Codable, Sendable, Equatable, CustomStringConvertible {
        /// The left edge.
        public var x: Double
        /// The top edge.
        public var y: Double
        /// The width.
        public var width: Double
        /// The height.
        public var height: Double

        /// A rectangle.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// Whether every member is zero (a view laid out by constraints, which exthost records but
        /// does not solve).
        public var isZero: Bool { x == 0 && y == 0 && width == 0 && height == 0 }

        /// `(x,y w×h)`, whole numbers without decimals.
        public var description: String {
            func number(_ value: Double) -> String {
                value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
            }
            return "(\(number(x)),\(number(y)) \(number(width))×\(number(height)))"
        }
    }

    /// An image an image view or button shows.
    public struct Image: Codable, Sendable, Equatable {
        /// Its size in points.
        public var width: Double
        /// Its size in points.
        public var height: Double
        /// Pixels per point.
        public var scale: Double
        /// A small PNG of it (at most 160 pixels a side) for the HTML page; absent when the image
        /// could not be decoded.
        public var thumbnailPNG: [UInt8]?

        /// An image summary.
        public init(width: Double, height: Double, scale: Double, thumbnailPNG: [UInt8]? = nil) {
            self.width = width
            self.height = height
            self.scale = scale
            self.thumbnailPNG = thumbnailPNG
        }

        enum CodingKeys: String, CodingKey {
            case width, height, scale, thumbnailPNG
        }

        /// Decodes an image summary; the thumbnail is base64 in JSON.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = try container.decode(Double.self, forKey: .width)
            height = try container.decode(Double.self, forKey: .height)
            scale = try container.decode(Double.self, forKey: .scale)
            thumbnailPNG = try container.decodeIfPresent(String.self, forKey: .thumbnailPNG).flatMap {
                Base64.decode($0)
            }
        }

        /// Encodes the summary with the thumbnail as base64.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(scale, forKey: .scale)
            try container.encodeIfPresent(thumbnailPNG.map(Base64.encode), forKey: .thumbnailPNG)
        }
    }

    /// The object's class as the program names it (`UIButton`, or a subclass such as `CardView`).
    public var type: String
    /// What it is on screen.
    public var role: Role
    /// Its frame in its superview (as set by code; constraints are recorded, not solved).
    public var frame: Frame
    /// The text it shows: a label's text, a button's current title, a field's or text view's text,
    /// an alert action's title, a bar button's title, a cell's text.
    public var text: String?
    /// A second line of text: a cell's detail text, a configuration item's value, an alert's message.
    public var detail: String?
    /// The placeholder shown while a text field or compose text view is empty.
    public var placeholder: String?
    /// `accessibilityIdentifier` (what `tap #identifier` names).
    public var identifier: String?
    /// `accessibilityLabel`.
    public var accessibilityLabel: String?
    /// A style: a button's type, an alert action's style (`cancel`, `destructive`), a bar button's
    /// system item, a stack view's axis, an activity indicator's style, a table's style.
    public var style: String?
    /// `true` when `isHidden`.
    public var hidden: Bool?
    /// `alpha`, when not 1.
    public var alpha: Double?
    /// `false` when a control (or bar button, or alert action) is disabled.
    public var enabled: Bool?
    /// `false` when `isUserInteractionEnabled` is off.
    public var interactive: Bool?
    /// `true` when selected (a control's `isSelected`, a table's selected row).
    public var selected: Bool?
    /// `true` when the view has the keyboard (the first responder).
    public var firstResponder: Bool?
    /// `true` when a finger could use it now: on screen in the top layer, not hidden or transparent,
    /// interactive and enabled along the way, and something to tap.
    public var tappable: Bool?
    /// Background colour (`#RRGGBB` or `#RRGGBBAA`).
    public var background: String?
    /// Text colour.
    public var textColor: String?
    /// Font: family or text style and size, and weight when not regular.
    public var font: String?
    /// The image shown.
    public var image: Image?
    /// A progress view's progress (0…1).
    public var progress: Double?
    /// `true` while an activity indicator animates.
    public var animating: Bool?
    /// `true` for a secure text field (its text is shown as dots).
    public var secure: Bool?
    /// Gesture recognizers attached (`tap`, `longPress`, …).
    public var gestures: [String]?
    /// Layout constraints this view holds, active ones as written (`label.leading == view.leading + 16`).
    public var constraints: [String]?
    /// The subviews, back to front.
    public var children: [ViewNode]

    /// A node.
    public init(
        type: String, role: Role, frame: Frame = Frame(x: 0, y: 0, width: 0, height: 0), text: String? = nil,
        children: [ViewNode] = []
    ) {
        self.type = type
        self.role = role
        self.frame = frame
        self.text = text
        self.children = children
    }

    /// Every node of the tree, depth first (this one first).
    public var allNodes: [ViewNode] {
        var nodes = [self]
        for child in children { nodes.append(contentsOf: child.allNodes) }
        return nodes
    }
}
