public import Foundation
import HeadlessScreens

/// `NSLayoutConstraint`: a relation between two layout attributes. Recorded, not solved: the screen
/// lists each active constraint under the view it constrains, and frames stay what code set.
///
/// Activating a constraint between views with no common ancestor raises on iOS ("Unable to activate
/// constraint … because they have no common ancestor") and ends the extension; here the constraint
/// stays inactive and the screen's diagnostics say so.
@preconcurrency @MainActor
open class NSLayoutConstraint: NSObject {
    /// A layout attribute.
    public enum Attribute: Int, Sendable {
        /// The left edge.
        case left = 1
        /// The right edge.
        case right = 2
        /// The top edge.
        case top = 3
        /// The bottom edge.
        case bottom = 4
        /// The leading edge.
        case leading = 5
        /// The trailing edge.
        case trailing = 6
        /// The width.
        case width = 7
        /// The height.
        case height = 8
        /// The horizontal centre.
        case centerX = 9
        /// The vertical centre.
        case centerY = 10
        /// The last baseline.
        case lastBaseline = 11
        /// The first baseline.
        case firstBaseline = 12
        /// No attribute (a constant width or height).
        case notAnAttribute = 0

        var name: String {
            switch self {
            case .left: "left"
            case .right: "right"
            case .top: "top"
            case .bottom: "bottom"
            case .leading: "leading"
            case .trailing: "trailing"
            case .width: "width"
            case .height: "height"
            case .centerX: "centerX"
            case .centerY: "centerY"
            case .lastBaseline: "lastBaseline"
            case .firstBaseline: "firstBaseline"
            case .notAnAttribute: ""
            }
        }
    }

    /// How the two sides relate.
    public enum Relation: Int, Sendable {
        /// `≤`.
        case lessThanOrEqual = -1
        /// `==`.
        case equal = 0
        /// `≥`.
        case greaterThanOrEqual = 1

        var symbol: String {
            switch self {
            case .lessThanOrEqual: "<="
            case .equal: "=="
            case .greaterThanOrEqual: ">="
            }
        }
    }

    /// An axis.
    public enum Axis: Int, Sendable {
        /// Left to right.
        case horizontal = 0
        /// Top to bottom.
        case vertical = 1
    }

    /// The first item (a view or layout guide).
    open private(set) weak var firstItem: AnyObject?
    /// The first item's attribute.
    public let firstAttribute: Attribute
    /// The relation.
    public let relation: Relation
    /// The second item, nil for a constant.
    open private(set) weak var secondItem: AnyObject?
    /// The second item's attribute.
    public let secondAttribute: Attribute
    /// The multiplier of the second attribute.
    public let multiplier: CGFloat
    /// The constant added.
    open var constant: CGFloat { didSet { UIKitThread.check("NSLayoutConstraint.constant", self) } }
    /// The priority (required: 1000).
    open var priority: UILayoutPriority = .required
    /// A name to tell it apart in logs.
    open var identifier: String?
    /// Whether it takes part in layout.
    open var isActive: Bool {
        get { owner != nil }
        set {
            UIKitThread.check("NSLayoutConstraint.isActive", self)
            newValue ? activate() : deactivate()
        }
    }
    /// The view that holds it while active (the items' nearest common ancestor).
    weak var owner: UIView?

    /// `firstItem.firstAttribute relation secondItem.secondAttribute × multiplier + constant`.
    public init(
        item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation, toItem view2: Any?,
        attribute attr2: Attribute, multiplier: CGFloat, constant c: CGFloat
    ) {
        firstItem = view1 as AnyObject
        firstAttribute = attr1
        self.relation = relation
        secondItem = view2.map { $0 as AnyObject }
        secondAttribute = attr2
        self.multiplier = multiplier
        constant = c
        super.init()
    }

