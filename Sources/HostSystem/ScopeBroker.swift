import CSandbox
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Enforces security scopes in the kernel: the confined program's `open`, `stat`, `access` and
/// `readlink` calls arrive here (a seccomp user-notification listener the launcher installed before
/// exec), and a call on a security-scoped original is answered only while its scope is started.
///
/// - An open of the scoped path itself, while its scope is started, is performed by the broker
///   (`O_NOFOLLOW`, the file checked to be the registered one by device and inode) and the
///   descriptor is installed in the program as the call's result: Landlock alone could not widen
///   the program's access at run time. Reads and writes go to the original.
/// - The scoped path while the scope is not started, or the scoped file reached by any other path
///   (a symbolic or hard link, `..`, `/proc/self/fd/N`): `EPERM` ("Operation not permitted"), what
///   a device reports.
/// - Every other call continues in the kernel, where Landlock decides.
///
/// - Important: the broker decides on its own copy of the path (read from the program's memory)
///   and opens it itself, so a program that swaps the string or the file between the check and the
///   open gets the registered file or nothing.
public final class ScopeBroker: Sendable {
    /// Whether a scope is started, asked per call (the host's token table answers).
    public typealias AccessCheck = @Sendable (_ token: String) -> Bool

    private struct Entry: Sendable {
        var token: String
        var device: UInt64
        var inode: UInt64
    }

    private struct ReadOnlyDirectory: Sendable {
        var path: String
        var reason: String
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var readOnly: [ReadOnlyDirectory] = []
        var refusals: [String] = []
        var stopped = false
        var calls = 0
    }

    private let listener: FileDescriptor
    private let state = Locked(State())
    private let isAccessible: AccessCheck
    private let lenient: Bool
    private let done = DispatchSemaphore(value: 0)
    /// Ends the serving thread's wait at ``stop()``; nil only when no descriptor was left to make
    /// one, and the wait then rechecks every 50 ms instead.
    private let wake = try? WakeSignal()

    /// A broker answering `listener`; `isAccessible` says whether a token's scope is started;
    /// `lenient` lets scoped files be opened without a started scope (the simulator).
    public init(listener: FileDescriptor, lenient: Bool, isAccessible: @escaping AccessCheck) {
        self.listener = listener
        self.lenient = lenient
        self.isAccessible = isAccessible
    }

