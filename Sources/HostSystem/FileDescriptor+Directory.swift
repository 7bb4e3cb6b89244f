#if canImport(Glibc)
import Glibc
#endif

/// One name read from a directory.
public struct DirectoryEntry: Sendable, Hashable {
    /// The entry's name (never `.` or `..`).
    public var name: String
    /// The kind the directory reports (`d_type`), or nil when the file system does not say.
    public var kind: FileStatus.Kind?
}

/// Flags for ``FileDescriptor/rename(_:to:in:flags:)``.
public struct RenameFlags: OptionSet, Sendable, Hashable {
    /// The raw `RENAME_*` bits.
    public var rawValue: CUnsignedInt
    /// Wraps raw `RENAME_*` bits.
    public init(rawValue: CUnsignedInt) { self.rawValue = rawValue }
    /// `RENAME_NOREPLACE`: fail with `EEXIST` instead of replacing the target.
    public static var noReplace: RenameFlags { RenameFlags(rawValue: 1 << 0) }
    /// `RENAME_EXCHANGE`: atomically swap the two names (both must exist).
    public static var exchange: RenameFlags { RenameFlags(rawValue: 1 << 1) }
}

extension FileDescriptor {
    // MARK: - Names inside a directory descriptor

    /// Creates the directory `name` inside this directory.
    ///
    /// The corresponding C function is `mkdirat`.
    /// - Throws: ``Errno`` (`.fileExists` when the name is taken).
    public func makeDirectory(_ name: String, permissions: UInt32 = 0o755) throws(Errno) {
        let result = name.withCString { path in
            nothingOrErrno { system_mkdirat(rawValue, path, mode_t(permissions)) }
        }
        try result.get()
    }

    /// Removes the file (or symbolic link) `name` inside this directory.
    ///
    /// The corresponding C function is `unlinkat`.
    /// - Throws: ``Errno``.
    public func removeFile(_ name: String) throws(Errno) {
        let result = name.withCString { path in nothingOrErrno { system_unlinkat(rawValue, path, 0) } }
        try result.get()
    }

    /// Removes the empty directory `name` inside this directory.
    ///
    /// The corresponding C function is `unlinkat(AT_REMOVEDIR)`.
    /// - Throws: ``Errno`` (`.directoryNotEmpty`).
    public func removeDirectory(_ name: String) throws(Errno) {
        let result = name.withCString { path in
            nothingOrErrno { system_unlinkat(rawValue, path, AT_REMOVEDIR) }
        }
        try result.get()
    }

    /// Renames `name` in this directory to `newName` in `directory` (this one when nil).
    ///
    /// Without flags this is `renameat`, which atomically replaces an existing target; with flags it
    /// is `renameat2`. The corresponding C functions are `renameat` and `renameat2`.
    /// - Throws: ``Errno`` (`.fileExists` for `.noReplace` over an existing name).
    public func rename(
        _ name: String, to newName: String, in directory: FileDescriptor? = nil, flags: RenameFlags = []
    ) throws(Errno) {
        let target = directory?.rawValue ?? rawValue
        let result = name.withCString { old in
            newName.withCString { new in
                flags.isEmpty
                    ? nothingOrErrno { system_renameat(rawValue, old, target, new) }
                    : nothingOrErrno { system_renameat2(rawValue, old, target, new, flags.rawValue) }
            }
        }
        try result.get()
    }

    /// The status of `name` inside this directory; a symbolic link is reported as itself unless
    /// `followingLinks`.
    ///
    /// The corresponding C function is `fstatat` (with `AT_SYMLINK_NOFOLLOW` by default).
    /// - Throws: ``Errno`` (`.noSuchFileOrDirectory`).
    public func status(ofEntry name: String, followingLinks: Bool = false) throws(Errno) -> FileStatus {
        try Self.status(of: name, relativeTo: rawValue, followingLinks: followingLinks)
    }

