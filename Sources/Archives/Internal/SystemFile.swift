// The only file of the Archives module that imports Glibc: every syscall the
// module makes (opening, creating, linking, stat-ing, renaming, removing) goes through here,
// relative to a directory descriptor and without following symbolic links unless stated.
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Errors

/// A failed system call: the C function's name and the `errno` it left.
struct SystemCallFailure: Error, Sendable, CustomStringConvertible {
    /// The C function that failed, such as `openat`.
    let function: String
    /// The raw `errno` value.
    let errno: CInt

    var description: String {
        guard let text = strerror(errno) else { return "\(function): errno \(errno)" }
        return "\(function): \(String(cString: text)) (errno \(errno))"
    }

    /// `EEXIST`.
    var isAlreadyExists: Bool { errno == EEXIST }
    /// `ENOTEMPTY` or `EEXIST`: a rename target is occupied.
    var isNotEmptyOrExists: Bool { errno == ENOTEMPTY || errno == EEXIST }
    /// `ENOENT`.
    var isNotFound: Bool { errno == ENOENT }
    /// `ELOOP` or `ENOTDIR`: a component was a symbolic link or not a directory.
    var isNotTraversable: Bool { errno == ELOOP || errno == ENOTDIR }
}

/// Runs `call` until it does not fail with `EINTR`; a `-1` result becomes a ``SystemCallFailure``.
/// Returns a `Result` so it can run inside `withCString`, which is not typed-throws.
private func retrying<T: FixedWidthInteger>(
    _ function: String, _ call: () -> T
) -> Result<T, SystemCallFailure> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let saved = errno
        if saved != EINTR { return .failure(SystemCallFailure(function: function, errno: saved)) }
    }
}

// MARK: - File metadata

/// The type of a file, from the `S_IFMT` bits of its mode.
enum FileKind: Sendable, Equatable {
    case regular, directory, symbolicLink, characterDevice, blockDevice, fifo, socket, unknown

    /// Classifies the `S_IFMT` bits of `mode`.
    init(mode: UInt32) {
        switch mode & UInt32(Glibc.S_IFMT) {
        case UInt32(Glibc.S_IFREG): self = .regular
        case UInt32(Glibc.S_IFDIR): self = .directory
        case UInt32(Glibc.S_IFLNK): self = .symbolicLink
        case UInt32(Glibc.S_IFCHR): self = .characterDevice
        case UInt32(Glibc.S_IFBLK): self = .blockDevice
        case UInt32(Glibc.S_IFIFO): self = .fifo
        case UInt32(Glibc.S_IFSOCK): self = .socket
        default: self = .unknown
        }
    }

    /// The `S_IFMT` bits for this kind (0 for ``unknown``), as libarchive's `AE_IF*` expect.
    var typeBits: UInt32 {
        switch self {
        case .regular: UInt32(Glibc.S_IFREG)
        case .directory: UInt32(Glibc.S_IFDIR)
        case .symbolicLink: UInt32(Glibc.S_IFLNK)
        case .characterDevice: UInt32(Glibc.S_IFCHR)
        case .blockDevice: UInt32(Glibc.S_IFBLK)
        case .fifo: UInt32(Glibc.S_IFIFO)
        case .socket: UInt32(Glibc.S_IFSOCK)
        case .unknown: 0
        }
    }
}

/// What `fstat`/`fstatat` reported, reduced to what an archive records.
struct FileInfo: Sendable {
    var kind: FileKind
    /// Permission bits (`mode & 0o7777`).
    var permissions: UInt32
    var size: Int64
    /// Seconds since the epoch.
    var modificationTime: Int64

    init(_ status: stat) {
        kind = FileKind(mode: UInt32(status.st_mode))
        permissions = UInt32(status.st_mode) & 0o7777
        size = Int64(status.st_size)
        modificationTime = Int64(status.st_mtim.tv_sec)
    }
}

// MARK: - Descriptors

/// An open descriptor owned by the Archives module (always `O_CLOEXEC`); closed explicitly.
struct SystemFile {
    let rawValue: CInt

