public import ExtensionIPC
public import Foundation
import HostSystem

/// How a request ended.
public enum ExtensionOutcome: Sendable, CustomStringConvertible {
    /// `completeRequest(returningItems:)`, with the number of items returned and the security
    /// scopes still started at that moment.
    case completed(returnedItemCount: Int, leaks: [SecurityScopeLeak])
    /// `cancelRequest(withError:)`, with the error the host sees.
    case cancelled(any Error)

    /// `completed (N items)` or `cancelled: error`.
    public var description: String {
        switch self {
        case .completed(let count, let leaks):
            "completed (\(count) item\(count == 1 ? "" : "s") returned"
                + (leaks.isEmpty ? ")" : "; leaked scopes: \(leaks.map(\.description).joined(separator: ", ")))")
        case .cancelled(let error): "cancelled: \(error)"
        }
    }
}

/// The extension's side of a request: the model of Apple's `NSExtensionContext` for a share
/// extension. Not `Sendable`: it holds the input items.
///
/// The owner (the host, or the process that runs the extension) observes the outcome through
/// ``onCompletion`` or ``outcome()``. A second `completeRequest` or `cancelRequest` is ignored and
/// noted in ``diagnostics``.
public final class ExtensionContext {
    /// The items the host shares (a share sheet normally sends one item with N attachments).
    public let inputItems: [ExtensionItem]
    /// The items passed to `completeRequest`.
    public private(set) var returnedItems: [ExtensionItem]?
    /// Called once when the request ends (on the caller of `completeRequest`/`cancelRequest`).
    public var onCompletion: (@Sendable (ExtensionOutcome) -> Void)?
    /// Notes about misuse: a second completion, `open(_:)` from a share extension (error lines
    /// with their ``LogLine/Mistake``, as the host's report shows them).
    public private(set) var diagnostics: [LogLine] = []

    private let waiters = OutcomeWaiters()

    /// The request's end: what still runs after it, and the loads of ``inputItems`` it cuts off
    /// (``RequestLifetime``).
    public let lifetime = RequestLifetime()

    /// A context for `inputItems`; their providers' loads end with the request.
    public init(inputItems: [ExtensionItem]) {
        self.inputItems = inputItems
        for item in inputItems {
            for provider in item.attachments ?? [] { provider.requestLifetime = lifetime }
        }
    }

    /// Ends the request successfully: from this call on, loads of the input items not yet delivered
    /// are cut off (``RequestLifetime``). `completionHandler(expired)` runs afterwards with `false`
    /// on a background queue ("performed as a background priority task"; it never expires here).
    /// The security scopes still started are reported as leaks.
    public func completeRequest(
        returningItems items: [ExtensionItem]?, completionHandler: (@Sendable (Bool) -> Void)? = nil
    ) {
        // The items are in place before the outcome wakes whoever waits for it (they read them).
        let previous = returnedItems
        returnedItems = items
        guard finish(.completed(returnedItemCount: items?.count ?? 0, leaks: SecurityScope.leaks()), "completeRequest")
        else {
            returnedItems = previous
            diagnostics.append(
                LogLine(
                    level: .error,
                    text: "completeRequest(returningItems:) called after the request had already ended; ignored",
                    mistake: .requestEndedTwice))
            return
        }
        if let completionHandler {
            lifetime.runAfterEnd("completeRequest's completion handler") { completionHandler(false) }
        }
    }

    /// Ends the request with an error the host sees; loads of the input items not yet delivered are
    /// cut off.
    public func cancelRequest(withError error: any Error) {
        guard finish(.cancelled(error), "cancelRequest") else {
            diagnostics.append(
                LogLine(
                    level: .error,
                    text: "cancelRequest(withError:) called after the request had already ended; ignored",
                    mistake: .requestEndedTwice))
            return
        }
    }

    /// Asks the system to open a URL: share extensions are not allowed to (only Today and iMessage
    /// extensions are), so the completion gets `false`, as on iOS.
    public func open(_ url: URL, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        diagnostics.append(
            LogLine(
                level: .error, text: "open(\(url.absoluteString)) refused: share extensions cannot open URLs",
                mistake: .openRefused))
        completionHandler?(false)
    }

    /// Whether the request has ended.
    public var isFinished: Bool { waiters.current != nil }

    /// Waits for the request to end and returns how.
    nonisolated(nonsending) public func outcome() async -> ExtensionOutcome {
        await waiters.wait()
    }

    private func finish(_ outcome: ExtensionOutcome, _ call: String) -> Bool {
        // The gate closes at the call, before anyone waiting for the outcome can run.
        guard lifetime.end(by: call), waiters.resolve(outcome) else { return false }
        onCompletion?(outcome)
        return true
    }
}

private final class OutcomeWaiters: Sendable {
    private struct State {
        var outcome: ExtensionOutcome?
        var continuations: [CheckedContinuation<ExtensionOutcome, Never>] = []
    }

    private let state = Locked(State())

    var current: ExtensionOutcome? { state.withLock { $0.outcome } }

    func resolve(_ outcome: ExtensionOutcome) -> Bool {
        let waiting: [CheckedContinuation<ExtensionOutcome, Never>]? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuations.removeAll() }
            return state.continuations
        }
        guard let waiting else { return false }
        for continuation in waiting { continuation.resume(returning: outcome) }
        return true
    }

    func wait() async -> ExtensionOutcome {
        await withCheckedContinuation { continuation in
            let ready: ExtensionOutcome? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.continuations.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
