import Foundation

/// A spawned child that is always reaped: a background thread waits for it to terminate, and
/// ``exitStatus()`` reaps it once.
///
/// The process group is the unit when the child leads one (``Spawn/ProcessGroup/newGroup`` or
/// `.newSession`): signals go to the whole group, and once the leader has terminated the members
/// still alive (what it forked) are killed with `SIGKILL` before the leader is reaped; the zombie
/// leader keeps the group id reserved until then, so no unrelated process can be hit.
///
/// Prefer ``withChildProcess(_:teardown:isolation:_:)``, which also tears the child down.
public final class ChildProcess: Sendable {
    /// The child's pid (also its process-group id when it leads a group).
    public let pid: ProcessID
    /// Whether the child leads its own process group.
    public let leadsProcessGroup: Bool
    /// A pidfd of the child: polls readable once it has terminated, so a wait for something else
    /// (a message on a socket) can end when the child does, in one `poll`. Nil on a kernel without
    /// `pidfd_open` (before 5.3). Open as long as this object lives.
    public let terminationDescriptor: FileDescriptor?

    private struct State {
        var terminated = false
        var reaping = false
        var status: TerminationStatus?
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Callers of ``exitStatus()`` waiting for the status another caller is reaping.
        var statusWaiters: [CheckedContinuation<TerminationStatus, Never>] = []
    }
    private let state = Locked(State())

    /// Adopts an unreaped child and starts the thread that waits for it.
    ///
    /// - Parameter leadsProcessGroup: true when it was spawned as the leader of a new group or session.
    public init(pid: ProcessID, leadsProcessGroup: Bool) {
        self.pid = pid
        self.leadsProcessGroup = leadsProcessGroup
        // Unreaped, so the pid still names this child.
        terminationDescriptor = try? pid.openDescriptor()
        Thread.detachNewThread { [self] in watch() }
    }

    deinit { try? terminationDescriptor?.close() }

    /// Spawns `spawn` and adopts the child.
    /// - Throws: ``Errno`` from ``Spawn/start()``.
    public convenience init(spawning spawn: Spawn) throws(Errno) {
        let pid = try spawn.start()
        self.init(pid: pid, leadsProcessGroup: spawn.processGroup != .inherit)
    }

