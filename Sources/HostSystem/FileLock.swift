#if canImport(Glibc)
import Glibc
#endif

/// The kind of advisory lock ``FileDescriptor/lock(_:wait:)`` takes.
public enum FileLockKind: Sendable, Hashable {
    /// Many holders at once (`LOCK_SH`): readers.
    case shared
    /// One holder (`LOCK_EX`): a writer.
    case exclusive
}

extension FileDescriptor {
    /// Takes a whole-file advisory lock on this open file description.
    ///
    /// `flock` locks belong to the open file description, so two `open`s of the same file in one
    /// process exclude each other like two processes do, and the kernel drops the lock when the
    /// last descriptor of the description closes (including when the process is killed).
    /// The corresponding C function is `flock`.
    /// - Parameters:
    ///   - kind: shared or exclusive.
    ///   - wait: block until granted; when false, return false at once if another holder conflicts.
    /// - Returns: whether the lock is now held.
    /// - Throws: ``Errno``.
    @discardableResult
    public func lock(_ kind: FileLockKind, wait: Bool = true) throws(Errno) -> Bool {
        var operation: CInt = kind == .shared ? LOCK_SH : LOCK_EX
        if !wait { operation |= LOCK_NB }
        switch nothingOrErrno(retryOnInterrupt: true, { system_flock(rawValue, operation) }) {
        case .success: return true
        case .failure(let error) where error == .wouldBlock && !wait: return false
        case .failure(let error): throw error
        }
    }

    /// Releases the lock taken with ``lock(_:wait:)``.
    ///
    /// The corresponding C function is `flock(LOCK_UN)`.
    /// - Throws: ``Errno``.
    public func unlock() throws(Errno) {
        try nothingOrErrno { system_flock(rawValue, LOCK_UN) }.get()
    }
}
