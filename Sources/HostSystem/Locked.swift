import Glibc

/// A value behind a `pthread_mutex_t`, with `Mutex`'s `withLock` shape.
///
/// Used where many threads contend: on Linux, `Synchronization.Mutex` takes a contended lock in
/// the standard library's futex slow path, which ThreadSanitizer does not see (the library is not
/// instrumented), so `Scripts/tsan` reported races on state that `Mutex` does protect. A pthread
/// mutex is intercepted by ThreadSanitizer, so a report under this lock is a real one.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `value`.
    public init(_ value: consuming sending Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
