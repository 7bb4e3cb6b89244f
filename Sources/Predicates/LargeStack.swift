import Foundation

/// Runs deep recursive work (parsing, evaluating or printing very nested predicates) on a thread
/// with a large stack, so that the 1 000-deep predicates Apple accepts never overflow a small
/// caller stack (Swift concurrency threads have far less than 8 MiB, and debug frames are big).
enum LargeStack {
    /// The stack size of the helper thread: 512 MiB of address space, committed only as used.
    static let size = 512 << 20

    /// Runs `body` on a fresh thread with ``size`` bytes of stack and waits for it.
    ///
    /// The helper drops `body` (and everything it captured) before signalling, so no value the
    /// caller passed in is still being released on the helper when this returns.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = WorkBox<T>(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.run()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        guard let value = box.take() else {
            // `run()` always stores a value before the semaphore is signalled.
            preconditionFailure("LargeStack thread finished without a result")  // programmer error
        }
        return value
    }
}

/// Carries the work to the helper thread and the result back.
private final class WorkBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: `work` and `value` are touched by the helper thread before `signal()` and by
    // the caller only after `wait()`; the semaphore orders the accesses.
    private var work: (@Sendable () -> T)?
    private var value: T?

    init(_ work: @escaping @Sendable () -> T) { self.work = work }

    func run() {
        value = work?()
        work = nil
    }

    func take() -> T? {
        defer { value = nil }
        return value
    }
}