    /// Registers `path` (an original the program may open while `token`'s scope is started).
    /// - Throws: ``Errno`` when the file cannot be examined.
    public func register(path: String, token: String) throws(Errno) {
        var info = stat()
        guard system_stat(path, &info) == 0 else { throw Errno.current }
        let normalized = Self.normalized(path) ?? path
        state.withLock {
            $0.entries[normalized] = Entry(token: token, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// Keeps the directory `path` (whether or not it exists yet) read-only but for removing its
    /// files: an open for writing, creating or truncating of a file in it, `truncate`, `mkdir`,
    /// `link` or `symlink` in it, renaming anything into it, and `rmdir` or renaming of the
    /// directory itself fail with `EPERM` (compared by device and inode, so a link or `..` reaches
    /// it too), each refusal reported with `reason`. Reading, removing a file and moving a file out
    /// continue in the kernel. The app's `Documents/Inbox` is kept so.
    public func protectReadOnly(directory path: String, reason: String) {
        state.withLock { $0.readOnly.append(ReadOnlyDirectory(path: path, reason: reason)) }
    }

    /// What the broker refused, in order (for the report).
    public var refusals: [String] { state.withLock { $0.refusals } }
    /// How many calls it was asked about.
    public var callsAnswered: Int { state.withLock { $0.calls } }

    /// Starts answering on a thread of its own; returns at once.
    public func start() {
        Thread.detachNewThread { [self] in
            serve()
            done.signal()
        }
    }

    /// Stops answering (the program has ended), waits for the thread, closes the listener.
    public func stop() {
        state.withLock { $0.stopped = true }
        wake?.signal()
        done.wait()
        try? listener.close()
    }

    // MARK: - Serving

    private func serve() {
        var event = eh_scope_event()
        while !state.withLock({ $0.stopped }) {
            let received = system_eh_scope_receive(
                listener.rawValue, wake?.descriptor.rawValue ?? -1, &event, wake == nil ? 50 : -1)
            if received == 0 { continue }
            if received < 0 {
                if errno == EINTR { continue }
                return  // every process of the filter has ended, or the listener closed
            }
            state.withLock { $0.calls += 1 }
            answer(event)
        }
    }

    private enum Decision {
        case proceed
        case refuse(CInt, String)
        case open(String, CInt)
    }

    private func answer(_ event: eh_scope_event) {
        let decision = decide(event)
        let fd = listener.rawValue
        switch decision {
        case .proceed:
            _ = system_eh_scope_continue(fd, event.id)
        case .refuse(let error, let why):
            state.withLock { $0.refusals.append(why) }
            _ = system_eh_scope_fail(fd, event.id, error)
        case .open(let path, let flags):
            // The kernel cannot install an O_PATH descriptor in another process (ADDFD refuses it):
            // such a request gets a read-only one, which the started scope allows anyway.
            var openFlags = (flags & ~(O_CREAT | O_EXCL)) | O_NOFOLLOW | O_CLOEXEC
            if openFlags & Self.pathOnly != 0 { openFlags = (openFlags & ~Self.pathOnly & ~O_ACCMODE) | O_RDONLY }
            let opened = system_openat(AT_FDCWD, path, openFlags, 0)
            guard opened >= 0 else {
                _ = system_eh_scope_fail(fd, event.id, errno)
                return
            }
            defer { _ = system_close(opened) }
            var info = stat()
            let expected = state.withLock { $0.entries[path] }
            guard system_fstat(opened, &info) == 0, let expected, UInt64(info.st_dev) == expected.device,
                UInt64(info.st_ino) == expected.inode
            else {
                state.withLock { $0.refusals.append("\(path) was replaced after its scope was granted") }
                _ = system_eh_scope_fail(fd, event.id, EPERM)
                return
            }
            guard system_eh_scope_is_valid(fd, event.id) == 1 else { return }
            if system_eh_scope_inject(fd, event.id, opened, (flags & O_CLOEXEC) != 0 ? 1 : 0) < 0 {
                _ = system_eh_scope_fail(fd, event.id, errno)
            }
        }
    }

    private func decide(_ event: eh_scope_event) -> Decision {
        let kind = system_eh_scope_call_kind(event.syscall)
        guard kind != EH_SCOPE_CALL_OTHER, state.withLock({ !$0.entries.isEmpty || !$0.readOnly.isEmpty }) else {
            return .proceed
        }
        let pid = pid_t(event.pid)
        let arguments = [event.args.0, event.args.1, event.args.2, event.args.3, event.args.4, event.args.5]
        let atCurrentDirectory = UInt64(bitPattern: Int64(AT_FDCWD))
        if let change = Self.directoryChange(kind, arguments, at: atCurrentDirectory) {
            return decide(change, pid: pid)
        }
        var directory = atCurrentDirectory
        var pathAddress = arguments[0]
        var flags: CInt = O_RDONLY
        var opens = false
        switch kind {
        case EH_SCOPE_CALL_OPEN:
            flags = CInt(truncatingIfNeeded: arguments[1])
            opens = true
        case EH_SCOPE_CALL_CREAT:
            flags = O_CREAT | O_WRONLY | O_TRUNC
            opens = true
        case EH_SCOPE_CALL_OPENAT:
            (directory, pathAddress, flags, opens) = (
                arguments[0], arguments[1], CInt(truncatingIfNeeded: arguments[2]), true
            )
        case EH_SCOPE_CALL_OPENAT2:
            (directory, pathAddress, opens) = (arguments[0], arguments[1], true)
            var how: UInt64 = 0
            guard system_eh_read_process_memory(pid, arguments[2], &how, 8) == 8 else { return .proceed }
            flags = CInt(truncatingIfNeeded: how)
        case EH_SCOPE_CALL_FSTATAT, EH_SCOPE_CALL_STATX, EH_SCOPE_CALL_FACCESSAT, EH_SCOPE_CALL_READLINKAT:
            (directory, pathAddress) = (arguments[0], arguments[1])
        default:
            break
        }
        guard let path = Self.readString(pid: pid, address: pathAddress), !path.isEmpty else { return .proceed }
        let absolute: String
        if path.hasPrefix("/") {
            absolute = path
        } else {
            let base =
                directory == atCurrentDirectory
                ? "/proc/\(pid)/cwd" : "/proc/\(pid)/fd/\(CInt(truncatingIfNeeded: directory))"
            guard let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: base) else {
                return .proceed
            }
            absolute = resolved + "/" + path
        }
        // /proc/self means the program, not the broker.
        let seen = Self.programsView(absolute, pid: pid)
        if opens && (flags & O_ACCMODE != O_RDONLY || flags & (O_CREAT | O_TRUNC) != 0)
            || kind == EH_SCOPE_CALL_TRUNCATE,
            let reason = readOnlyReason(parentOf: seen)
        {
            return .refuse(EPERM, "\(Self.callName(kind)) \(path) for writing: \(reason)")
        }
        let entries = state.withLock { $0.entries }
        if let normalized = Self.normalized(seen), let entry = entries[normalized] {
            guard lenient || isAccessible(entry.token) else {
                return .refuse(
                    EPERM, "\(Self.callName(kind)) \(normalized) without startAccessingSecurityScopedResource()")
            }
            return opens ? .open(normalized, flags) : .proceed
        }
        // The scoped file by another path (a link, `..`, a descriptor's magic link): refused.
        var info = stat()
        if system_stat(seen, &info) == 0,
            let entry = entries.first(where: {
                $0.value.device == UInt64(info.st_dev) && $0.value.inode == UInt64(info.st_ino)
            })
        {
            return .refuse(EPERM, "\(Self.callName(kind)) \(path): reaches \(entry.key) by another path")
        }
        return .proceed
    }

    /// A call that changes a directory's entries: the path it removes or renames away (`source`),
    /// the path it makes (`target`), each with its directory descriptor.
    private struct DirectoryChange {
        var name: String
        var source: (directory: UInt64, address: UInt64)?
        var target: (directory: UInt64, address: UInt64)?
    }

    /// The paths of `kind` when it changes a directory's entries; nil for any other call.
    private static func directoryChange(_ kind: eh_scope_call, _ a: [UInt64], at cwd: UInt64) -> DirectoryChange? {
        switch kind {
        case EH_SCOPE_CALL_MKDIR: DirectoryChange(name: "mkdir", source: nil, target: (cwd, a[0]))
        case EH_SCOPE_CALL_MKDIRAT: DirectoryChange(name: "mkdir", source: nil, target: (a[0], a[1]))
        case EH_SCOPE_CALL_RMDIR: DirectoryChange(name: "rmdir", source: (cwd, a[0]), target: nil)
        case EH_SCOPE_CALL_UNLINKAT:
            // Only AT_REMOVEDIR (0x200) removes a directory; removing files is allowed.
            a[2] & 0x200 != 0 ? DirectoryChange(name: "rmdir", source: (a[0], a[1]), target: nil) : nil
        case EH_SCOPE_CALL_RENAME: DirectoryChange(name: "rename", source: (cwd, a[0]), target: (cwd, a[1]))
        case EH_SCOPE_CALL_RENAMEAT: DirectoryChange(name: "rename", source: (a[0], a[1]), target: (a[2], a[3]))
        case EH_SCOPE_CALL_LINK: DirectoryChange(name: "link", source: nil, target: (cwd, a[1]))
        case EH_SCOPE_CALL_LINKAT: DirectoryChange(name: "link", source: nil, target: (a[2], a[3]))
        case EH_SCOPE_CALL_SYMLINK: DirectoryChange(name: "symlink", source: nil, target: (cwd, a[1]))
        case EH_SCOPE_CALL_SYMLINKAT: DirectoryChange(name: "symlink", source: nil, target: (a[1], a[2]))
        default: nil
        }
    }

    /// A directory change is refused when it would remove or move a read-only directory, or make an
    /// entry inside one (moving a file out of one is allowed: that is what the app should do).
    private func decide(_ change: DirectoryChange, pid: pid_t) -> Decision {
        guard state.withLock({ !$0.readOnly.isEmpty }) else { return .proceed }
        if let (directory, address) = change.source,
            let path = Self.path(pid: pid, directory: directory, address: address),
            let reason = readOnlyReason(of: path)
        {
            return .refuse(EPERM, "\(change.name) \(path): \(reason)")
        }
        if let (directory, address) = change.target,
            let path = Self.path(pid: pid, directory: directory, address: address),
            let reason = readOnlyReason(parentOf: path) ?? readOnlyReason(of: path)
        {
            return .refuse(EPERM, "\(change.name) \(path): \(reason)")
        }
        return .proceed
    }

    /// The absolute path (as the program sees it) of the string at `address` in `pid`, relative to
    /// its descriptor `directory` or its working directory; nil when it cannot be read.
    private static func path(pid: pid_t, directory: UInt64, address: UInt64) -> String? {
        guard let path = readString(pid: pid, address: address), !path.isEmpty else { return nil }
        if path.hasPrefix("/") { return programsView(path, pid: pid) }
        let base =
            directory == UInt64(bitPattern: Int64(AT_FDCWD))
            ? "/proc/\(pid)/cwd" : "/proc/\(pid)/fd/\(CInt(truncatingIfNeeded: directory))"
        guard let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: base) else { return nil }
        return resolved + "/" + path
    }

    /// The reason of the read-only directory `path` itself is (its last component not followed).
    private func readOnlyReason(of path: String) -> String? {
        var info = stat()
        guard system_lstat(path, &info) == 0 else { return nil }
        return readOnlyReason(matching: info)
    }

    /// The reason of the read-only directory `path`'s parent is (compared by device and inode), or
    /// nil when it is none.
    private func readOnlyReason(parentOf path: String) -> String? {
        var parent = stat()
        guard system_stat((path as NSString).deletingLastPathComponent, &parent) == 0 else { return nil }
        return readOnlyReason(matching: parent)
    }

    /// The reason of the read-only directory that is the file `info` describes (device and inode).
    private func readOnlyReason(matching file: stat) -> String? {
        for directory in state.withLock({ $0.readOnly }) {
            var info = stat()
            if system_stat(directory.path, &info) == 0, info.st_dev == file.st_dev, info.st_ino == file.st_ino {
                return directory.reason
            }
        }
        return nil
    }

    /// `O_PATH` (hidden from the Glibc module).
    static let pathOnly: CInt = 0o10000000

    // MARK: - Paths

    /// `path` with `.` and empty components removed; nil when it has a `..` component (such a path
    /// never names a scoped file: only the path the item provider handed out does).
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return nil }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` as the program sees it: its `/proc/self` and `/proc/thread-self` are its own.
    static func programsView(_ path: String, pid: pid_t) -> String {
        if path.hasPrefix("/proc/self/") || path == "/proc/self" {
            return "/proc/\(pid)" + path.dropFirst("/proc/self".count)
        }
        if path.hasPrefix("/proc/thread-self") {
            return "/proc/\(pid)/task/\(pid)" + path.dropFirst("/proc/thread-self".count)
        }
        return path
    }

    /// The NUL-terminated string at `address` in `pid`, read page by page (at most 4 KiB).
    static func readString(pid: pid_t, address: UInt64) -> String? {
        var bytes: [UInt8] = []
        var next = address
        while bytes.count < 4096 {
            let toPageEnd = Int(4096 - (next % 4096))
            var chunk = [UInt8](repeating: 0, count: toPageEnd)
            let read = chunk.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return system_eh_read_process_memory(pid, next, base, toPageEnd)
            }
            guard read > 0 else { return nil }
            if let end = chunk[0..<read].firstIndex(of: 0) {
                bytes += chunk[0..<end]
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes += chunk[0..<read]
            next += UInt64(read)
        }
        return nil
    }

    static func callName(_ kind: eh_scope_call) -> String {
        switch kind {
        case EH_SCOPE_CALL_OPEN, EH_SCOPE_CALL_OPENAT, EH_SCOPE_CALL_OPENAT2, EH_SCOPE_CALL_CREAT: "open"
        case EH_SCOPE_CALL_STAT, EH_SCOPE_CALL_FSTATAT, EH_SCOPE_CALL_STATX: "stat"
        case EH_SCOPE_CALL_ACCESS, EH_SCOPE_CALL_FACCESSAT: "access"
        case EH_SCOPE_CALL_READLINK, EH_SCOPE_CALL_READLINKAT: "readlink"
        case EH_SCOPE_CALL_TRUNCATE: "truncate"
        case EH_SCOPE_CALL_MKDIR, EH_SCOPE_CALL_MKDIRAT: "mkdir"
        case EH_SCOPE_CALL_RMDIR, EH_SCOPE_CALL_UNLINKAT: "rmdir"
        case EH_SCOPE_CALL_RENAME, EH_SCOPE_CALL_RENAMEAT: "rename"
        case EH_SCOPE_CALL_LINK, EH_SCOPE_CALL_LINKAT: "link"
        case EH_SCOPE_CALL_SYMLINK, EH_SCOPE_CALL_SYMLINKAT: "symlink"
        default: "call"
        }
    }
}
