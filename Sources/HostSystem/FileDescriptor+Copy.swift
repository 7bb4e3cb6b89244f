#if canImport(Glibc)
import Glibc
#endif

/// How ``FileDescriptor/copyContents(from:startingWith:bufferSize:)`` moved the bytes.
public enum CopyMethod: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `ioctl(FICLONE)`: the destination shares the source's extents (btrfs, XFS with reflink).
    case clone = 0
    /// `copy_file_range`: the kernel copied, no bytes crossed into user space.
    case copyFileRange = 1
    /// `read`/`write` through one bounded buffer.
    case readWrite = 2

    /// `clone`, `copy_file_range` or `read/write`.
    public var description: String {
        switch self {
        case .clone: "clone"
        case .copyFileRange: "copy_file_range"
        case .readWrite: "read/write"
        }
    }

    /// Orders the methods from fastest to the universal fallback.
    public static func < (lhs: CopyMethod, rhs: CopyMethod) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension FileDescriptor {
    /// Copies everything from `source`'s current offset to its end into this descriptor, in
    /// bounded memory, and returns the method that did it.
    ///
    /// Tries a clone first (only when both offsets are 0 and this file is empty; the clone covers the
    /// whole source), then `copy_file_range` in a loop, then `read`/`write` through one buffer of
    /// `bufferSize` bytes. A later method is used only when the earlier one reports it cannot work
    /// here (`EOPNOTSUPP`, `EXDEV`, `EINVAL`, `ENOSYS`, `ENOTTY`); any other error is thrown.
    /// The corresponding C functions are `ioctl(FICLONE)`, `copy_file_range`, `read` and `write`.
    /// - Parameters:
    ///   - source: an open, readable descriptor.
    ///   - startingWith: the first method to try (tests force the fallbacks).
    ///   - bufferSize: the read/write buffer size, the only memory this call allocates.
    /// - Precondition: `bufferSize > 0`; passing 0 is a programmer error and traps.
    /// - Throws: ``Errno``.
    @discardableResult
    public func copyContents(
        from source: FileDescriptor, startingWith: CopyMethod = .clone, bufferSize: Int = 1 << 20
    ) throws(Errno) -> CopyMethod {
        precondition(bufferSize > 0, "bufferSize must be positive")  // programmer error
        if startingWith <= .clone, try seek(offset: 0, whence: SEEK_CUR) == 0,
            try source.seek(offset: 0, whence: SEEK_CUR) == 0, try status().size == 0
        {
            switch nothingOrErrno(retryOnInterrupt: true, { system_ficlone(rawValue, source.rawValue) }) {
            case .success:
                try seek(offset: 0, fromEnd: true)
                try source.seek(offset: 0, fromEnd: true)
                return .clone
            case .failure(let error) where Self.meansUnsupported(error): break
            case .failure(let error): throw error
            }
        }
        if startingWith <= .copyFileRange {
            var copiedAny = false
            while true {
                let result = valueOrErrno { system_copy_file_range(source.rawValue, rawValue, 1 << 30) }
                switch result {
                case .success(0): return .copyFileRange
                case .success: copiedAny = true
                case .failure(let error) where !copiedAny && Self.meansUnsupported(error): break
                case .failure(let error): throw error
                }
                if case .failure = result { break }
            }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            if count == 0 { return .readWrite }
            try writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Makes this file share `source`'s extents (the whole of `source`, replacing this file's
    /// contents); throws where the file system cannot (`EOPNOTSUPP` on ext4, `EXDEV` across file
    /// systems: see ``meansCopyUnsupported(_:)``).
    ///
    /// The corresponding C function is `ioctl(FICLONE)`.
    /// - Throws: ``Errno``.
    public func clone(from source: FileDescriptor) throws(Errno) {
        try nothingOrErrno(retryOnInterrupt: true, { system_ficlone(rawValue, source.rawValue) }).get()
    }

    /// Copies up to `count` bytes from `source`'s offset to this descriptor's offset in the kernel,
    /// advancing both; returns how many it copied (0 at the end of `source`, and possibly fewer
    /// than asked before it). Throws where the kernel cannot copy between these files (see
    /// ``meansCopyUnsupported(_:)``), in which case nothing was copied.
    ///
    /// The corresponding C function is `copy_file_range` (with NULL offsets).
    /// - Throws: ``Errno``.
    public func copyFileRange(from source: FileDescriptor, count: Int) throws(Errno) -> Int {
        try valueOrErrno { system_copy_file_range(source.rawValue, rawValue, count) }.get()
    }

    /// Whether `error`, from ``clone(from:)`` or ``copyFileRange(from:count:)``, says only that this
    /// method cannot work here (`EOPNOTSUPP`, `EXDEV`, `EINVAL`, `ENOSYS`, `ENOTTY`), so a slower
    /// one should be used, rather than that the files themselves failed.
    public static func meansCopyUnsupported(_ error: Errno) -> Bool { meansUnsupported(error) }

    /// Moves the file offset relative to `whence` (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`).
    private func seek(offset: Int64, whence: CInt) throws(Errno) -> Int64 {
        Int64(try valueOrErrno { system_lseek(rawValue, off_t(offset), whence) }.get())
    }

    private static func meansUnsupported(_ error: Errno) -> Bool {
        [Errno.notSupported, .crossDevice, .invalidArgument, .notImplemented, Errno(rawValue: ENOTTY)]
            .contains(error)
    }
}