    private func watch() {
        // Only ECHILD can end this early (someone else reaped the child); either way it is gone.
        try? pid.waitForTermination()
        let waiters = state.withLock { state in
            state.terminated = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the child has terminated (it may not be reaped yet).
    public var hasTerminated: Bool { state.withLock { $0.terminated } }

    /// Sends `signal` to the child's process group (or to the child alone when it does not lead
    /// one). Does nothing once the child has been reaped.
    /// - Throws: ``Errno`` (`.noSuchProcess` is swallowed: the group may already be empty).
    public func send(_ signal: Signal) throws(Errno) {
        let reaped = state.withLock { $0.reaping || $0.status != nil }
        if reaped { return }
        do throws(Errno) {
            if leadsProcessGroup { try pid.sendToGroup(signal) } else { try pid.send(signal) }
        } catch  where error == .noSuchProcess {
            return
        }
    }

    /// Waits until the child terminates or `timeout` passes; returns whether it terminated.
    /// Returns early (false) when the calling task is cancelled.
    public func waitForTermination(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await terminated(cancellable: true)
                return hasTerminated
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first || hasTerminated
        }
    }

    /// Waits for the child to terminate, kills what remains of its process group, reaps it, and
    /// returns how it ended. Later calls return the same status.
    ///
    /// If the calling task is cancelled, the group is killed with `SIGKILL` and this still waits
    /// for it (briefly) so the child is never left unreaped.
    public func exitStatus() async -> TerminationStatus {
        await terminated(cancellable: true)
        if !hasTerminated {
            try? send(.kill)
            await terminated(cancellable: false)
        }
        return await reapTerminated()
    }

    /// Reaps the terminated child once (killing the group's survivors first).
    private func reapTerminated() async -> TerminationStatus {
        // The first caller reaps; later (or concurrent) callers wait for its status.
        let first = state.withLock { state in
            defer { state.reaping = true }
            return !state.reaping
        }
        if !first {
            return await withCheckedContinuation { (continuation: CheckedContinuation<TerminationStatus, Never>) in
                let status = state.withLock { state in
                    if state.status == nil { state.statusWaiters.append(continuation) }
                    return state.status
                }
                if let status { continuation.resume(returning: status) }
            }
        }
        if leadsProcessGroup { try? pid.sendToGroup(.kill) }
        let status: TerminationStatus
        do throws(Errno) {
            status = try pid.reap()
        } catch {
            // ECHILD: someone else reaped it (a waitpid(-1) elsewhere); the status is lost.
            status = .signaled(Signal(rawValue: 0), coreDumped: false)
        }
        let waiting = state.withLock { state in
            state.status = status
            defer { state.statusWaiters = [] }
            return state.statusWaiters
        }
        for waiter in waiting { waiter.resume(returning: status) }
        return status
    }

    private func terminated(cancellable: Bool) async {
        if hasTerminated { return }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let wait = {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLock { state in
                    if state.terminated || (cancellable && Task.isCancelled) { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        if cancellable {
            await withTaskCancellationHandler(operation: wait) {
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume()
            }
        } else {
            await wait()
        }
    }
}

/// How ``withChildProcess(_:teardown:isolation:_:)`` ends a child that is still running.
public struct Teardown: Hashable, Sendable {
    /// The polite signal sent first (`SIGTERM`).
    public var firstSignal: Signal
    /// How long to wait after ``firstSignal`` before `SIGKILL`.
    public var gracePeriod: Duration

    /// `SIGTERM`, then `SIGKILL` after `gracePeriod`.
    public init(firstSignal: Signal = .terminate, gracePeriod: Duration = .seconds(2)) {
        self.firstSignal = firstSignal
        self.gracePeriod = gracePeriod
    }
}

/// Spawns `spawn`, runs `body` with the child, and always tears the child down afterwards —
/// on return, on a thrown error and on cancellation: ``Teardown/firstSignal`` to the process group,
/// up to ``Teardown/gracePeriod`` for it to end, then `SIGKILL`, then reap.
///
/// A child that already ended is just reaped. Call ``ChildProcess/exitStatus()`` in `body` to wait
/// for a natural exit.
/// - Returns: what `body` returned and how the child ended.
/// - Throws: ``Errno`` from ``Spawn/start()``, or whatever `body` throws (after the teardown).
public func withChildProcess<R>(
    _ spawn: Spawn, teardown: Teardown = Teardown(), isolation: isolated (any Actor)? = #isolation,
    _ body: (ChildProcess) async throws -> R
) async throws -> (value: R, status: TerminationStatus) {
    let child = try ChildProcess(spawning: spawn)
    return try await withChildProcess(adopting: child, teardown: teardown, body)
}

/// Runs `body` with a child spawned earlier, and always tears it down afterwards, as
/// ``withChildProcess(_:teardown:isolation:_:)`` does.
/// - Returns: what `body` returned and how the child ended.
/// - Throws: whatever `body` throws (after the teardown).
public func withChildProcess<R>(
    adopting child: ChildProcess, teardown: Teardown = Teardown(), isolation: isolated (any Actor)? = #isolation,
    _ body: (ChildProcess) async throws -> R
) async throws -> (value: R, status: TerminationStatus) {
    let value: R
    do {
        value = try await body(child)
    } catch {
        _ = await tearDown(child, teardown)
        throw error
    }
    return (value, await tearDown(child, teardown))
}

/// SIGTERM → grace → SIGKILL → reap, each step skipped once the child has terminated.
private func tearDown(_ child: ChildProcess, _ teardown: Teardown) async -> TerminationStatus {
    if !child.hasTerminated {
        try? child.send(teardown.firstSignal)
        // A cancelled caller gets no grace period: the wait returns at once.
        if await !child.waitForTermination(timeout: teardown.gracePeriod) {
            try? child.send(.kill)
        }
    }
    return await child.exitStatus()
}
