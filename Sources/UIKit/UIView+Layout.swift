import Foundation

extension UIView {
    /// Whether UIKit turns the frame into constraints (`true` until code says otherwise; set it to
    /// `false` before constraining a view in code).
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { !(layoutState?.usesConstraints ?? false) }
        set {
            UIKitThread.check("UIView.translatesAutoresizingMaskIntoConstraints", self)
            layoutStateCreatingIfNeeded.usesConstraints = !newValue
        }
    }

    /// The constraints this view holds (those whose items' nearest common ancestor it is).
    public var constraints: [NSLayoutConstraint] { recordedConstraints }

    /// Activates `constraint` (it must relate this view or its subviews).
    public func addConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = true }
    /// Activates `constraints`.
    public func addConstraints(_ constraints: [NSLayoutConstraint]) { NSLayoutConstraint.activate(constraints) }
    /// Deactivates `constraint`.
    public func removeConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = false }
    /// Deactivates `constraints`.
    public func removeConstraints(_ constraints: [NSLayoutConstraint]) { NSLayoutConstraint.deactivate(constraints) }

    /// The leading edge.
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .leading) }
    /// The trailing edge.
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .trailing) }
    /// The left edge.
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .left) }
    /// The right edge.
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .right) }
    /// The top edge.
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .top) }
    /// The bottom edge.
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .bottom) }
    /// The width.
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(self, .width) }
    /// The height.
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(self, .height) }
    /// The horizontal centre.
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .centerX) }
    /// The vertical centre.
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .centerY) }
    /// The first line's baseline.
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .firstBaseline) }
    /// The last line's baseline.
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .lastBaseline) }

    /// The guide inset by ``layoutMargins``.
    public var layoutMarginsGuide: UILayoutGuide { guide("UIViewLayoutMarginsGuide") }
    /// The guide of the safe area.
    public var safeAreaLayoutGuide: UILayoutGuide { guide("UIViewSafeAreaLayoutGuide") }
    /// The guide of a readable text width.
    public var readableContentGuide: UILayoutGuide { guide("UIViewReadableContentGuide") }
    /// The guides added with ``addLayoutGuide(_:)``.
    public var layoutGuides: [UILayoutGuide] { layoutState?.guides ?? [] }

    /// Adds a guide of your own.
    public func addLayoutGuide(_ layoutGuide: UILayoutGuide) {
        layoutGuide.owningView = self
        layoutStateCreatingIfNeeded.guides.append(layoutGuide)
    }

    /// Removes a guide of your own.
    public func removeLayoutGuide(_ layoutGuide: UILayoutGuide) {
        layoutState?.guides.removeAll { $0 === layoutGuide }
        layoutGuide.owningView = nil
    }

    /// How strongly the view resists growing beyond its natural size along `axis`.
    public func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        layoutState?.hugging[axis.rawValue] ?? .defaultLow
    }
    /// Sets how strongly the view resists growing along `axis`.
    public func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        layoutStateCreatingIfNeeded.hugging[axis.rawValue] = priority
    }
    /// How strongly the view resists shrinking below its natural size along `axis`.
    public func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        layoutState?.compression[axis.rawValue] ?? .defaultHigh
    }
    /// Sets how strongly the view resists shrinking along `axis`.
    public func setContentCompressionResistancePriority(
        _ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis
    ) {
        layoutStateCreatingIfNeeded.compression[axis.rawValue] = priority
    }

    private func guide(_ identifier: String) -> UILayoutGuide {
        if let existing = layoutState?.systemGuides[identifier] { return existing }
        let guide = UILayoutGuide()
        guide.identifier = identifier
        guide.owningView = self
        layoutStateCreatingIfNeeded.systemGuides[identifier] = guide
        return guide
    }

    private var layoutStateCreatingIfNeeded: LayoutState {
        if let layoutState { return layoutState }
        let state = LayoutState()
        layoutState = state
        return state
    }
}

/// A view's layout settings beyond its frame, made on first use.
@MainActor
final class LayoutState {
    var usesConstraints = false
    var guides: [UILayoutGuide] = []
    var systemGuides: [String: UILayoutGuide] = [:]
    var hugging: [Int: UILayoutPriority] = [:]
    var compression: [Int: UILayoutPriority] = [:]
}
