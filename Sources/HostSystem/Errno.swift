#if canImport(Glibc)
import Glibc
#endif

/// An error number reported by the kernel, typed at the call site.
///
/// The Swift names follow swift-system; the C name is in each doc comment.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw C `errno` value.
    public var rawValue: CInt

    /// Wraps a raw `errno` value.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The C library's message for this number (`strerror`, e.g. `No such file or directory`), or
    /// `errno N` when it has none; the C name (`ENOENT`) is not part of it.
    public var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: text)
    }

    /// `EPERM`.
    public static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// `ENOENT`.
    public static var noSuchFileOrDirectory: Errno { Errno(rawValue: ENOENT) }
    /// `EINTR`.
    public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// `EIO`.
    public static var ioError: Errno { Errno(rawValue: EIO) }
    /// `EBADF`.
    public static var badFileDescriptor: Errno { Errno(rawValue: EBADF) }
    /// `EAGAIN` / `EWOULDBLOCK`.
    public static var wouldBlock: Errno { Errno(rawValue: EAGAIN) }
    /// `ENOMEM`.
    public static var noMemory: Errno { Errno(rawValue: ENOMEM) }
    /// `EACCES`.
    public static var permissionDenied: Errno { Errno(rawValue: EACCES) }
    /// `EEXIST`.
    public static var fileExists: Errno { Errno(rawValue: EEXIST) }
    /// `EXDEV`.
    public static var crossDevice: Errno { Errno(rawValue: EXDEV) }
    /// `ENOTDIR`.
    public static var notDirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// `EISDIR`.
    public static var isDirectory: Errno { Errno(rawValue: EISDIR) }
    /// `EINVAL`.
    public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// `EMFILE`.
    public static var tooManyOpenFiles: Errno { Errno(rawValue: EMFILE) }
    /// `ENOSPC`.
    public static var noSpace: Errno { Errno(rawValue: ENOSPC) }
    /// `EPIPE`.
    public static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
    /// `ELOOP` (also what `O_NOFOLLOW` reports for a symbolic link).
    public static var tooManySymbolicLinks: Errno { Errno(rawValue: ELOOP) }
    /// `ENAMETOOLONG`.
    public static var nameTooLong: Errno { Errno(rawValue: ENAMETOOLONG) }
    /// `ENOTEMPTY`.
    public static var directoryNotEmpty: Errno { Errno(rawValue: ENOTEMPTY) }
    /// `ENOSYS`.
    public static var notImplemented: Errno { Errno(rawValue: ENOSYS) }
    /// `EOPNOTSUPP`.
    public static var notSupported: Errno { Errno(rawValue: EOPNOTSUPP) }
    /// `ECHILD`.
    public static var noChildProcess: Errno { Errno(rawValue: ECHILD) }
    /// `ESRCH`.
    public static var noSuchProcess: Errno { Errno(rawValue: ESRCH) }
    /// `ETIMEDOUT`.
    public static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }
    /// `ECONNRESET`.
    public static var connectionReset: Errno { Errno(rawValue: ECONNRESET) }
}
