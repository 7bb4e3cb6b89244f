import Foundation

/// Reads a descriptor to end of file on a background thread, keeping at most a given number of
/// bytes (the rest is drained and counted, so the writer never blocks), then closes it.
///
/// Made for a child's standard output and error: give the child the pipe's write end, close
/// yours, and `await output()` after the child ends.
public final class OutputCapture: Sendable {
    private struct State {
        var result: Result<CapturedOutput, Errno>?
        var waiters: [CheckedContinuation<Result<CapturedOutput, Errno>, Never>] = []
    }
    private let state = Locked(State())

    /// Starts reading `descriptor` (which this capture now owns and closes).
    public init(reading descriptor: FileDescriptor, keepingAtMost limit: Int) {
        Thread.detachNewThread { [self] in
            let result: Result<CapturedOutput, Errno>
            do throws(Errno) {
                result = .success(try descriptor.readAll(keepingAtMost: limit))
            } catch {
                result = .failure(error)
            }
            try? descriptor.close()
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }
    }

    /// Waits for end of file (every writer closed) and returns what was kept.
    /// - Throws: ``Errno`` from `read`.
    public func output() async throws(Errno) -> CapturedOutput {
        let result = await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<CapturedOutput, Errno>? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }
}
