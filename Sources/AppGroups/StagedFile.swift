public import HostSystem

/// A temporary `.tmp-<random>` file in its final directory, written, made durable, then published
/// under its real name by one `rename` — so a reader sees either nothing or the whole file.
///
/// The temporary file is opened `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC` and holds an exclusive
/// `flock` until it is published or discarded: recovery skips a temporary file whose lock it cannot
/// take, because a live writer owns it. Not Sendable: one owner writes it.
public final class StagedFile {
    /// The prefix of every temporary name (recovery removes unlocked files with it).
    public static let temporaryPrefix = ".tmp-"

    /// The temporary file's name in its directory.
    public let temporaryName: String
    /// The open temporary file (write it with ``StagedFile/write(_:)`` or ``StagedFile/copy(from:startingWith:)``).
    public let descriptor: FileDescriptor
    private let directory: FileDescriptor
    private let directoryPath: String
    private var finished: (size: Int64, sha256: String)?
    /// The digest exthost's loader made while copying a file moved in here, with the file's status
    /// once moved: ``finish(syncing:)`` uses it instead of reading the file again only while the
    /// file still shows that size and those times (see ``DigestedCopies``).
    private var carried: (sha256: String, status: FileStatus)?
    /// Whether ``finish(syncing:)`` read the file back to hash it (false: it used the loader's
    /// digest, or has not run).
    package private(set) var hashedAtFinish = false
    private var done = false
    /// Called once when the file is discarded (after a commit, every staged file is): tells its
    /// container this process has one staged file fewer.
    var release: (@Sendable () -> Void)?

    /// Takes ownership of `directory` on success only.
    init(directory: FileDescriptor, directoryPath: String, permissions: UInt32) throws {
        self.directory = directory
        self.directoryPath = directoryPath
        var attempt = 0
        while true {
            let name = Self.temporaryPrefix + String(UInt64.random(in: .min ... .max), radix: 16)
            let opened: Result<FileDescriptor, Errno> = Result { () throws(Errno) -> FileDescriptor in
                let fd = try FileDescriptor.open(
                    name, relativeTo: directory, [.readWrite, .create, .exclusiveCreate, .noFollow], permissions: 0o600)
                do throws(Errno) {
                    try fd.lock(.exclusive)
                    try fd.setPermissions(permissions)
                } catch {
                    try? fd.close()
                    try? directory.removeFile(name)
                    throw error
                }
                return fd
            }
            switch opened {
            case .success(let fd):
                temporaryName = name
                descriptor = fd
                return
            case .failure(let errno) where errno == .fileExists && attempt < 8:
                attempt += 1
            case .failure(let errno):
                throw AppGroupError.open(errno, path: Self.join(directoryPath, name))
            }
        }
    }

    /// Renames `name` of `sourceDirectory`, already open as `descriptor` and locked by the caller, to
    /// a fresh temporary name in `directory`; nil when the rename crosses file systems (`EXDEV`,
    /// including Landlock's refusal to move between hierarchies), in which case nothing moved and
    /// nothing is owned. Takes ownership of `directory` and `descriptor` only when it returns a file.
    init?(
        moving name: String, from sourceDirectory: FileDescriptor, opened descriptor: FileDescriptor,
        into directory: FileDescriptor, directoryPath: String, shownSource: String, permissions: UInt32,
        carrying digest: String? = nil
    ) throws {
        var attempt = 0
        var moved: String?
        while moved == nil {
            let temporary = Self.temporaryPrefix + String(UInt64.random(in: .min ... .max), radix: 16)
            do {
                try sourceDirectory.rename(name, to: temporary, in: directory, flags: .noReplace)
                moved = temporary
            } catch .fileExists where attempt < 8 {
                attempt += 1
            } catch .crossDevice {
                return nil
            } catch {
                throw AppGroupError.rename(error, from: shownSource, to: Self.join(directoryPath, temporary))
            }
        }
        self.directory = directory
        self.directoryPath = directoryPath
        self.descriptor = descriptor
        temporaryName = moved ?? ""
        do {
            try descriptor.setPermissions(permissions)
            // The rename and the chmod moved the status-change time: what the file shows now is
            // what it must still show at commit for the loader's digest to stand.
            if let digest { carried = (digest, try descriptor.status()) }
        } catch {
            discard()
            throw AppGroupError.write(error, path: shownPath)
        }
    }