    /// How ``open(_:relativeTo:_:)`` opens a file.
    enum Mode {
        /// `O_RDONLY`, following a final symbolic link (the caller named this file).
        case read
        /// `O_RDONLY | O_NOFOLLOW`: refuses a symbolic link as the last component.
        case readNoFollow
        /// `O_RDONLY | O_DIRECTORY`, following a final symbolic link.
        case directory
        /// `O_RDONLY | O_DIRECTORY | O_NOFOLLOW`.
        case directoryNoFollow
        /// `O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW`, permissions 0600.
        case createExclusive

        var flags: CInt {
            switch self {
            case .read: O_RDONLY
            case .readNoFollow: O_RDONLY | O_NOFOLLOW
            case .directory: O_RDONLY | O_DIRECTORY
            case .directoryNoFollow: O_RDONLY | O_DIRECTORY | O_NOFOLLOW
            case .createExclusive: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
            }
        }
    }

    /// Opens `path` relative to `directory` (the working directory when nil). The C function is `openat`.
    static func open(
        _ path: String, relativeTo directory: SystemFile? = nil, _ mode: Mode
    ) throws(SystemCallFailure) -> SystemFile {
        let dirfd = directory?.rawValue ?? AT_FDCWD
        let result = path.withCString { cPath in
            retrying("openat") { Glibc.openat(dirfd, cPath, mode.flags | O_CLOEXEC, mode_t(0o600)) }
        }
        return SystemFile(rawValue: try result.get())
    }

    /// Closes the descriptor; errors are ignored (the descriptor is gone either way on Linux).
    func close() { _ = Glibc.close(rawValue) }

