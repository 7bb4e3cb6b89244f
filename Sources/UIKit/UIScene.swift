public import Foundation

/// `UIScene`: one instance of the app's UI. exthost connects one window scene when the app's
/// Info.plist has a `UIApplicationSceneManifest` (or its delegate's
/// `application(_:configurationForConnecting:options:)` names a delegate class).
@MainActor
open class UIScene: UIResponder {
    /// `UIScene.ConnectionOptions`: why the scene connects — on a cold start, the URLs to open.
    @MainActor
    public final class ConnectionOptions {
        private let contexts: Set<UIOpenURLContext>
        private let activities: Set<NSUserActivity>
        /// The sender's bundle identifier, when the scene connects to open a URL.
        public let sourceApplication: String?
        /// Whether the scene delegate read ``urlContexts`` (on a cold start, the only place the URL arrives).
        package var urlContextsWereRead = false
        /// Whether the scene delegate read ``userActivities``.
        package var userActivitiesWereRead = false

        /// The user activities the scene connects for (a Shortcuts intent, cold); on a cold start
        /// this is the only place they arrive (`scene(_:continue:)` is not called).
        public var userActivities: Set<NSUserActivity> {
            userActivitiesWereRead = true
            return activities
        }

        /// The URLs to open: "an empty set indicates that there are no URLs to open". On a cold
        /// start this is the only place the URL arrives (`scene(_:openURLContexts:)` is not called).
        public var urlContexts: Set<UIOpenURLContext> {
            urlContextsWereRead = true
            return contexts
        }

        /// Options for a scene that connects with `urlContexts` and `userActivities`.
        package init(
            urlContexts: Set<UIOpenURLContext>, userActivities: Set<NSUserActivity>, sourceApplication: String?
        ) {
            self.contexts = urlContexts
            self.activities = userActivities
            self.sourceApplication = sourceApplication
        }
    }

    /// `UIScene.OpenURLOptions`: how a URL is offered.
    @MainActor
    public final class OpenURLOptions {
        /// The sender's bundle identifier (nil across teams).
        public let sourceApplication: String?
        /// A property list from the sender (nil).
        public let annotation: Any? = nil
        /// `true`: open the original where it is (with its security scope); `false`: a copy in the
        /// app's container.
        public let openInPlace: Bool

        /// Options of a URL offered by `sourceApplication`.
        package init(sourceApplication: String?, openInPlace: Bool) {
            self.sourceApplication = sourceApplication
            self.openInPlace = openInPlace
        }
    }

    /// `UIScene.ActivationState`.
    public enum ActivationState: Int, Sendable {
        /// Not yet connected, or disconnected.
        case unattached = -1
        /// On screen, receiving events.
        case foregroundActive = 0
        /// On screen, not receiving events.
        case foregroundInactive = 1
        /// Off screen.
        case background = 2
    }

    /// The scene's delegate (retained by the scene, as on iOS).
    open var delegate: (any UISceneDelegate)?
    /// The scene's session.
    public nonisolated let session: UISceneSession
    /// Where the scene is.
    public package(set) var activationState: ActivationState = .unattached

    /// A scene.
    public override init() {
        session = UISceneSession(role: .windowApplication)
        super.init()
    }

    /// A scene made by UIKit from its class name.
    public required init?(coder: NSCoder) {
        session = UISceneSession(role: .windowApplication)
        super.init(coder: coder)
    }

    /// The scene of `session`.
    public init(session: UISceneSession, connectionOptions: ConnectionOptions) {
        self.session = session
        super.init()
    }
}

/// `UIWindowScene`: the kind of scene an app connects.
@MainActor
open class UIWindowScene: UIScene {
    /// The scene's windows.
    open var windows: [UIWindow] { [] }
}

/// `UISceneSession`: the persistent side of a scene (made and changed on the main thread only).
open class UISceneSession: NSObject, @unchecked Sendable {
    /// `UISceneSession.Role`.
    public struct Role: RawRepresentable, Hashable, Sendable {
        /// The key in `UISceneConfigurations`.
        public var rawValue: String
        /// A role.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The main window of the app.
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
    }