    deinit { discard() }

    /// Appends `bytes`.
    /// - Throws: ``AppGroupError`` `.io`.
    public func write(_ bytes: [UInt8]) throws {
        do { try descriptor.writeAll(bytes) } catch { throw AppGroupError.write(error, path: shownPath) }
    }

    /// Appends everything from `source`'s offset to its end, by clone, `copy_file_range` or a
    /// bounded buffer (see `FileDescriptor.copyContents`).
    /// - Throws: ``AppGroupError`` `.io`.
    @discardableResult
    public func copy(from source: FileDescriptor, startingWith method: CopyMethod = .clone) throws -> CopyMethod {
        do { return try descriptor.copyContents(from: source, startingWith: method) } catch {
            throw AppGroupError.write(error, path: shownPath)
        }
    }

    /// Flushes the data to stable storage and returns the size and SHA-256 of what is on disk
    /// (read back in 1 MiB chunks, so memory stays bounded, while the device writes it: write-back
    /// is started before hashing, so hash and disk overlap and the fsync waits only for the rest).
    ///
    /// - Parameter syncing: false only when the caller makes the file durable another way before
    ///   publishing it (``AppGroupStore/commit(_:)`` syncs a large batch with one `syncfs`).
    /// - Throws: ``AppGroupError`` `.io`.
    public func finish(syncing: Bool = true) throws -> (size: Int64, sha256: String) {
        if let finished { return finished }
        // The device writes while the file is hashed; the fsync below waits only for the rest.
        if syncing { try? descriptor.startWriteback() }
        if let result = try carriedSummary() {
            if syncing {
                do { try descriptor.sync() } catch { throw AppGroupError.sync(error, path: shownPath) }
            }
            finished = result
            return result
        }
        hashedAtFinish = true
        let result: (size: Int64, sha256: String)
        do { result = try DigestedCopies.hash(descriptor, from: 0) } catch {
            throw AppGroupError.read(error, path: shownPath)
        }
        if syncing {
            do { try descriptor.sync() } catch { throw AppGroupError.sync(error, path: shownPath) }
        }
        finished = result
        return result
    }

    /// The loader's digest, when the file is exactly as it was when moved in (nil: hash it).
    private func carriedSummary() throws -> (size: Int64, sha256: String)? {
        guard let (sha256, before) = carried else { return nil }
        carried = nil
        let now: FileStatus
        do { now = try descriptor.status() } catch { throw AppGroupError.read(error, path: shownPath) }
        guard now.size == before.size, now.modificationTimeExact == before.modificationTimeExact,
            now.changeTimeExact == before.changeTimeExact
        else { return nil }
        return (now.size, sha256)
    }

    /// Renames the temporary file to `name` (replacing an existing file unless `replacing` is
    /// false) and syncs the directory, so the new name survives a crash. Pass
    /// `syncingDirectory: false` only when a later publish into the same directory will sync it
    /// before anything depends on this name.
    /// - Throws: ``AppGroupError`` (`.alreadyExists` when not replacing).
    public func publish(as name: String, replacing: Bool = true, syncingDirectory: Bool = true) throws {
        _ = try finish()
        do {
            try directory.rename(temporaryName, to: name, flags: replacing ? [] : .noReplace)
        } catch {
            throw AppGroupError.rename(error, from: shownPath, to: Self.join(directoryPath, name))
        }
        done = true
        try? descriptor.close()
        defer { try? directory.close() }
        guard syncingDirectory else { return }
        do { try directory.sync() } catch {
            throw AppGroupError.sync(error, path: directoryPath.isEmpty ? "." : directoryPath)
        }
    }

    /// Removes the temporary file (if not yet published) and closes everything. Safe to call twice.
    public func discard() {
        defer {
            let release = self.release
            self.release = nil
            release?()
        }
        guard !done else { return }
        done = true
        try? directory.removeFile(temporaryName)
        try? descriptor.close()
        try? directory.close()
    }

    private var shownPath: String { Self.join(directoryPath, temporaryName) }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory + "/" + name
    }
}
