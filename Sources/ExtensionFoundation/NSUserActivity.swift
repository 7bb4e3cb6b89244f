public import Foundation

/// `NSUserActivity`: an activity handed to an app — here, a Shortcuts intent the app runs
/// (`activityType` is the intent's class name; `interaction`, from `import Intents`, holds the intent).
open class NSUserActivity: NSObject {
    /// The activity's type.
    public let activityType: String
    /// A title.
    open var title: String?
    /// Extra values.
    open var userInfo: [AnyHashable: Any]?
    /// The `INInteraction` (read it as `interaction` with `import Intents`).
    public var interactionObject: AnyObject?

    /// An activity of `activityType`.
    public init(activityType: String) {
        self.activityType = activityType
        super.init()
    }
}
