import Dispatch
import ExtensionFoundation
import ExtensionIPC
public import Foundation

extension UIApplication {
    /// Keys of the options of ``open(_:options:completionHandler:)``.
    public struct OpenExternalURLOptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Open the URL only when it is a universal link an installed app handles (a Boolean).
        public static let universalLinksOnly = OpenExternalURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    nonisolated static let openSelectors: Set<Selector> = [
        "openURL:", "openURL:options:completionHandler:", "open:options:completionHandler:",
    ]

    /// Apple's `open(_:options:completionHandler:)`: "Attempts to asynchronously open the resource at
    /// the specified URL"; the completion runs on the main thread with whether it was opened.
    ///
    /// In an extension — whose responder chain ends in the application, as on iOS — exthost's host
    /// does what iOS does: Launch Services picks the app whose `CFBundleURLTypes` list the URL's
    /// scheme and delivers the URL to it, warm when it runs, else by launching it (the same delivery
    /// `exthost open` makes: `scene(_:openURLContexts:)` or `scene(_:willConnectTo:options:)`). This
    /// works on every iOS version (unlike `openURL:`); the share's report records it (`handOff`).
    /// Outside an extension (an app's own process) no URL is opened here: the completion gets `false`.
    public func open(
        _ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {
        if ExtensionHandOff.open(url, method: .applicationOpen, completion: completion) { return }
        FileHandle.standardError.write(
            Data(
                "UIApplication.open(\(url.absoluteString)): only an extension's hand-over is emulated; nothing opens\n"
                    .utf8))
        if let completion { DispatchQueue.main.async { MainActor.assumeIsolated { completion(false) } } }
    }

    /// The awaited form of ``open(_:options:completionHandler:)``: whether the URL was opened.
    public func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:]) async -> Bool {
        await withCheckedContinuation { continuation in
            open(url, options: options) { continuation.resume(returning: $0) }
        }
    }

    /// Apple's deprecated `openURL(_:)`: opens `url` and says whether it did — before iOS 18. From
    /// iOS 18 on it opens nothing and returns `false` ("Force returning false (NO)"), which is why
    /// extensions that reach it through the responder chain stopped opening their app; the device's
    /// iOS version decides (`exthost device create --ios VERSION`).
    @available(*, deprecated, message: "Use open(_:options:completionHandler:); from iOS 18 this does nothing")
    public func openURL(_ url: URL) -> Bool { Self.openThroughSelector(url) }

    /// `openURL:` as the selector path reaches it (no deprecation warning at the call inside exthost).
    nonisolated static func openThroughSelector(_ url: URL) -> Bool {
        if ExtensionHandOff.isConnected { return ExtensionHandOff.openWaiting(url, method: .openURLSelector) }
        FileHandle.standardError.write(
            Data("UIApplication.openURL(\(url.absoluteString)): only an extension's hand-over is emulated\n".utf8))
        return false
    }

    /// Runs `openURL:` or `openURL:options:completionHandler:` for `perform`: the URL is the first
    /// argument (an `NSURL`, a `URL`, or a string), a completion handler the third.
    nonisolated func dispatchOpen(_ selector: Selector, arguments: [Any?]) -> SelectorResult {
        let first = arguments.first ?? nil
        let url = (first as? URL) ?? (first as? String).flatMap(URL.init(string:))
        guard let url else { return .returned(false) }
        if selector == "openURL:" { return .returned(Self.openThroughSelector(url)) }
        let completion = arguments.count > 2 ? arguments[2] as? @MainActor @Sendable (Bool) -> Void : nil
        if ExtensionHandOff.open(url, method: .applicationOpen, completion: completion) { return .returned(nil) }
        if let completion { DispatchQueue.main.async { MainActor.assumeIsolated { completion(false) } } }
        return .returned(nil)
    }
}
