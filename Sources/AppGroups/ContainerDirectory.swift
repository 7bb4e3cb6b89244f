public import Foundation
public import HostSystem
import Synchronization

/// An open container directory: every access resolves a ``ContainerPath`` from this directory's
/// descriptor, never from a path string.
///
/// - Important: Resolution uses `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` (or an
///   `O_NOFOLLOW` walk on kernels without it), so neither `..` nor a symbolic link planted inside
///   the container, pointing out or in, is ever followed. Renaming or replacing the container
///   directory after it was opened does not redirect accesses either.
public final class ContainerDirectory: Sendable {
    /// Where the container was when it was opened (for messages and file URLs handed to callers).
    public let url: URL
    private let state: Locked<FileDescriptor?>
    /// Whether staging marks this process as a writer (``beginStaging()``).
    let marksWriters: Bool
    private let writer = Locked(WriterState())

    /// How many staged files of this process are outstanding, and its marker while there are any.
    private struct WriterState {
        var staged = 0
        var marker: (descriptor: FileDescriptor, name: String)?
    }

    /// Opens the directory at `url`. With `marksWriters` (an App Group store's container), a
    /// locked marker in `.exthost/writers/` exists while this process has staged files that are
    /// not yet committed or discarded: a marker nobody holds tells recovery a writer died with work
    /// in flight, so only then does it look for what such a writer can leave (temporary files,
    /// published files never journaled) across the whole container.
    /// - Throws: ``AppGroupError`` `.notFound` / `.io`.
    public init(url: URL, marksWriters: Bool = false) throws {
        self.url = url
        self.marksWriters = marksWriters
        do {
            state = Locked(try FileDescriptor.open(url.path, [.readOnly, .directory]))
        } catch {
            throw AppGroupError.open(error, path: url.path)
        }
    }

    deinit { close() }

    /// Closes the directory descriptor (removing this process's writer marker); later accesses
    /// fail. Safe to call twice.
    public func close() {
        removeMarker(
            writer.withLock { state in
                defer { state.marker = nil }
                return state.marker
            })
        let descriptor = state.withLock { value -> FileDescriptor? in
            defer { value = nil }
            return value
        }
        try? descriptor?.close()
    }

    /// The directory descriptor.
    /// - Throws: ``AppGroupError`` `.io` after ``close()``.
    public func descriptor() throws -> FileDescriptor {
        guard let fd = state.withLock({ $0 }) else {
            throw AppGroupError(.io, "container \(url.path) is closed", cause: Errno.badFileDescriptor)
        }
        return fd
    }

    /// The file URL of `path` inside the container (for handing to an app, which opens it itself).
    public func url(for path: ContainerPath) -> URL {
        // Explicit isDirectory: Foundation would otherwise stat every component.
        let directories = path.components.dropLast().reduce(url) { $0.appendingPathComponent($1, isDirectory: true) }
        return directories.appendingPathComponent(path.lastComponent, isDirectory: false)
    }

    // MARK: - Opening

    /// Opens `path` beneath the container.
    /// - Throws: ``AppGroupError`` `.escapesContainer`, `.notFound`, `.io`.
    public func open(
        _ path: ContainerPath, _ options: FileDescriptor.OpenOptions = .readOnly, permissions: UInt32 = 0o644
    ) throws -> FileDescriptor {
        do {
            return try FileDescriptor.open(
                beneath: path.description, relativeTo: descriptor(), options, permissions: permissions)
        } catch let error as Errno {
            throw AppGroupError.open(error, path: path.description)
        }
    }

    /// Opens the directory `path` (the container itself when nil), creating missing components
    /// (each creation is made durable by syncing its parent) when `creating`.
    /// - Throws: ``AppGroupError`` `.escapesContainer`, `.notFound`, `.invalidPath`, `.io`.
    public func openDirectory(_ path: ContainerPath?, creating: Bool = false) throws -> FileDescriptor {
        let root = try descriptor()
        guard let path else {
            do { return try root.duplicate() } catch { throw AppGroupError.open(error, path: ".") }
        }
        var current = try openExisting(".", in: root, shown: ".")
        var walked: [String] = []
        for component in path.components {
            walked.append(component)
            let shown = walked.joined(separator: "/")
            let next: FileDescriptor
            do {
                next = try openExisting(component, in: current, shown: shown)
            } catch let error as AppGroupError where error.code == .notFound && creating {
                do throws(Errno) {
                    try current.makeDirectory(component)
                    try current.sync()
                } catch {
                    // EEXIST: another process created it first, which is fine.
                    if error != .fileExists {
                        try? current.close()
                        throw AppGroupError.makeDirectory(error, path: shown)
                    }
                }
                do {
                    next = try openExisting(component, in: current, shown: shown)
                } catch {
                    try? current.close()
                    throw error
                }
            } catch {
                try? current.close()
                throw error
            }
            try? current.close()
            current = next
        }
        return current
    }

