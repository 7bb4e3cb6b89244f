#if canImport(Glibc)
import Glibc
#endif

/// A process identifier (`pid_t`).
///
/// A plain value: it does not keep the process alive or reserve the number. Only the parent that
/// has not yet reaped a child may rely on the number still naming that child.
public struct ProcessID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw `pid_t`.
    public let rawValue: CInt

    /// Wraps a raw `pid_t`.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// The calling process.
    ///
    /// The corresponding C function is `getpid`.
    public static var current: ProcessID { ProcessID(rawValue: system_getpid()) }

    /// The decimal number.
    public var description: String { String(rawValue) }

    /// Sends `signal` to this process.
    ///
    /// The corresponding C function is `kill`.
    /// - Throws: ``Errno`` (`.noSuchProcess` once it has been reaped, `.notPermitted`).
    public func send(_ signal: Signal) throws(Errno) {
        try nothingOrErrno { system_kill(rawValue, signal.rawValue) }.get()
    }

    /// Sends `signal` to every process in the process group this process leads
    /// (`kill(-pid, signal)`), which includes the children and grandchildren that stayed in it.
    ///
    /// The corresponding C function is `kill`.
    /// - Throws: ``Errno`` (`.noSuchProcess` when the group is empty).
    public func sendToGroup(_ signal: Signal) throws(Errno) {
        try nothingOrErrno { system_kill(-rawValue, signal.rawValue) }.get()
    }

    /// The process group this process belongs to.
    ///
    /// The corresponding C function is `getpgid`.
    /// - Throws: ``Errno``.
    public func processGroup() throws(Errno) -> ProcessID {
        ProcessID(rawValue: try valueOrErrno { system_getpgid(rawValue) }.get())
    }

    /// Blocks the calling thread until this child terminates, reaps it and returns how it ended.
    ///
    /// Do not call from a Swift concurrency task (it blocks a cooperative thread); use
    /// ``ChildProcess/exitStatus()`` there.
    /// The corresponding C function is `waitpid`.
    /// - Throws: ``Errno`` (`.noChildProcess`).
    public func reap() throws(Errno) -> TerminationStatus {
        var status: CInt = 0
        _ = try valueOrErrno { system_waitpid(rawValue, &status, 0) }.get()
        return TerminationStatus(waitStatus: status)
    }

    /// Blocks until this child has terminated but leaves it unreaped (a zombie), so its pid and
    /// process-group id stay reserved until ``reap()``.
    ///
    /// The corresponding C function is `waitid(P_PID, pid, WEXITED | WNOWAIT)`.
    /// - Throws: ``Errno`` (`.noChildProcess`).
    public func waitForTermination() throws(Errno) {
        try nothingOrErrno { system_eh_wait_exited_keeping_zombie(rawValue) }.get()
    }

    /// A descriptor for this process that polls readable once it has terminated (a pidfd), so a
    /// wait for its end can sit in one `poll` beside other descriptors. Close-on-exec.
    ///
    /// The corresponding C function is `pidfd_open`.
    /// - Throws: ``Errno`` (`.noSuchProcess`; `ENOSYS` on a kernel older than 5.3).
    public func openDescriptor() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { system_eh_pidfd_open(rawValue) }.get())
    }
}
