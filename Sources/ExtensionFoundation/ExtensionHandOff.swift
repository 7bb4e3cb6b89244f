import Dispatch
package import ExtensionIPC
import ExtensionRuntime
package import Foundation
import HostSystem

/// An extension's requests to open a URL — the hand-over to its app — sent to the host, which does
/// what iOS does with each on the device's iOS version (see `exthost share`'s `handOff`).
///
/// Before each, what the extension wrote into Foundation's suites of its App Groups reaches the
/// groups (``GroupDefaultsMirror``), so the app it opens reads it.
package enum ExtensionHandOff {
    /// Whether the process is an extension connected to exthost's host (false in an app, a test).
    package static var isConnected: Bool { ExtensionLog.current != nil }

    /// Asks the host to open `url` as `method` does; `completion` runs on the main queue with
    /// whether it was opened. Returns false (and calls nothing) when the process is not an extension.
    @discardableResult
    package static func open(
        _ url: URL, method: OpenURLRequest.Method, completion: (@MainActor @Sendable (Bool) -> Void)?
    ) -> Bool {
        guard let environment = ExtensionLog.current else { return false }
        GroupDefaultsMirror.synchronize(reason: "the extension asked to open \(url.absoluteString)")
        environment.host.openURL(url.absoluteString, method: method) { opened in
            guard let completion else { return }
            DispatchQueue.main.async { MainActor.assumeIsolated { completion(opened) } }
        }
        return true
    }

    /// Asks the host to open `url` as `method` does and waits for its decision (not for the app to
    /// start): what a synchronous call such as `openURL:` returns. False outside an extension.
    package static func openWaiting(_ url: URL, method: OpenURLRequest.Method) -> Bool {
        guard let environment = ExtensionLog.current else { return false }
        GroupDefaultsMirror.synchronize(reason: "the extension asked to open \(url.absoluteString)")
        let semaphore = DispatchSemaphore(value: 0)
        let result = OpenedFlag()
        environment.host.openURL(url.absoluteString, method: method) { opened in
            result.set(opened)
            semaphore.signal()
        }
        semaphore.wait()
        return result.value
    }
}

/// The answer of a blocking open, handed from the connection's reader thread.
private final class OpenedFlag: Sendable {
    private let state = Locked(false)
    func set(_ value: Bool) { state.withLock { $0 = value } }
    var value: Bool { state.withLock { $0 } }
}