    /// The status of the file at `path` (relative to the working directory unless absolute); a
    /// symbolic link is reported as itself unless `followingLinks`. Unlike FileManager's
    /// attributes, it looks up no user or group names.
    ///
    /// The corresponding C function is `fstatat` (`AT_FDCWD`).
    /// - Throws: ``Errno`` (`.noSuchFileOrDirectory`).
    public static func status(ofPath path: String, followingLinks: Bool = true) throws(Errno) -> FileStatus {
        try status(of: path, relativeTo: AT_FDCWD, followingLinks: followingLinks)
    }

    private static func status(of path: String, relativeTo directory: CInt, followingLinks: Bool) throws(Errno)
        -> FileStatus
    {
        var buffer = stat()
        let flags = followingLinks ? 0 : AT_SYMLINK_NOFOLLOW
        let result = path.withCString { cPath in
            nothingOrErrno { system_fstatat(directory, cPath, &buffer, flags) }
        }
        try result.get()
        return FileStatus(buffer)
    }

    /// Creates the symbolic link `name` inside this directory, pointing at `target`.
    ///
    /// The corresponding C function is `symlinkat`.
    /// - Throws: ``Errno``.
    public func makeSymbolicLink(_ name: String, pointingTo target: String) throws(Errno) {
        let result = target.withCString { targetPath in
            name.withCString { path in nothingOrErrno { system_symlinkat(targetPath, rawValue, path) } }
        }
        try result.get()
    }