    private func openExisting(_ name: String, in directory: FileDescriptor, shown: String) throws -> FileDescriptor {
        do {
            return try FileDescriptor.open(beneath: name, relativeTo: directory, [.readOnly, .directory])
        } catch {
            throw AppGroupError.open(error, path: shown)
        }
    }

    // MARK: - Reading and inspecting

    /// The whole file at `path`, at most `limit` bytes.
    /// - Throws: ``AppGroupError`` (`.corrupt` when larger than `limit`).
    public func readFile(_ path: ContainerPath, limit: Int = 64 << 20) throws -> [UInt8] {
        let fd = try open(path)
        defer { try? fd.close() }
        do {
            return try fd.readAll(limit: limit)
        } catch {
            throw AppGroupError.read(error, path: path.description)
        }
    }

    /// The status of `path` without following a final symbolic link, or nil when it does not exist.
    /// - Throws: ``AppGroupError`` for anything but a missing file.
    public func status(of path: ContainerPath) throws -> FileStatus? {
        let parent: FileDescriptor
        do {
            parent = try openDirectory(path.parent)
        } catch let error as AppGroupError where error.code == .notFound {
            return nil
        }
        defer { try? parent.close() }
        do {
            return try parent.status(ofEntry: path.lastComponent)
        } catch let errno where errno == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw AppGroupError.list(error, path: path.description)
        }
    }

    /// The entries of the directory `path` (the container itself when nil).
    /// - Throws: ``AppGroupError``.
    public func entries(in path: ContainerPath?) throws -> [DirectoryEntry] {
        let fd = try openDirectory(path)
        defer { try? fd.close() }
        do {
            return try fd.directoryEntries()
        } catch {
            throw AppGroupError.list(error, path: path?.description ?? ".")
        }
    }

    /// Removes the file `path` and syncs its directory.
    /// - Throws: ``AppGroupError``.
    public func removeFile(_ path: ContainerPath) throws {
        let parent = try openDirectory(path.parent)
        defer { try? parent.close() }
        do {
            try parent.removeFile(path.lastComponent)
            try parent.sync()
        } catch {
            throw AppGroupError.remove(error, path: path.description)
        }
    }

    // MARK: - Writing

    /// Creates a temporary file in the directory `directory` (created if missing), ready to be
    /// written and then published atomically under its final name.
    /// - Throws: ``AppGroupError``.
    public func stage(in directory: ContainerPath?, permissions: UInt32 = 0o644) throws -> StagedFile {
        let release = try beginStaging()
        do {
            let fd = try openDirectory(directory, creating: true)
            do {
                // Between O_EXCL creation and its flock a temporary looks abandoned; the shared staging
                // lock keeps recovery (which takes it exclusively) from judging it in that window.
                let staged = try ContainerLock(directory: self, path: .stagingLock).withLock(.shared) {
                    try StagedFile(directory: fd, directoryPath: directory?.description ?? "", permissions: permissions)
                }
                staged.release = release
                return staged
            } catch {
                try? fd.close()
                throw error
            }
        } catch {
            release?()
            throw error
        }
    }

    /// Moves the regular file at `source` into the directory `directory` (created if missing) as a
    /// temporary file, to be published like one ``stage(in:permissions:)`` made — so the bytes are
    /// not copied. Returns nil, leaving `source` where it is, when it cannot be moved: it is on
    /// another file system, is not a regular file, or has other hard links (the entry would then
    /// share its bytes with a name outside the container).
    ///
    /// The source is opened and `flock`ed before it is renamed, so recovery never sees it unlocked.
    /// - Throws: ``AppGroupError`` (`.notFound` for a missing source).
    public func stage(movingFileAt source: URL, in directory: ContainerPath?, permissions: UInt32 = 0o644) throws
        -> StagedFile?
    {
        let release = try beginStaging()
        var handedOver = false
        defer { if !handedOver { release?() } }
        let sourceDirectory: FileDescriptor
        let file: FileDescriptor
        let shown = source.path
        do {
            sourceDirectory = try FileDescriptor.open(source.deletingLastPathComponent().path, [.readOnly, .directory])
        } catch {
            throw AppGroupError.open(error, path: shown)
        }
        defer { try? sourceDirectory.close() }
        do {
            file = try FileDescriptor.open(
                source.lastPathComponent, relativeTo: sourceDirectory, [.readWrite, .noFollow])
        } catch {
            if error == .tooManySymbolicLinks { return nil }
            throw AppGroupError.open(error, path: shown)
        }
        var adopted = false
        defer { if !adopted { try? file.close() } }
        // The digest exthost's loader recorded while copying this file, if it is still exactly
        // the copy (DigestedCopies): the commit then need not read it again.
        let digest: String?
        do throws(Errno) {
            let status = try file.status()
            guard status.kind == .regular, status.linkCount == 1 else { return nil }
            try file.lock(.exclusive)
            digest = DigestedCopies.takeDigest(matching: status)
        } catch {
            throw AppGroupError.open(error, path: shown)
        }
        let fd = try openDirectory(directory, creating: true)
        do {
            let staged = try ContainerLock(directory: self, path: .stagingLock).withLock(.shared) {
                try StagedFile(
                    moving: source.lastPathComponent, from: sourceDirectory, opened: file, into: fd,
                    directoryPath: directory?.description ?? "", shownSource: shown, permissions: permissions,
                    carrying: digest)
            }
            guard let staged else {
                try? fd.close()
                return nil
            }
            adopted = true
            staged.release = release
            handedOver = true
            return staged
        } catch {
            try? fd.close()
            throw error
        }
    }

    /// Where writer markers live.
    static var writersDirectory: ContainerPath { ContainerPath(components: [".exthost", "writers"]) }

    /// Counts a staged file in. The first of a busy period leaves this process's writer marker: a
    /// new file in `.exthost/writers/`, `flock`ed, its directory fsynced before anything is staged
    /// (created under the shared staging lock, so recovery, which takes it exclusively, never sees
    /// it unlocked). Returns what the staged file calls once it is committed or discarded (nil
    /// when this directory marks no writers); the last one removes the marker.
    /// - Throws: ``AppGroupError``.
    func beginStaging() throws -> (@Sendable () -> Void)? {
        guard marksWriters else { return nil }
        try writer.withLock { state throws in
            if state.marker == nil { state.marker = try makeMarker() }
            state.staged += 1
        }
        return { [self] in
            removeMarker(
                writer.withLock { state in
                    state.staged -= 1
                    guard state.staged == 0 else { return nil }
                    defer { state.marker = nil }
                    return state.marker
                })
        }
    }

    private func makeMarker() throws -> (descriptor: FileDescriptor, name: String) {
        let writers = try openDirectory(Self.writersDirectory, creating: true)
        defer { try? writers.close() }
        let name = String(UInt64.random(in: .min ... .max), radix: 16)
        let shown = "\(Self.writersDirectory)/\(name)"
        return try ContainerLock(directory: self, path: .stagingLock).withLock(.shared) {
            let marker: FileDescriptor
            do throws(Errno) {
                marker = try FileDescriptor.open(
                    name, relativeTo: writers, [.readWrite, .create, .exclusiveCreate, .noFollow], permissions: 0o600)
            } catch {
                throw AppGroupError.open(error, path: shown)
            }
            do throws(Errno) {
                try marker.lock(.exclusive)
                try writers.sync()
            } catch {
                try? writers.removeFile(name)
                try? marker.close()
                throw AppGroupError.sync(error, path: shown)
            }
            return (marker, name)
        }
    }

    /// Unlinks and closes a marker (not synced: a marker that survives a crash only costs the next
    /// open a whole-container check).
    private func removeMarker(_ marker: (descriptor: FileDescriptor, name: String)?) {
        guard let marker else { return }
        if let writers = try? openDirectory(Self.writersDirectory) {
            try? writers.removeFile(marker.name)
            try? writers.close()
        }
        try? marker.descriptor.close()
    }

    /// The writer markers no live process holds (their writers died), under the exclusive staging
    /// lock the caller holds.
    func deadWriterMarkers() throws -> [String] {
        let entries: [DirectoryEntry]
        do { entries = try self.entries(in: Self.writersDirectory) } catch let error as AppGroupError
            where error.code == .notFound
        {
            return []
        }
        return try entries.compactMap { entry in
            let path = try Self.writersDirectory.appending(entry.name)
            guard entry.kind == .regular || entry.kind == nil else { return nil }
            guard let fd = try? open(path, [.readOnly, .nonBlocking]) else { return nil }
            defer { try? fd.close() }
            return (try? fd.lock(.exclusive, wait: false)) == true ? entry.name : nil
        }
    }

    /// Replaces (or creates) `path` with `bytes`, atomically and durably: temporary file, write,
    /// fsync, rename, fsync of the directory.
    /// - Throws: ``AppGroupError``; the temporary file is removed on any failure.
    public func writeAtomically(_ bytes: [UInt8], to path: ContainerPath, permissions: UInt32 = 0o644) throws {
        let staged = try stage(in: path.parent, permissions: permissions)
        defer { staged.discard() }
        try staged.write(bytes)
        _ = try staged.finish()
        try staged.publish(as: path.lastComponent)
    }
}
