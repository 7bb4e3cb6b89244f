/// Extension → host: the extension asks the system to open a URL — almost always its own app's
/// scheme, to bring the app forward with what was shared. The host answers with ``OpenURLReply``
/// after doing what iOS does for that call on the device's iOS version.
public struct OpenURLRequest: Codable, Hashable, Sendable {
    /// How the extension asked.
    public enum Method: String, Codable, Hashable, Sendable, CaseIterable {
        /// `UIApplication.open(_:options:completionHandler:)` on the application reached through the
        /// responder chain: opens the app on every iOS version.
        case applicationOpen = "UIApplication.open(_:options:completionHandler:)"
        /// The deprecated `openURL:` sent to the application (`perform(_:with:)` with
        /// `sel_registerName("openURL:")`, or `UIApplication.openURL(_:)`): opens the app before
        /// iOS 18, nothing from iOS 18 on.
        case openURLSelector = "openURL:"
        /// `NSExtensionContext.open(_:completionHandler:)`: honoured for Today and iMessage
        /// extensions only; a share or action extension's completion gets `false`.
        case extensionContextOpen = "NSExtensionContext.open(_:completionHandler:)"
    }

    /// Chosen by the extension; the reply names it.
    public var requestID: UInt64
    /// The URL, as the extension gave it.
    public var url: String
    /// How the extension asked.
    public var method: Method

    /// A request.
    public init(requestID: UInt64, url: String, method: Method) {
        self.requestID = requestID
        self.url = url
        self.method = method
    }
}

/// Host → extension: what the call returns to the extension (its completion handler's `success`,
/// or `openURL:`'s result).
public struct OpenURLReply: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// Whether the URL was opened (an app was launched or brought forward with it).
    public var opened: Bool

    /// A reply.
    public init(requestID: UInt64, opened: Bool) {
        self.requestID = requestID
        self.opened = opened
    }
}
