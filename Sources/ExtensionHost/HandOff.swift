public import AppGroups
public import ExtensionIPC
public import Foundation

/// One hand-over from the extension to an app: what the extension asked for, what iOS does with
/// it on the device's iOS version, and whether the app received it. The `handOff` rows of
/// `exthost share --json`.
public struct HandOff: Codable, Hashable, Sendable {
    /// How the extension asked (`UIApplication.open(_:options:completionHandler:)`, `openURL:`,
    /// `NSExtensionContext.open(_:completionHandler:)`).
    public var requested: String
    /// The URL.
    public var url: String
    /// The device's iOS version.
    public var iosVersion: String
    /// What iOS does with that request there, in words.
    public var ios: String
    /// What the extension was told: its completion's `success`, or `openURL:`'s result.
    public var opened: Bool
    /// The app that opens the URL (Launch Services' choice), when one does.
    public var app: String?
    /// `cold` (launched for it) or `warm` (already running), when it was delivered.
    public var start: String?
    /// Which of the app's entry points received it, or that it was lost.
    public var delivery: AppDelivery?
    /// Whether the app received the URL in one of its entry points.
    public var received: Bool
    /// The app's output, for a cold start.
    public var appOutput: String?
}

/// What the host does when an extension asks to open a URL: decide as iOS does, then let Launch
/// Services choose and start the app (given by the caller: ExtensionHost sits below Launch
/// Services).
public struct URLHandOff: Sendable {
    /// The app that opens `url` — for a custom scheme, the app whose `CFBundleURLTypes` list it —
    /// or nil and why none does.
    public var resolve: @Sendable (URL) -> (bundleIdentifier: String?, reason: String)
    /// Delivers `url` to the app `bundleIdentifier`: warm to the running app, else by launching it.
    public var deliver: @Sendable (URL, String) async throws -> AppOpenReport

    /// A hand-over through these two steps.
    public init(
        resolve: @escaping @Sendable (URL) -> (bundleIdentifier: String?, reason: String),
        deliver: @escaping @Sendable (URL, String) async throws -> AppOpenReport
    ) {
        self.resolve = resolve
        self.deliver = deliver
    }
}

/// The rules iOS applies to an extension's request to open a URL.
public enum HandOffPolicy {
    /// Extension points whose extensions may use `NSExtensionContext.open(_:completionHandler:)`
    /// (Today widgets and iMessage apps): Apple — "Each extension point determines whether to
    /// support this method … a Today widget (and no other app extension type) can request the
    /// system to open its containing app".
    public static let pointsThatMayOpenURLs: Set<String> = [
        "com.apple.widget-extension", "com.apple.message-payload-provider",
    ]

    /// Whether iOS `version` opens a URL asked for with `method` by an extension of `extensionPoint`,
    /// and what it does, in words.
    public static func decide(
        _ method: OpenURLRequest.Method, extensionPoint: String?, version: IOSVersion
    ) -> (opens: Bool, ios: String) {
        switch method {
        case .applicationOpen:
            return (
                true,
                "iOS \(version) opens the URL in the app that handles it and brings the app forward; the completion "
                    + "gets true"
            )
        case .openURLSelector:
            if version.opensURLsThroughOpenURLSelector {
                return (
                    true,
                    "iOS \(version) (before 18) still honours the deprecated openURL: sent through the responder "
                        + "chain: the app opens"
                )
            }
            return (
                false,
                "iOS \(version) ignores openURL: from an extension: nothing opens, nothing is reported, the call "
                    + "returns false (\"BUG IN CLIENT OF UIKIT: The caller of UIApplication.openURL(_:) needs to "
                    + "migrate to the non-deprecated UIApplication.open(_:options:completionHandler:). Force "
                    + "returning false (NO).\"); call UIApplication.open(_:options:completionHandler:) on the "
                    + "application the responder chain reaches"
            )
        case .extensionContextOpen:
            if let extensionPoint, pointsThatMayOpenURLs.contains(extensionPoint) {
                return (true, "a \(extensionPoint) extension may open URLs: the system opens it")
            }
            return (
                false,
                "NSExtensionContext.open(_:completionHandler:) is honoured only for Today and iMessage extensions; "
                    + "for \(extensionPoint ?? "this extension point") the completion gets false and nothing opens"
            )
        }
    }
}
