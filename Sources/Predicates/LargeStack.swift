import Foundation

/// Runs deep recursive work (parsing, evaluating or printing very nested predicates) on a thread
/// with a large stack, so that the 1 000-deep predicates Apple accepts never overflow a small
/// caller stack (Swift concurrency threads have far less than 8 MiB, and debug frames are big).
enum LargeStack {
    /// The stack size of the helper thread: 512 MiB of address space, committed only as used.
    static let size = 512 << 20

    /// Runs `body` on a fresh thread with ``size`` bytes of stack and waits for it.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = body()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        // Take the value out: Foundation's `Thread` may outlive this call and keep the box.
        let taken = box.value
        box.value = nil
        guard let value = taken else {
            // The thread always stores a value before signalling.
            preconditionFailure("LargeStack thread finished without a result")  // programmer error
        }
        return value
    }
}

/// Hands a value from the helper thread back to the waiting caller.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: written once by the helper thread before `signal()`, read after `wait()`;
    // the semaphore orders the two accesses.
    var value: T?
}