    /// The role.
    public let role: Role
    /// A persistent identifier.
    public let persistentIdentifier = UUID().uuidString
    /// The configuration the scene was made with.
    public package(set) var configuration: UISceneConfiguration

    /// A session (the system makes them).
    public init(role: Role) {
        self.role = role
        self.configuration = UISceneConfiguration(name: nil, sessionRole: role)
    }
}

/// `UISceneConfiguration`: which delegate class a scene gets.
open class UISceneConfiguration: NSObject {
    /// The configuration's name (`UISceneConfigurationName`).
    public let name: String?
    /// The role.
    public let role: UISceneSession.Role
    /// The scene delegate's class (`UISceneDelegateClassName`).
    open var delegateClass: AnyClass?
    /// The scene's class (`UISceneClassName`; a `UIWindowScene` by default).
    open var sceneClass: AnyClass?

    /// A configuration.
    public init(name: String?, sessionRole: UISceneSession.Role) {
        self.name = name
        self.role = sessionRole
    }
}

/// `UIOpenURLContext`: a URL to open and how it is offered.
@MainActor
public final class UIOpenURLContext: NSObject {
    /// The URL: a copy in `Documents/Inbox`, the original (``UIScene/OpenURLOptions/openInPlace``),
    /// or a custom-scheme URL.
    public let url: URL
    /// How it is offered.
    public let options: UIScene.OpenURLOptions

    /// A context for `url`.
    package init(url: URL, options: UIScene.OpenURLOptions) {
        self.url = url
        self.options = options
    }
}

/// `UISceneDelegate`: a scene's entry points. Every method has a default, as the optional methods
/// of the Objective-C protocol. A URL sent to an app that is not running arrives only in
/// ``scene(_:willConnectTo:options:)`` as `connectionOptions.urlContexts`; one sent while it runs
/// arrives only in ``scene(_:openURLContexts:)``. An app that handles one and not the other loses
/// the URL in the other case, and exthost's report says so.
@MainActor
public protocol UISceneDelegate: AnyObject {
    /// The scene connects (cold start): set up the UI, and open `connectionOptions.urlContexts`.
    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    /// The scene was released.
    func sceneDidDisconnect(_ scene: UIScene)
    /// The scene became active.
    func sceneDidBecomeActive(_ scene: UIScene)
    /// The scene is about to become inactive.
    func sceneWillResignActive(_ scene: UIScene)
    /// The scene is about to come to the foreground.
    func sceneWillEnterForeground(_ scene: UIScene)
    /// The scene went to the background.
    func sceneDidEnterBackground(_ scene: UIScene)
    /// URLs opened while the app runs (warm).
    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>)
    /// A user activity (a Shortcuts intent) while the app runs (warm).
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity)
}

extension UISceneDelegate {
    /// Not implemented.
    public func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        UIApplication.running?.notImplemented("scene(_:willConnectTo:options:)")
    }
    /// Nothing.
    public func sceneDidDisconnect(_ scene: UIScene) {}
    /// Nothing.
    public func sceneDidBecomeActive(_ scene: UIScene) {}
    /// Nothing.
    public func sceneWillResignActive(_ scene: UIScene) {}
    /// Nothing.
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    /// Nothing.
    public func sceneDidEnterBackground(_ scene: UIScene) {}
    /// Not implemented: the activity is not handled.
    public func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
        UIApplication.running?.notImplemented("scene(_:continue:)")
    }
    /// Not implemented: the URLs are lost.
    public func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        UIApplication.running?.notImplemented("scene(_:openURLContexts:)")
    }
}

/// `UIWindowSceneDelegate`: a scene delegate with a window.
@MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {
    /// The scene's window.
    var window: UIWindow? { get set }
}

extension UIWindowSceneDelegate {
    /// No window.
    public var window: UIWindow? {
        get { nil }
        set {}
    }
}
