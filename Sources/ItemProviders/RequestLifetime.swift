public import ExtensionIPC
public import Foundation
import HostSystem

/// The end of one request in the extension process: what a device lets run after
/// `completeRequest(returningItems:completionHandler:)` or `cancelRequest(withError:)`, enforced.
///
/// The model, from what Apple documents:
/// - `completeRequest` is a call that returns: it "eventually dismisses the app extension's view
///   controller" (Foundation, `NSExtensionContext.completeRequest(returningItems:completionHandler:)`),
///   and the system ends the process from outside afterwards — "shortly after the app extension
///   performs its task … the system terminates the extension" (App Extension Programming Guide, "An
///   App Extension's Life Cycle"); "extensions receive only a short amount of time to perform any
///   background work" (`NSExtensionHostDidEnterBackground`). So the **work item that called it runs
///   to its end** (the rest of the function, on the main thread or on the load queue).
/// - Its `completionHandler` is "performed as a background priority task": it **runs**, on a
///   background queue, with `expired == false`.
/// - What was already handed to the process runs before it is suspended: **work queued on the main
///   queue before the end**, and **load completion handlers already delivered** (running, or queued
///   to run) at that moment.
/// - Nothing new arrives: a load of the request's items whose result had not been delivered — in
///   flight at the end, or started after it — **is cut off**: its completion handler never runs, an
///   `await` on it never resumes, so it can never write into the App Group afterwards (on a device
///   the host app has moved on and the process is suspended, then terminated).
/// - Then the process ends: once those have finished, or when the grace (``grace``) runs out.
///
/// exthost enforces exactly that: ``end(by:)`` closes the gate at the call, inside
/// `completeRequest`; every load of an input item passes the gate when its completion is about to
/// run; ``settle(within:)`` waits for what may still run and reports what ran and what was cut off.
/// Loads of providers the extension made itself are not cut off (they need no host).
public final class RequestLifetime: Sendable {
    /// How long what may still run after the end is waited for before the process is ended (the
    /// host kills it two seconds after the end in any case).
    public static let grace: Duration = .milliseconds(1500)

    private struct State {
        var endedBy: String?
        var next = 0
        /// Loads of the request's items whose completion has not been delivered.
        var inFlight: [Int: RequestEndReport.Entry] = [:]
        /// Completion handlers running now (delivered, not yet returned).
        var running: [Int: RequestEndReport.Entry] = [:]
        var ran: [RequestEndReport.Entry] = []
        var cutOff: [RequestEndReport.Entry] = []
        /// What cut-off loads hold (their completion handlers, and the continuations those resume):
        /// kept so that nothing reports a continuation leaked, as on a device where the process
        /// simply stops.
        var kept: [any Sendable] = []
        var mainQueueDrained = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// A lifetime for one request.
    public init() {}

    /// Whether the request has ended.
    public var hasEnded: Bool { state.withLock { $0.endedBy != nil } }

    // MARK: - Loads

    /// A load of one of the request's items starts; returns its ticket.
    func begin(_ entry: RequestEndReport.Entry) -> Int {
        state.withLock { state in
            state.next += 1
            state.inFlight[state.next] = entry
            return state.next
        }
    }

    /// The load's completion is about to run: true when it may (the request has not ended, and
    /// it then counts as running until ``returned(_:)``); false when the end cut it off, and
    /// `keeping` is held for the rest of the process.
    func admit(_ ticket: Int, keeping: any Sendable) -> Bool {
        state.withLock { state in
            guard let entry = state.inFlight.removeValue(forKey: ticket) else { return false }
            if state.endedBy != nil {
                state.cutOff.append(entry)
                state.kept.append(keeping)
                return false
            }
            state.running[ticket] = entry
            return true
        }
    }

    /// The load's completion handler returned.
    func returned(_ ticket: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard let entry = state.running.removeValue(forKey: ticket) else { return [] }
            if state.endedBy != nil { state.ran.append(entry) }
            return Self.settledWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - The end

    /// Ends the request at this call (`completeRequest` or `cancelRequest`): every load not yet
    /// delivered is cut off from now on. Marks the main queue, so ``settle(within:)`` knows when
    /// the work queued before the end has run. Returns false when the request had already ended.
    public func end(by call: String) -> Bool {
        let first = state.withLock { state -> Bool in
            guard state.endedBy == nil else { return false }
            state.endedBy = call
            return true
        }
        guard first else { return false }
        DispatchQueue.main.async { [self] in
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.mainQueueDrained = true
                state.ran.append(RequestEndReport.Entry(what: "the work queued on the main queue before \(call)"))
                return Self.settledWaiters(&state)
            }
            for waiter in waiters { waiter.resume() }
        }
        return true
    }

    /// Runs `body` on `queue` as something a device runs after the end (`completeRequest`'s
    /// completion handler), counted until it returns.
    public func runAfterEnd(
        _ what: String, on queue: DispatchQueue = .global(qos: .background), _ body: @escaping @Sendable () -> Void
    ) {
        let ticket = state.withLock { state in
            state.next += 1
            state.running[state.next] = RequestEndReport.Entry(what: what)
            return state.next
        }
        queue.async { [self] in
            body()
            returned(ticket)
        }
    }

    /// Waits until the request has ended and what may still run has finished (the main queue's
    /// work queued before the end, completion handlers running at the end, `completeRequest`'s
    /// completion handler), or for `within` after that, whichever comes first; returns what ran and
    /// what was cut off.
    public func settle(within: Duration = RequestLifetime.grace) async -> RequestEndReport {
        let timeout = Task { [self] in
            try? await Task.sleep(for: within)
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.endedBy != nil, Self.isSettled(state) { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        timeout.cancel()
        return report
    }

    /// What happened after the end so far.
    public var report: RequestEndReport {
        state.withLock { state in
            RequestEndReport(
                endedBy: state.endedBy ?? "", ran: state.ran,
                cutOff: state.cutOff + state.inFlight.sorted { $0.key < $1.key }.map(\.value),
                stillRunning: state.running.sorted { $0.key < $1.key }.map(\.value))
        }
    }

    private static func isSettled(_ state: State) -> Bool { state.mainQueueDrained && state.running.isEmpty }

    private static func settledWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard state.endedBy != nil, isSettled(state) else { return [] }
        defer { state.waiters = [] }
        return state.waiters
    }
}
