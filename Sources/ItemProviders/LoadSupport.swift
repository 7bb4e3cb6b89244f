import ExtensionIPC
import Foundation
import HostSystem

/// The bookkeeping of one load: the completion is delivered once, whichever comes first of the
/// result and a cancellation; the provider's own `Progress` is cancelled along with ours. A load
/// of a request's item (its provider has a ``RequestLifetime``) is delivered only before the
/// request ends: after, it is cut off and its completion never runs.
final class LoadState: Sendable {
    private let delivered = Locked(false)
    private let child = Locked<Progress?>(nil)
    /// The completion handlers the load will call: a cut-off load hands them to its lifetime, so
    /// what they capture (a continuation) is never reported as leaked.
    private let handlers = Locked<[any Sendable]>([])
    let progress: Progress
    private let ticket: Int
    private let lifetime: RequestLifetime?
    private let lifetimeTicket: Int?

    /// A load described as `what` (for ``LoadsInFlight``), of attachment `attachment` of the
    /// request `lifetime` belongs to (nil: a provider of the process's own).
    init(_ what: String, lifetime: RequestLifetime? = nil, attachment: Int? = nil) {
        progress = Progress(totalUnitCount: 100)
        ticket = LoadsInFlight.begin(what)
        self.lifetime = lifetime
        lifetimeTicket = lifetime?.begin(RequestEndReport.Entry(what: what, attachment: attachment))
    }

    /// Keeps `handler` (a completion the load will call) as long as the load.
    func keep(_ handler: any Sendable) { handlers.withLock { $0.append(handler) } }

    /// Runs `body` (the delivery of the completion) for the first caller only, unless the request
    /// has ended: then the load is cut off and nothing runs. Returns whether `body` ran.
    @discardableResult
    func deliver(_ body: () -> Void) -> Bool {
        guard claim() else { return false }
        if let lifetime, let lifetimeTicket {
            guard lifetime.admit(lifetimeTicket, keeping: self) else { return false }
            body()
            lifetime.returned(lifetimeTicket)
        } else {
            body()
        }
        handlers.withLock { $0 = [] }
        return true
    }

    /// True for the first caller only. The first claim also drops the progress's cancellation
    /// handler and the adopted child: the handler captures this state, which holds the progress,
    /// so without this every load leaked both (about 0.5 KiB a load, enough to push a share of
    /// 100 000 attachments over the extension's 120 MiB).
    private func claim() -> Bool {
        let first = delivered.withLock { done in
            if done { return false }
            done = true
            return true
        }
        if first {
            progress.cancellationHandler = nil
            child.withLock { $0 = nil }
            LoadsInFlight.end(ticket)
        }
        return first
    }

    func adopt(_ providerProgress: Progress?) {
        guard let providerProgress else { return }
        child.withLock { $0 = providerProgress }
        if progress.isCancelled { providerProgress.cancel() }
    }

    func cancelChild() {
        child.withLock { $0 }?.cancel()
    }

    func finish() {
        progress.completedUnitCount = progress.totalUnitCount
    }
}

/// The loads of this process whose completion has not been delivered yet: what a request abandons
/// when it completes too early (on a device the process ends right after `completeRequest`).
public enum LoadsInFlight {
    private struct State {
        var next = 0
        var loads: [Int: String] = [:]
    }
    private static let state = Locked(State())

    static func begin(_ what: String) -> Int {
        state.withLock { state in
            state.next += 1
            state.loads[state.next] = what
            return state.next
        }
    }

    static func end(_ ticket: Int) {
        _ = state.withLock { $0.loads.removeValue(forKey: ticket) }
    }

    /// The loads still running, oldest first (`loadDataRepresentation of photo.jpg (public.jpeg)`).
    public static func current() -> [String] {
        state.withLock { state in state.loads.sorted { $0.key < $1.key }.map(\.value) }
    }
}

/// What a representation's load handler produced.
enum Fetched: Sendable {
    case data(Data)
    case file(URL)
    case descriptor(DescriptorRepresentation)
}

/// The queue the loads run on (Apple: "an internal queue").
let loadQueue = DispatchQueue(label: "exthost.item-provider.load", qos: .userInitiated, attributes: .concurrent)

/// Holds the `Progress` of an async load so task cancellation can reach it.
final class ProgressBox: Sendable {
    private let value = Locked<Progress?>(nil)
    func set(_ progress: Progress) { value.withLock { $0 = progress } }
    func cancel() { value.withLock { $0 }?.cancel() }
}

/// Runs a completion-handler load as an async call; cancelling the task cancels the load.
nonisolated(nonsending) func awaitLoad<T: Sendable>(
    _ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Progress
) async throws -> T {
    let box = ProgressBox()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let progress = start { continuation.resume(with: $0) }
            box.set(progress)
            if Task.isCancelled { progress.cancel() }
        }
    } onCancel: {
        box.cancel()
    }
}