    /// Reads up to `buffer.count` bytes; 0 at end of file. The C function is `read`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallFailure) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        return try retrying("read") { Glibc.read(rawValue, base, buffer.count) }.get()
    }

    /// Writes every byte of `buffer`, looping on partial writes. The C function is `write`.
    func writeAll(_ buffer: UnsafeRawBufferPointer) throws(SystemCallFailure) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            offset += try retrying("write") { Glibc.write(rawValue, base + offset, buffer.count - offset) }.get()
        }
    }

    /// The descriptor's own metadata. The C function is `fstat`.
    func info() throws(SystemCallFailure) -> FileInfo {
        var status = stat()
        _ = try retrying("fstat") { fstat(rawValue, &status) }.get()
        return FileInfo(status)
    }

    /// Metadata of `name` in this directory, not following a final symbolic link. The C function is `fstatat`.
    func info(of name: String) throws(SystemCallFailure) -> FileInfo {
        var status = stat()
        let result = name.withCString { cName in
            retrying("fstatat") { fstatat(rawValue, cName, &status, AT_SYMLINK_NOFOLLOW) }
        }
        _ = try result.get()
        return FileInfo(status)
    }

    /// The target of the symbolic link `name` in this directory. The C function is `readlinkat`.
    func linkTarget(of name: String) throws(SystemCallFailure) -> String {
        var capacity = 256
        while true {
            var bytes = [UInt8](repeating: 0, count: capacity)
            let result = bytes.withUnsafeMutableBufferPointer { buffer in
                name.withCString { cName in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        guard let base = chars.baseAddress else { return Result<Int, SystemCallFailure>.success(0) }
                        return retrying("readlinkat") { readlinkat(rawValue, cName, base, capacity) }
                    }
                }
            }
            let count = try result.get()
            if count < capacity { return String(decoding: bytes[0..<count], as: UTF8.self) }
            capacity *= 4
        }
    }

    /// Creates the directory `name` here with `permissions`. The C function is `mkdirat`.
    func makeDirectory(_ name: String, permissions: UInt32) throws(SystemCallFailure) {
        let result = name.withCString { cName in
            retrying("mkdirat") { mkdirat(rawValue, cName, mode_t(permissions)) }
        }
        _ = try result.get()
    }

    /// Creates the symbolic link `name` here, pointing at `target`. The C function is `symlinkat`.
    func makeSymbolicLink(_ name: String, target: String) throws(SystemCallFailure) {
        let result = target.withCString { cTarget in
            name.withCString { cName in
                retrying("symlinkat") { symlinkat(cTarget, rawValue, cName) }
            }
        }
        _ = try result.get()
    }

    /// Creates `name` here as a hard link to `existing` in `directory`, without following a
    /// symbolic link. The C function is `linkat`.
    func makeHardLink(_ name: String, to existing: String, in directory: SystemFile) throws(SystemCallFailure) {
        let result = existing.withCString { cExisting in
            name.withCString { cName in
                retrying("linkat") { linkat(directory.rawValue, cExisting, rawValue, cName, 0) }
            }
        }
        _ = try result.get()
    }

    /// Sets the permission bits of this descriptor's file. The C function is `fchmod`.
    func setPermissions(_ permissions: UInt32) throws(SystemCallFailure) {
        _ = try retrying("fchmod") { fchmod(rawValue, mode_t(permissions)) }.get()
    }

    /// Sets access and modification time of this descriptor's file. The C function is `futimens`.
    func setModificationTime(_ seconds: Int64) throws(SystemCallFailure) {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        _ = try retrying("futimens") { futimens(rawValue, &times) }.get()
    }

    /// Sets the times of `name` here without following a symbolic link. The C function is `utimensat`.
    func setModificationTime(_ seconds: Int64, of name: String) throws(SystemCallFailure) {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        let result = name.withCString { cName in
            retrying("utimensat") { utimensat(rawValue, cName, &times, AT_SYMLINK_NOFOLLOW) }
        }
        _ = try result.get()
    }

    /// Renames `name` to `newName`, both in this directory. The C function is `renameat`.
    ///
    /// A directory may replace only a missing or empty directory; `rename(2)` never replaces a
    /// non-empty one, so an existing destination is never clobbered.
    func rename(_ name: String, to newName: String) throws(SystemCallFailure) {
        let result = name.withCString { cName in
            newName.withCString { cNew in
                retrying("renameat") { renameat(rawValue, cName, rawValue, cNew) }
            }
        }
        _ = try result.get()
    }

    /// Removes `name` here (a directory when `directory`). The C function is `unlinkat`.
    func unlink(_ name: String, directory: Bool) throws(SystemCallFailure) {
        let result = name.withCString { cName in
            retrying("unlinkat") { unlinkat(rawValue, cName, directory ? AT_REMOVEDIR : 0) }
        }
        _ = try result.get()
    }

    /// The names in this directory, without `.` and `..`, in the order the kernel returns them.
    /// The C functions are `dup`, `fdopendir`, `readdir` and `closedir`.
    func entryNames() throws(SystemCallFailure) -> [String] {
        let copy = try retrying("dup") { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) }.get()
        guard let stream = fdopendir(copy) else {
            let saved = errno
            _ = Glibc.close(copy)
            throw SystemCallFailure(function: "fdopendir", errno: saved)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallFailure(function: "readdir", errno: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Removes `name` in this directory and everything below it, never following a symbolic
    /// link; directories are made writable first so a restrictive mode cannot stop the cleanup.
    func removeTree(_ name: String) throws(SystemCallFailure) {
        do {
            try unlink(name, directory: false)
            return
        } catch let failure where failure.errno == EISDIR || failure.errno == EPERM {
            // A directory: empty it first.
        }
        let child = try SystemFile.open(name, relativeTo: self, .directoryNoFollow)
        defer { child.close() }
        try? child.setPermissions(0o700)
        for entry in try child.entryNames() {
            try child.removeTree(entry)
        }
        try unlink(name, directory: true)
    }
}

/// A random 64-bit value in hex, for temporary names (`.name.tmp-<hex>`).
func randomSuffix() -> String {
    String(UInt64.random(in: UInt64.min...UInt64.max), radix: 16)
}

// MARK: - Character locale

/// A UTF-8 `LC_CTYPE` locale, or nil when the C library has none. Immutable once created, and a
/// `locale_t` may be installed on any number of threads at once, hence `nonisolated(unsafe)`.
nonisolated(unsafe) private let utf8CharacterLocale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

/// Runs `body` with the calling thread's `LC_CTYPE` set to UTF-8 (`uselocale`), then restores it.
///
/// libarchive converts entry names between the archive's charset and the "current locale". A
/// Swift process runs in the C locale (ASCII), where every non-ASCII name fails to convert and
/// the pax writer even crashes on the missing name, so every libarchive call that touches names
/// runs inside this. The thread locale affects only the calling thread, unlike `setlocale`.
func withUTF8CharacterLocale<T>(_ body: () throws -> T) rethrows -> T {
    guard let locale = utf8CharacterLocale else { return try body() }
    let previous = uselocale(locale)
    defer {
        if let previous { uselocale(previous) }
    }
    return try body()
}