    /// Activates each constraint (Apple: "typically more efficient than activating each constraint individually").
    public class func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Deactivates each constraint.
    public class func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }

    private func activate() {
        guard owner == nil else { return }
        let first = Self.view(of: firstItem)
        let second = Self.view(of: secondItem)
        guard let first else { return }
        guard let ancestor = second.map({ Self.commonAncestor(first, $0) }) ?? first else {
            UIKitDiagnostics.record(
                .constraintWithoutCommonAncestor,
                "NSLayoutConstraint \(description) was activated between views with no common ancestor (one is "
                    + "not yet in the other's hierarchy): on iOS this raises NSGenericException and ends the extension",
                object: first)
            return
        }
        ancestor.recordedConstraints.append(self)
        owner = ancestor
    }

    private func deactivate() {
        owner?.recordedConstraints.removeAll { $0 === self }
        owner = nil
    }

    static func view(of item: AnyObject?) -> UIView? {
        if let view = item as? UIView { return view }
        return (item as? UILayoutGuide)?.owningView
    }

    static func commonAncestor(_ a: UIView, _ b: UIView) -> UIView? {
        var candidate: UIView? = a
        while let view = candidate {
            if b.isDescendant(of: view) { return view }
            candidate = view.superview
        }
        return nil
    }

    /// `UILabel#title.top == UIView.top + 16`.
    open override var description: String { MainActor.assumeIsolated { text(relativeTo: nil) } }

    /// The constraint as written, with `view` (the node it is listed under) left out of the first item.
    func text(relativeTo view: UIView?) -> String {
        func name(_ item: AnyObject?) -> String {
            if let view = item as? UIView { return Self.name(of: view) }
            if let guide = item as? UILayoutGuide {
                let names = [
                    "UIViewSafeAreaLayoutGuide": "safeAreaLayoutGuide",
                    "UIViewLayoutMarginsGuide": "layoutMarginsGuide",
                    "UIViewReadableContentGuide": "readableContentGuide",
                ]
                return (guide.owningView.map(Self.name(of:)) ?? "?") + "."
                    + (names[guide.identifier] ?? guide.identifier)
            }
            return "?"
        }
        let left = (firstItem === view ? "" : name(firstItem) + ".") + firstAttribute.name
        var text = "\(left) \(relation.symbol) "
        if let secondItem, secondAttribute != .notAnAttribute {
            text += name(secondItem) + "." + secondAttribute.name
            if multiplier != 1 { text += " × \(UIFont.number(multiplier))" }
            if constant > 0 { text += " + \(UIFont.number(constant))" }
            if constant < 0 { text += " - \(UIFont.number(-constant))" }
        } else {
            text += UIFont.number(constant)
        }
        if priority != .required { text += " @\(UIFont.number(CGFloat(priority.rawValue)))" }
        return text
    }

    static func name(of view: UIView) -> String {
        if let identifier = view.accessibilityIdentifier { return "#" + identifier }
        return String(describing: type(of: view))
    }
}

/// `UILayoutPriority`: how much a constraint matters (1…1000).
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable {
    /// The priority.
    public var rawValue: Float
    /// A priority.
    public init(rawValue: Float) { self.rawValue = rawValue }
    /// A priority.
    public init(_ rawValue: Float) { self.rawValue = rawValue }
    /// Must hold (1000).
    public static let required = UILayoutPriority(1000)
    /// 750.
    public static let defaultHigh = UILayoutPriority(750)
    /// 250.
    public static let defaultLow = UILayoutPriority(250)
    /// 50.
    public static let fittingSizeLevel = UILayoutPriority(50)
    /// Whether `lhs` matters less.
    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    /// A priority a little higher or lower.
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority {
        UILayoutPriority(lhs.rawValue + rhs)
    }
    /// A priority a little lower.
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority {
        UILayoutPriority(lhs.rawValue - rhs)
    }
}

