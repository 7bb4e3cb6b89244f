import ExtensionIPC
package import ExtensionRuntime
public import Foundation
import HostSystem
package import ItemProviders

/// Apple's `NSExtensionContext`: the extension's side of one request — the items the host shared,
/// and the calls that end the request.
///
/// On a device the extension process is ended soon after the request ends: a load still running
/// then never finishes, and exthost says so in the report. A second `completeRequest` or
/// `cancelRequest` has no effect, and is reported too.
///
/// `Sendable`: extensions end the request from whichever queue their last load completes on, as
/// Apple's sample code does; every call takes a lock.
open class NSExtensionContext: NSObject, @unchecked Sendable {
    package let model: ExtensionContext
    /// Counts the calls (a zero-sized value under the lock is reported as a race by ThreadSanitizer).
    private let lock = Locked(0)
    private let environment: ExtensionRuntime.Environment?
    private let items: [NSExtensionItem]

    /// A context over a model context (``NSExtensionMain(_:)`` makes it).
    package init(model: ExtensionContext, environment: ExtensionRuntime.Environment?) {
        self.model = model
        self.environment = environment
        self.items = model.inputItems.map { NSExtensionItem(model: $0) }
        super.init()
    }

    /// The items the host shared (``NSExtensionItem``s; Apple types the array `[Any]`).
    open var inputItems: [Any] { items }

    /// Ends the request successfully, handing `items` (``NSExtensionItem``s) back to the host;
    /// `completionHandler(expired)` runs afterwards with `false`.
    open func completeRequest(returningItems items: [Any]?, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        let returned = items?.compactMap { ($0 as? NSExtensionItem)?.model }
        lock.withLock { calls in
            calls += 1
            let before = model.diagnostics.count
            model.completeRequest(returningItems: returned, completionHandler: completionHandler)
            reportMisuse(since: before)
        }
    }

    /// Ends the request with an error the host sees (`NSUserCancelledError` 3072 in
    /// `NSCocoaErrorDomain` when the user cancelled).
    open func cancelRequest(withError error: any Error) {
        let ns = error as NSError
        lock.withLock { calls in
            calls += 1
            let before = model.diagnostics.count
            model.cancelRequest(
                withError: ItemProviderError(
                    ItemProviderError.Code(domain: ns.domain, rawValue: ns.code), ns.localizedDescription))
            reportMisuse(since: before)
        }
    }

    /// Asks the system to open a URL. Apple: "Each extension point determines whether to support
    /// this method" — only Today and iMessage extensions may; a share or action extension's
    /// completion gets `false` and nothing opens. The host records the request in the report's
    /// hand-over (`handOff`).
    open func open(_ URL: URL, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        let sent = ExtensionHandOff.open(URL, method: .extensionContextOpen) { opened in
            completionHandler?(opened)
        }
        guard !sent else { return }
        lock.withLock { calls in
            calls += 1
            let before = model.diagnostics.count
            model.open(URL, completionHandler: completionHandler)
            reportMisuse(since: before)
        }
    }

    private func reportMisuse(since count: Int) {
        for note in model.diagnostics.dropFirst(count) { environment?.log(note) }
    }
}