    /// The target of the symbolic link `name` inside this directory, as stored (not resolved).
    ///
    /// The corresponding C function is `readlinkat`.
    /// - Throws: ``Errno`` (`.invalidArgument` when `name` is not a symbolic link).
    public func linkTarget(ofEntry name: String) throws(Errno) -> String {
        var capacity = 256
        while true {
            var bytes = [UInt8](repeating: 0, count: capacity)
            let result = name.withCString { path in
                bytes.withUnsafeMutableBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        guard let base = chars.baseAddress else { return Result<Int, Errno>.success(0) }
                        return valueOrErrno { system_readlinkat(rawValue, path, base, chars.count) }
                    }
                }
            }
            let count = try result.get()
            // A target that fills the buffer may have been cut: read again with more room.
            if count < capacity { return String(decoding: bytes[0..<count], as: UTF8.self) }
            capacity *= 4
        }
    }

    /// Creates `name` inside this directory as a hard link to `existing` inside `directory` (this
    /// one when nil). A symbolic link `existing` is linked itself, not followed.
    ///
    /// The corresponding C function is `linkat` (without `AT_SYMLINK_FOLLOW`).
    /// - Throws: ``Errno`` (`.fileExists` when `name` is taken, `.noSuchFileOrDirectory` when
    ///   `existing` is missing).
    public func makeHardLink(_ name: String, to existing: String, in directory: FileDescriptor? = nil) throws(Errno) {
        let source = directory?.rawValue ?? rawValue
        let result = existing.withCString { existingPath in
            name.withCString { path in nothingOrErrno { system_linkat(source, existingPath, rawValue, path, 0) } }
        }
        try result.get()
    }

    /// Every entry of this directory except `.` and `..`, in the order the file system returns them.
    ///
    /// Reads through a duplicate descriptor rewound to the start, so this descriptor stays usable.
    /// The corresponding C functions are `fdopendir` and `readdir`.
    /// - Throws: ``Errno`` (`.notDirectory`).
    public func directoryEntries() throws(Errno) -> [DirectoryEntry] {
        let copy = try duplicate()
        do {
            try copy.seek(offset: 0)
        } catch {
            try? copy.close()
            throw error
        }
        guard let stream = system_fdopendir(copy.rawValue) else {
            let saved = Errno.current
            try? copy.close()
            throw saved
        }
        defer { _ = system_closedir(stream) }
        var entries: [DirectoryEntry] = []
        while true {
            errno = 0
            guard let raw = system_readdir(stream) else {
                let saved = Errno.current
                if saved.rawValue == 0 { return entries }
                throw saved
            }
            let name = withUnsafePointer(to: &raw.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let kind: FileStatus.Kind?
            switch Int32(raw.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_CHR): kind = .characterDevice
            case Int32(DT_BLK): kind = .blockDevice
            case Int32(DT_FIFO): kind = .fifo
            case Int32(DT_SOCK): kind = .socket
            case Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
    }

    /// Removes `name` inside this directory and, when it is a directory, everything below it,
    /// never following a symbolic link (a link is removed, not its target). Each directory is
    /// made readable and writable by its owner (0700) before it is emptied, so a restrictive
    /// mode does not stop the removal. What was removed before a failure stays removed.
    ///
    /// The corresponding C functions are `unlinkat`, `openat` (`O_DIRECTORY | O_NOFOLLOW`),
    /// `fchmod`, `readdir` and `unlinkat(AT_REMOVEDIR)`.
    /// - Throws: ``Errno`` (`.noSuchFileOrDirectory` when `name` does not exist).
    public func removeTree(_ name: String) throws(Errno) {
        let unlinkError: Errno
        do {
            try removeFile(name)
            return
        } catch {
            unlinkError = error
        }
        // Linux reports a directory as EISDIR; POSIX allows EPERM.
        guard unlinkError == .isDirectory || unlinkError == .notPermitted else { throw unlinkError }
        let child: FileDescriptor
        do {
            child = try FileDescriptor.open(name, relativeTo: self, [.readOnly, .directory, .noFollow])
        } catch {
            // Not a directory after all: the unlink's own error is the one that matters.
            throw error == .notDirectory || error == .tooManySymbolicLinks ? unlinkError : error
        }
        defer { try? child.close() }
        try? child.setPermissions(0o700)
        for entry in try child.directoryEntries() {
            try child.removeTree(entry.name)
        }
        try removeDirectory(name)
    }

    // MARK: - Size, mode and times

    /// Sets the file's size, cutting or zero-extending it.
    ///
    /// The corresponding C function is `ftruncate`.
    /// - Throws: ``Errno``.
    public func truncate(toSize size: Int64) throws(Errno) {
        try nothingOrErrno { system_ftruncate(rawValue, off_t(size)) }.get()
    }

    /// Sets the file's permission bits.
    ///
    /// The corresponding C function is `fchmod`.
    /// - Throws: ``Errno``.
    public func setPermissions(_ permissions: UInt32) throws(Errno) {
        try nothingOrErrno { system_fchmod(rawValue, mode_t(permissions)) }.get()
    }

    /// Sets the file's modification time, and its access time, to `seconds` since 1970 (whole
    /// seconds, as archives record them).
    ///
    /// The corresponding C function is `futimens`.
    /// - Throws: ``Errno``.
    public func setModificationTime(_ seconds: Int64) throws(Errno) {
        let time = timespec(tv_sec: Int(seconds), tv_nsec: 0)
        let times = [time, time]
        try nothingOrErrno { system_futimens(rawValue, times) }.get()
    }

    /// Sets the modification time, and the access time, of `name` inside this directory to
    /// `seconds` since 1970; a symbolic link gets the times itself (its target is untouched).
    ///
    /// The corresponding C function is `utimensat` (with `AT_SYMLINK_NOFOLLOW`).
    /// - Throws: ``Errno`` (`.noSuchFileOrDirectory`).
    public func setModificationTime(_ seconds: Int64, ofEntry name: String) throws(Errno) {
        let time = timespec(tv_sec: Int(seconds), tv_nsec: 0)
        let times = [time, time]
        let result = name.withCString { path in
            nothingOrErrno { system_utimensat(rawValue, path, times, AT_SYMLINK_NOFOLLOW) }
        }
        try result.get()
    }
}
