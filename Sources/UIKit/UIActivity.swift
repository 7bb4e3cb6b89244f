@_exported public import ExtensionFoundation
public import Foundation

/// `UIActivity`: a service the share sheet offers. Subclass it for the app's own activities
/// (`applicationActivities`): override ``activityType``, ``activityTitle``, ``activityCategory``
/// and ``canPerform(withActivityItems:)``.
open class UIActivity: NSObject, @unchecked Sendable {
    /// An activity type: a system one (`com.apple.UIKit.activity.…`), an extension's bundle
    /// identifier, or an app's own.
    public struct ActivityType: RawRepresentable, Hashable, Sendable {
        /// The string.
        public var rawValue: String
        /// A type.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A type.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// AirDrop.
        public static let airDrop = ActivityType("com.apple.UIKit.activity.AirDrop")
        /// Messages.
        public static let message = ActivityType("com.apple.UIKit.activity.Message")
        /// Mail.
        public static let mail = ActivityType("com.apple.UIKit.activity.Mail")
        /// Copy.
        public static let copyToPasteboard = ActivityType("com.apple.UIKit.activity.CopyToPasteboard")
        /// Print.
        public static let print = ActivityType("com.apple.UIKit.activity.Print")
        /// Save Image.
        public static let saveToCameraRoll = ActivityType("com.apple.UIKit.activity.SaveToCameraRoll")
        /// Assign to Contact.
        public static let assignToContact = ActivityType("com.apple.UIKit.activity.AssignToContact")
        /// Add to Reading List.
        public static let addToReadingList = ActivityType("com.apple.UIKit.activity.AddToReadingList")
    }

    /// Where the sheet puts an activity: the app row (`share`) or the action list (`action`).
    public enum Category: Int, Sendable {
        /// The action list (the default).
        case action
        /// The app row.
        case share
    }

    /// `activityCategory` of this class (the default is `.action`).
    open class var activityCategory: Category { .action }
    /// The type (nil by default: give one).
    open var activityType: ActivityType? { nil }
    /// The title the sheet shows.
    open var activityTitle: String? { nil }
    /// Whether the activity can act on the items; the sheet shows it only then (default `false`).
    open func canPerform(withActivityItems activityItems: [Any]) -> Bool { false }

    /// An activity.
    public override init() { super.init() }
}
