public import Foundation

/// `UITraitCollection`: the environment of the interface. The headless screen is a phone in
/// portrait, light mode, compact width and regular height, at 3× (an iPhone's traits).
open class UITraitCollection: NSObject, @unchecked Sendable {
    // Immutable after init: no lock needed for `@unchecked Sendable`.

    /// The traits of the headless phone.
    public static var current: UITraitCollection { UITraitCollection(phone: ()) }

    /// The interface style (`.light`).
    public let userInterfaceStyle: UIUserInterfaceStyle
    /// The horizontal size class (`.compact`).
    public let horizontalSizeClass: UIUserInterfaceSizeClass
    /// The vertical size class (`.regular`).
    public let verticalSizeClass: UIUserInterfaceSizeClass
    /// Pixels per point (3).
    public let displayScale: CGFloat
    /// The kind of device (`.phone`).
    public let userInterfaceIdiom: UIUserInterfaceIdiom
    /// The text size the person chose (`.large`, the default).
    public let preferredContentSizeCategory: UIContentSizeCategory

    init(phone: Void) {
        userInterfaceStyle = .light
        horizontalSizeClass = .compact
        verticalSizeClass = .regular
        displayScale = 3
        userInterfaceIdiom = .phone
        preferredContentSizeCategory = .large
        super.init()
    }

    /// The phone's traits with `userInterfaceStyle` replaced.
    public convenience init(userInterfaceStyle: UIUserInterfaceStyle) {
        self.init(phone: ())
    }

    /// The phone's traits.
    public override convenience init() { self.init(phone: ()) }
}

/// Light or dark mode.
public enum UIUserInterfaceStyle: Int, Sendable {
    /// Whatever the system uses.
    case unspecified = 0
    /// Light mode.
    case light = 1
    /// Dark mode.
    case dark = 2
}

/// A size class.
public enum UIUserInterfaceSizeClass: Int, Sendable {
    /// Not known.
    case unspecified = 0
    /// Compact (a phone's width in portrait).
    case compact = 1
    /// Regular.
    case regular = 2
}

/// The kind of device.
public enum UIUserInterfaceIdiom: Int, Sendable {
    /// Not known.
    case unspecified = -1
    /// An iPhone.
    case phone = 0
    /// An iPad.
    case pad = 1
    /// Apple TV.
    case tv = 2
    /// CarPlay.
    case carPlay = 3
    /// A Mac running the app through Mac Catalyst.
    case mac = 5
    /// Apple Vision Pro.
    case vision = 6
}

/// The text size a person chose.
public struct UIContentSizeCategory: RawRepresentable, Hashable, Sendable {
    /// The category's name.
    public var rawValue: String
    /// A category.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Small.
    public static let small = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    /// Medium.
    public static let medium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    /// Large (the default).
    public static let large = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    /// Extra large.
    public static let extraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
}

/// `UITraitEnvironment`: an object with traits (views and view controllers).
@preconcurrency @MainActor
public protocol UITraitEnvironment: NSObjectProtocol {
    /// The traits.
    var traitCollection: UITraitCollection { get }
    /// Called when the traits change (never here: the headless phone's traits are fixed).
    func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?)
}