/// `UILayoutGuide`: a rectangle for layout that is not a view (margins, the safe area).
@preconcurrency @MainActor
open class UILayoutGuide: NSObject {
    /// The view it belongs to.
    open internal(set) weak var owningView: UIView?
    /// Its name (`UIViewLayoutMarginsGuide`, `UIViewSafeAreaLayoutGuide`, or one you give).
    open var identifier = ""
    /// Its frame (not solved: zero).
    open var layoutFrame: CGRect { .zero }

    /// A guide.
    public override init() { super.init() }

    /// The leading edge.
    open var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .leading) }
    /// The trailing edge.
    open var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .trailing) }
    /// The left edge.
    open var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .left) }
    /// The right edge.
    open var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .right) }
    /// The top edge.
    open var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .top) }
    /// The bottom edge.
    open var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .bottom) }
    /// The width.
    open var widthAnchor: NSLayoutDimension { NSLayoutDimension(self, .width) }
    /// The height.
    open var heightAnchor: NSLayoutDimension { NSLayoutDimension(self, .height) }
    /// The horizontal centre.
    open var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .centerX) }
    /// The vertical centre.
    open var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .centerY) }
}

/// `NSLayoutAnchor`: one attribute of a view or guide, to make constraints from.
@preconcurrency @MainActor
open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    let item: AnyObject
    let attribute: NSLayoutConstraint.Attribute

    init(_ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute) {
        self.item = item
        self.attribute = attribute
        super.init()
    }

    /// `self == anchor`.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        constraint(.equal, anchor, constant: 0)
    }
    /// `self >= anchor`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, anchor, constant: 0)
    }
    /// `self <= anchor`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, anchor, constant: 0)
    }
    /// `self == anchor + c`.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        constraint(.equal, anchor, constant: c)
    }
    /// `self >= anchor + c`.
    open func constraint(
        greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat
    ) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, anchor, constant: c)
    }
    /// `self <= anchor + c`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat)
        -> NSLayoutConstraint
    {
        constraint(.lessThanOrEqual, anchor, constant: c)
    }

    func constraint(
        _ relation: NSLayoutConstraint.Relation, _ anchor: NSLayoutAnchor<AnchorType>, multiplier: CGFloat = 1,
        constant: CGFloat
    ) -> NSLayoutConstraint {
        NSLayoutConstraint(
            item: item, attribute: attribute, relatedBy: relation, toItem: anchor.item, attribute: anchor.attribute,
            multiplier: multiplier, constant: constant)
    }
}

/// A horizontal edge or centre.
@preconcurrency @MainActor
open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}

/// A vertical edge, centre or baseline.
@preconcurrency @MainActor
open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}

/// A width or height.
@preconcurrency @MainActor
open class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    /// `self == c`.
    open func constraint(equalToConstant c: CGFloat) -> NSLayoutConstraint { constant(.equal, c) }
    /// `self >= c`.
    open func constraint(greaterThanOrEqualToConstant c: CGFloat) -> NSLayoutConstraint {
        constant(.greaterThanOrEqual, c)
    }
    /// `self <= c`.
    open func constraint(lessThanOrEqualToConstant c: CGFloat) -> NSLayoutConstraint { constant(.lessThanOrEqual, c) }
    /// `self == anchor × m`.
    open func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        constraint(.equal, anchor, multiplier: m, constant: 0)
    }
    /// `self == anchor × m + c`.
    open func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat, constant c: CGFloat)
        -> NSLayoutConstraint
    {
        constraint(.equal, anchor, multiplier: m, constant: c)
    }
    /// `self >= anchor × m`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        constraint(.greaterThanOrEqual, anchor, multiplier: m, constant: 0)
    }
    /// `self <= anchor × m`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        constraint(.lessThanOrEqual, anchor, multiplier: m, constant: 0)
    }

    private func constant(_ relation: NSLayoutConstraint.Relation, _ c: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(
            item: item, attribute: attribute, relatedBy: relation, toItem: nil, attribute: .notAnAttribute,
            multiplier: 1, constant: c)
    }
}
