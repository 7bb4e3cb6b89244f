#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor: a plain value, closed explicitly (as in swift-system).
///
/// Every descriptor exthost opens is close-on-exec; use ``closeAfter(_:)`` to scope one.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The raw descriptor number.
    public let rawValue: CInt

    /// Wraps a raw descriptor number the caller owns.
    public init(rawValue: CInt) { self.rawValue = rawValue }

    /// Standard input, output and error.
    public static var standardInput: FileDescriptor { FileDescriptor(rawValue: 0) }
    /// Standard output.
    public static var standardOutput: FileDescriptor { FileDescriptor(rawValue: 1) }
    /// Standard error.
    public static var standardError: FileDescriptor { FileDescriptor(rawValue: 2) }

    /// How a file is opened. `O_CLOEXEC` is always added.
    public struct OpenOptions: OptionSet, Sendable, Hashable {
        /// The raw `O_*` flags.
        public var rawValue: CInt
        /// Wraps raw `O_*` flags.
        public init(rawValue: CInt) { self.rawValue = rawValue }
        /// `O_RDONLY`.
        public static var readOnly: OpenOptions { [] }
        /// `O_WRONLY`.
        public static var writeOnly: OpenOptions { OpenOptions(rawValue: O_WRONLY) }
        /// `O_RDWR`.
        public static var readWrite: OpenOptions { OpenOptions(rawValue: O_RDWR) }
        /// `O_CREAT`.
        public static var create: OpenOptions { OpenOptions(rawValue: O_CREAT) }
        /// `O_EXCL`.
        public static var exclusiveCreate: OpenOptions { OpenOptions(rawValue: O_EXCL) }
        /// `O_TRUNC`.
        public static var truncate: OpenOptions { OpenOptions(rawValue: O_TRUNC) }
        /// `O_APPEND`.
        public static var append: OpenOptions { OpenOptions(rawValue: O_APPEND) }
        /// `O_NOFOLLOW`: fail with `ELOOP` when the last component is a symbolic link.
        public static var noFollow: OpenOptions { OpenOptions(rawValue: O_NOFOLLOW) }
        /// `O_DIRECTORY`.
        public static var directory: OpenOptions { OpenOptions(rawValue: O_DIRECTORY) }
        /// `O_NONBLOCK`.
        public static var nonBlocking: OpenOptions { OpenOptions(rawValue: O_NONBLOCK) }
    }

    /// Opens `path` relative to `directory` (or the working directory when nil).
    ///
    /// The corresponding C function is `openat`.
    /// - Throws: ``Errno``.
    public static func open(
        _ path: String, relativeTo directory: FileDescriptor? = nil,
        _ options: OpenOptions = .readOnly, permissions: UInt32 = 0o644
    ) throws(Errno) -> FileDescriptor {
        let dirfd = directory?.rawValue ?? AT_FDCWD
        let flags = options.rawValue | O_CLOEXEC
        let result = path.withCString { cPath in
            valueOrErrno { system_openat(dirfd, cPath, flags, mode_t(permissions)) }
        }
        return FileDescriptor(rawValue: try result.get())
    }

    /// Closes the descriptor. `EINTR` is not retried (the descriptor is gone either way on Linux).
    ///
    /// The corresponding C function is `close`.
    /// - Throws: ``Errno``.
    public func close() throws(Errno) {
        try nothingOrErrno(retryOnInterrupt: false) { system_close(rawValue) }.get()
    }

    /// Runs `body`, then closes the descriptor whatever happened.
    public func closeAfter<R>(_ body: () throws -> R) rethrows -> R {
        defer { try? close() }
        return try body()
    }

    /// Reads up to `buffer.count` bytes; returns how many were read (0 at end of file).
    ///
    /// The corresponding C function is `read`.
    /// - Throws: ``Errno``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { system_read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the file offset.
    ///
    /// The corresponding C function is `pread`.
    /// - Throws: ``Errno``.
    public func read(fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
        -> Int
    {
        try valueOrErrno { system_pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }.get()
    }

    /// Writes some of `buffer`; returns how many bytes were written.
    ///
    /// The corresponding C function is `write`.
    /// - Throws: ``Errno``.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { system_write(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Writes all of `buffer`, looping over short writes.
    /// - Throws: ``Errno``.
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            offset += try write(rest)
        }
    }

    /// Writes all of `bytes`.
    /// - Throws: ``Errno``.
    public func writeAll(_ bytes: some Sequence<UInt8>) throws(Errno) {
        let array = Array(bytes)
        let result: Result<Void, Errno> = array.withUnsafeBytes { raw in
            do throws(Errno) {
                try writeAll(raw)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Reads until end of file, at most `limit` bytes.
    /// - Throws: ``Errno``; `.fileTooLarge`-style `EFBIG` when the file holds more than `limit`.
    public func readAll(limit: Int = Int.max) throws(Errno) -> [UInt8] {
        var output: [UInt8] = []
        try readToEnd { chunk throws(Errno) in
            if output.count + chunk.count > limit { throw Errno(rawValue: EFBIG) }
            output.append(contentsOf: chunk)
        }
        return output
    }

    /// Reads until end of file in chunks of up to 64 KiB, handing each to `body` (the one read loop
    /// of ``readAll(limit:)`` and ``readAll(keepingAtMost:)``).
    /// - Throws: ``Errno``, from the reads or from `body`.
    func readToEnd(_ body: (ArraySlice<UInt8>) throws(Errno) -> Void) throws(Errno) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result: Result<Int, Errno> = chunk.withUnsafeMutableBytes { raw in
                do throws(Errno) { return .success(try read(into: raw)) } catch { return .failure(error) }
            }
            let count = try result.get()
            if count == 0 { return }
            try body(chunk[0..<count])
        }
    }

    /// Flushes the file's data and metadata to stable storage.
    ///
    /// The corresponding C function is `fsync`.
    /// - Throws: ``Errno``.
    public func sync() throws(Errno) {
        try nothingOrErrno { system_fsync(rawValue) }.get()
    }

    /// Starts writing the file's dirty pages to the device and returns without waiting, so the
    /// device works while the caller does something else (hashes the file) before ``sync()``,
    /// which then waits only for what is left. Makes nothing durable by itself.
    ///
    /// The corresponding C function is `sync_file_range` (`SYNC_FILE_RANGE_WRITE`).
    /// - Throws: ``Errno``.
    public func startWriteback() throws(Errno) {
        try nothingOrErrno { system_start_writeback(rawValue) }.get()
    }

    /// Flushes every dirty file of the filesystem that holds this file (data and metadata), and
    /// reports a write-back error of any of them (Linux ≥ 5.8). One call makes a whole batch of
    /// written files durable — the durability of `sync -f`.
    ///
    /// The corresponding C function is `syncfs`.
    /// - Throws: ``Errno``.
    public func syncFileSystem() throws(Errno) {
        try nothingOrErrno { system_syncfs(rawValue) }.get()
    }

    /// Moves the file offset; returns the new offset.
    ///
    /// The corresponding C function is `lseek`.
    /// - Throws: ``Errno``.
    @discardableResult
    public func seek(offset: Int64, fromEnd: Bool = false) throws(Errno) -> Int64 {
        let whence = fromEnd ? SEEK_END : SEEK_SET
        return Int64(try valueOrErrno { system_lseek(rawValue, off_t(offset), whence) }.get())
    }

    /// The file's status.
    ///
    /// The corresponding C function is `fstat`.
    /// - Throws: ``Errno``.
    public func status() throws(Errno) -> FileStatus {
        var buffer = stat()
        try nothingOrErrno { system_fstat(rawValue, &buffer) }.get()
        return FileStatus(buffer)
    }

    /// A new close-on-exec descriptor for the same open file.
    ///
    /// The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)`.
    /// - Throws: ``Errno``.
    public func duplicate() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { system_dup(rawValue) }.get())
    }
}

