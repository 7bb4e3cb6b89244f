/// How a child process ended, decoded by hand from a `waitpid` status word
/// (`WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` are macros Swift does not import).
public enum TerminationStatus: Hashable, Sendable, CustomStringConvertible {
    /// It called `exit` (or returned from `main`) with this status.
    case exited(CInt)
    /// A signal ended it.
    case signaled(Signal, coreDumped: Bool)

    /// Decodes a raw `waitpid` status (Linux layout: low 7 bits are the terminating signal,
    /// 0x80 the core-dump flag, bits 8–15 the exit status).
    public init(waitStatus status: CInt) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(Signal(rawValue: signal), coreDumped: status & 0x80 != 0)
        }
    }

    /// True for `exit(0)`.
    public var isSuccess: Bool { self == .exited(0) }

    /// The status a shell would report: the exit status, or 128 + the signal number.
    public var shellStatus: CInt {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal, _): return 128 + signal.rawValue
        }
    }

    /// `exited 0`, `killed by SIGKILL` or `killed by SIGSEGV (core dumped)`.
    public var description: String {
        switch self {
        case .exited(let code): return "exited \(code)"
        case .signaled(let signal, let core): return "killed by \(signal)\(core ? " (core dumped)" : "")"
        }
    }
}
