#if canImport(Glibc)
import Glibc
#endif

/// A signal number, in Swift names.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw signal number.
    public let rawValue: CInt

    /// Wraps a raw signal number.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// `SIGHUP`.
    public static var hangup: Signal { Signal(rawValue: SIGHUP) }
    /// `SIGINT`.
    public static var interrupt: Signal { Signal(rawValue: SIGINT) }
    /// `SIGQUIT`.
    public static var quit: Signal { Signal(rawValue: SIGQUIT) }
    /// `SIGILL`.
    public static var illegalInstruction: Signal { Signal(rawValue: SIGILL) }
    /// `SIGTRAP` (what a Swift runtime trap raises).
    public static var trap: Signal { Signal(rawValue: SIGTRAP) }
    /// `SIGABRT`.
    public static var abort: Signal { Signal(rawValue: SIGABRT) }
    /// `SIGBUS`.
    public static var busError: Signal { Signal(rawValue: SIGBUS) }
    /// `SIGKILL`: cannot be caught or ignored.
    public static var kill: Signal { Signal(rawValue: SIGKILL) }
    /// `SIGSEGV`.
    public static var segmentationFault: Signal { Signal(rawValue: SIGSEGV) }
    /// `SIGPIPE`.
    public static var brokenPipe: Signal { Signal(rawValue: SIGPIPE) }
    /// `SIGALRM`.
    public static var alarm: Signal { Signal(rawValue: SIGALRM) }
    /// `SIGTERM`: the polite request to end.
    public static var terminate: Signal { Signal(rawValue: SIGTERM) }
    /// `SIGXCPU`: the CPU-time limit (`RLIMIT_CPU`) was reached.
    public static var cpuLimitExceeded: Signal { Signal(rawValue: SIGXCPU) }

    /// The C name (`SIGTERM`), or `signal N` for numbers without one here.
    public var description: String {
        let names: [CInt: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGCHLD: "SIGCHLD", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[rawValue] ?? "signal \(rawValue)"
    }
}
