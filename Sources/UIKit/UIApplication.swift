public import ExtensionFoundation
public import Foundation

/// `UIApplication`: the running app. ``shared`` exists once ``UIApplicationMain(_:_:_:_:)`` (or the
/// `@main` delegate) has started the app.
@MainActor
open class UIApplication: UIResponder {
    /// Keys of the launch options (`application(_:didFinishLaunchingWithOptions:)`); nil when the
    /// app has scenes, as on iOS.
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The URL the app was launched to open (an `NSURL`).
        public static let url = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsURLKey")
        /// The sender's bundle identifier.
        public static let sourceApplication = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsSourceApplicationKey")
        /// A property list from the sender.
        public static let annotation = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsAnnotationKey")
    }

    /// Keys of the options of `application(_:open:options:)`.
    public struct OpenURLOptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The sender's bundle identifier (nil across teams).
        public static let sourceApplication = OpenURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionsSourceApplicationKey")
        /// A property list from the sender.
        public static let annotation = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsAnnotationKey")
        /// `true`: the original, open it in place (with its security scope); `false` or absent:
        /// a copy, which the app must copy to keep.
        public static let openInPlace = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsOpenInPlaceKey")
    }

    /// The app (nil before it started).
    public static var shared: UIApplication {
        guard let application = running?.application else {
            // As on iOS, `shared` outside a running app is a programming error; answer a fresh,
            // delegate-less object rather than trapping.
            return UIApplication()
        }
        return application
    }

    /// The running app (set by the app runtime while the app runs).
    package static var running: (any RunningApplication)?

    /// The app's delegate.
    open weak var delegate: (any UIApplicationDelegate)?
    /// The connected scenes (one, for an app with a scene manifest).
    open package(set) var connectedScenes: Set<UIScene> = []

    /// The app object.
    public override init() { super.init() }

    /// The app object, made by UIKit from its class name.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The selectors the Objective-C runtime finds on `UIApplication`: `openURL:` (the deprecated
    /// `openURL(_:)`, which extensions reach with `perform(_:with:)`) and
    /// `openURL:options:completionHandler:` (``open(_:options:completionHandler:)``; also under the
    /// name `open:options:completionHandler:`, as `#selector` spells it from the Swift name).
    nonisolated open override func canDispatch(_ selector: Selector) -> Bool {
        UIApplication.openSelectors.contains(selector) || super.canDispatch(selector)
    }

    /// Calls `openURL:` or `openURL:options:completionHandler:` (see ``canDispatch(_:)``).
    nonisolated open override func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
        guard UIApplication.openSelectors.contains(selector) else {
            return super.dispatch(selector, arguments: arguments)
        }
        return dispatchOpen(selector, arguments: arguments)
    }
}

/// `UIUserActivityRestoring`: an object a continued activity restores.
@MainActor
public protocol UIUserActivityRestoring: AnyObject {
    /// Restores the state of the activity.
    func restoreUserActivityState(_ activity: NSUserActivity)
}

/// `UIApplicationDelegate`: the app's entry points. Every method has a default, as the optional
/// methods of the Objective-C protocol: an app implements the ones it needs. A URL sent to an app
/// without scenes arrives in ``application(_:open:options:)``; when that is not implemented the
/// URL is lost, and exthost's report says so.
@MainActor
public protocol UIApplicationDelegate: AnyObject {
    /// The app's window (for apps without scenes).
    var window: UIWindow? { get set }
    /// First launch call; returning false (with ``application(_:didFinishLaunchingWithOptions:)``
    /// false or absent) keeps a launch URL from ``application(_:open:options:)``.
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// Second launch call.
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// A URL to open (apps without scenes), cold or warm.
    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool
    /// A user activity to continue (apps without scenes): a Shortcuts intent, whose `activityType`
    /// is the intent's class name and whose `interaction.intent` holds the parameters.
    func application(
        _ application: UIApplication, continue userActivity: NSUserActivity,
        restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void
    ) -> Bool
    /// The configuration of a new scene (default: the one the Info.plist's
    /// `UIApplicationSceneManifest` names).
    func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration
    /// The app is about to end.
    func applicationWillTerminate(_ application: UIApplication)
}

extension UIApplicationDelegate {
    /// No window.
    public var window: UIWindow? {
        get { nil }
        set {}
    }
    /// Not implemented: true.
    public func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UIApplication.running?.notImplemented("application(_:willFinishLaunchingWithOptions:)")
        return true
    }
    /// Not implemented: true.
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UIApplication.running?.notImplemented("application(_:didFinishLaunchingWithOptions:)")
        return true
    }
    /// Not implemented: the URL is lost.
    public func application(
        _ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]
    ) -> Bool {
        UIApplication.running?.notImplemented("application(_:open:options:)")
        return false
    }
    /// Not implemented: the activity is not handled.
    public func application(
        _ application: UIApplication, continue userActivity: NSUserActivity,
        restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void
    ) -> Bool {
        UIApplication.running?.notImplemented("application(_:continue:restorationHandler:)")
        return false
    }
    /// The Info.plist's configuration for the session's role.
    public func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        UIApplication.running?.manifestConfiguration(for: connectingSceneSession.role)
            ?? UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
    }
    /// Nothing.
    public func applicationWillTerminate(_ application: UIApplication) {}
}

extension UIApplicationDelegate where Self: UIResponder {
    /// The `@main` entry point: `@main class AppDelegate: UIResponder, UIApplicationDelegate`.
    /// Runs ``UIApplicationMain(_:_:_:_:)`` with this class as the delegate and exits with its status.
    public static func main() {
        exit(ApplicationBackendLookup.run(delegateClass: Self.self))
    }
}

/// The app's entry point, in `main.swift`:
/// `UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self))`.
///
/// Makes the delegate (a `UIResponder` subclass named `delegateClassName`), runs the launch
/// sequence (`willFinishLaunching`, `didFinishLaunching`, then the scene's `willConnectTo` or
/// `application(_:open:options:)` for a launch URL), then — when exthost keeps the app running
/// (`exthost app launch`) — delivers later URLs until the app is terminated. Started by hand (not
/// by exthost) it runs the launch sequence with no URL and returns.
/// - Returns: the exit status (0; 1 when the delegate class cannot be made, or when the program does
///   not link the app runtime — the `ExtHostApp` product — which the message on standard error says).
@MainActor
@discardableResult
public func UIApplicationMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ principalClassName: String?,
    _ delegateClassName: String?
) -> Int32 {
    guard let name = delegateClassName,
        let type = NSClassFromString(name) as? any (UIResponder & UIApplicationDelegate).Type
    else {
        FileHandle.standardError.write(
            Data(
                "UIApplicationMain: '\(delegateClassName ?? "nil")' is not a class that subclasses UIResponder and adopts UIApplicationDelegate\n"
                    .utf8))
        return 1
    }
    return ApplicationBackendLookup.run(delegateClass: type)
}