/// What `fstat` reports about a file, in Swift names.
public struct FileStatus: Sendable, Hashable {
    /// The file's kind.
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A symbolic link.
        case symbolicLink
        /// A character device node.
        case characterDevice
        /// A block device node.
        case blockDevice
        /// A named pipe (FIFO).
        case fifo
        /// A Unix domain socket.
        case socket
        /// A type none of the above covers.
        case other
    }
    /// The file's kind.
    public var kind: Kind
    /// Size in bytes.
    public var size: Int64
    /// Permission bits.
    public var permissions: UInt32
    /// The device the file lives on.
    public var device: UInt64
    /// The inode number.
    public var inode: UInt64
    /// Last modification, seconds since 1970.
    public var modificationTime: Double
    /// How many names (hard links) the file has.
    public var linkCount: Int
    /// The whole seconds of the last modification since 1970 (`st_mtim.tv_sec`), exactly: the
    /// `Double` of ``modificationTime`` can round up to the next second.
    public var modificationTimeSeconds: Int64
    /// The last modification (`st_mtim`) and the last status change (`st_ctim`), each as
    /// (seconds, nanoseconds) since 1970, exactly. The status change time is the one a process
    /// cannot set: every write, truncation, `chmod`, `utimensat` or rename moves it, so an unchanged
    /// pair says the file's contents have not changed since it was read (on Linux ≥ 6.13, ext4,
    /// XFS, btrfs and tmpfs give a change after an `fstat` a finer timestamp than the one read).
    public var modificationTimeExact: (seconds: Int64, nanoseconds: Int64) {
        (modificationTimeSeconds, modificationNanoseconds)
    }
    /// The last status change (`st_ctim`) as (seconds, nanoseconds): see ``modificationTimeExact``.
    public var changeTimeExact: (seconds: Int64, nanoseconds: Int64) { (changeTimeSeconds, changeNanoseconds) }
    private var modificationNanoseconds: Int64
    private var changeTimeSeconds: Int64
    private var changeNanoseconds: Int64

    init(_ raw: stat) {
        switch raw.st_mode & Glibc.S_IFMT {
        case Glibc.S_IFREG: kind = .regular
        case Glibc.S_IFDIR: kind = .directory
        case Glibc.S_IFLNK: kind = .symbolicLink
        case Glibc.S_IFCHR: kind = .characterDevice
        case Glibc.S_IFBLK: kind = .blockDevice
        case Glibc.S_IFIFO: kind = .fifo
        case Glibc.S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int64(raw.st_size)
        permissions = UInt32(raw.st_mode & 0o7777)
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
        modificationTime = Double(raw.st_mtim.tv_sec) + Double(raw.st_mtim.tv_nsec) / 1e9
        linkCount = Int(raw.st_nlink)
        modificationTimeSeconds = Int64(raw.st_mtim.tv_sec)
        modificationNanoseconds = Int64(raw.st_mtim.tv_nsec)
        changeTimeSeconds = Int64(raw.st_ctim.tv_sec)
        changeNanoseconds = Int64(raw.st_ctim.tv_nsec)
    }
}
