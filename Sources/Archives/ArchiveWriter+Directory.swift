public import FoundationEssentials
import HostSystem

extension ArchiveWriter {
    /// Adds the directory tree at `url` recursively.
    ///
    /// Entries come in a deterministic order: each directory's names sorted by their UTF-8
    /// bytes, a directory before its contents. Permission bits and modification times are kept;
    /// symbolic links are stored as links (never followed) and regular files are streamed. The
    /// tree is walked through directory descriptors with `O_NOFOLLOW`, so a directory replaced
    /// by a link during the walk is not followed either.
    ///
    /// - Parameters:
    ///   - url: The directory (a symbolic link to one is followed for the root only).
    ///   - prefix: The path under which the tree is stored, such as `Folder`; empty stores the
    ///     directory's contents at the archive's root and no entry for the directory itself.
    /// - Throws: ``ArchiveError``: ``ArchiveError/Code/io`` for an unreadable file or directory,
    ///   ``ArchiveError/Code/unsupportedEntryType`` for a device node, FIFO or socket in the tree,
    ///   ``ArchiveError/Code/writeFailed`` from libarchive.
    public func addDirectory(at url: URL, as prefix: String = "") throws {
        let source = url.path(percentEncoded: false)
        let root: FileDescriptor
        do {
            root = try FileDescriptor.open(source, [.readOnly, .directory])
        } catch {
            throw ArchiveError.io(error, "openat", "cannot open the directory \(source)", archive: archiveName)
        }
        defer { try? root.close() }
        var base = prefix
        while base.hasSuffix("/") { base.removeLast() }
        if !base.isEmpty {
            let status: FileStatus
            do {
                status = try root.status()
            } catch {
                throw ArchiveError.io(error, "fstat", "cannot stat \(source)", archive: archiveName, entry: base)
            }
            try writeHeader(
                ArchiveEntry(
                    path: base, kind: .directory, permissions: status.permissions,
                    modificationTime: status.modificationTimeSeconds))
        }
        try addContents(of: root, source: source, prefix: base)
    }

    private func addContents(of directory: FileDescriptor, source: String, prefix: String) throws {
        let names: [String]
        do {
            names = try directory.directoryEntries().map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } catch {
            throw ArchiveError.io(error, "readdir", "cannot list \(source)", archive: archiveName, entry: prefix)
        }
        for name in names {
            let childSource = source.hasSuffix("/") ? source + name : source + "/" + name
            let path = prefix.isEmpty ? name : prefix + "/" + name
            let status: FileStatus
            do {
                status = try directory.status(ofEntry: name)
            } catch {
                throw ArchiveError.io(error, "fstatat", "cannot stat \(childSource)", archive: archiveName, entry: path)
            }
            switch status.kind {
            case .directory:
                try writeHeader(
                    ArchiveEntry(
                        path: path, kind: .directory, permissions: status.permissions,
                        modificationTime: status.modificationTimeSeconds))
                let child: FileDescriptor
                do {
                    child = try FileDescriptor.open(name, relativeTo: directory, [.readOnly, .directory, .noFollow])
                } catch {
                    throw ArchiveError.io(
                        error, "openat", "cannot open \(childSource)", archive: archiveName, entry: path)
                }
                defer { try? child.close() }
                try addContents(of: child, source: childSource, prefix: path)
            case .regular:
                let file: FileDescriptor
                do {
                    file = try FileDescriptor.open(name, relativeTo: directory, [.readOnly, .noFollow])
                } catch {
                    throw ArchiveError.io(
                        error, "openat", "cannot open \(childSource)", archive: archiveName, entry: path)
                }
                defer { try? file.close() }
                try addOpenFile(file, source: childSource, as: path)
            case .symbolicLink:
                let target: String
                do {
                    target = try directory.linkTarget(ofEntry: name)
                } catch {
                    throw ArchiveError.io(
                        error, "readlinkat", "cannot read the symbolic link \(childSource)", archive: archiveName,
                        entry: path)
                }
                try writeHeader(
                    ArchiveEntry(
                        path: path, kind: .symbolicLink, permissions: status.permissions, linkTarget: target,
                        modificationTime: status.modificationTimeSeconds))
            case .characterDevice, .blockDevice, .fifo, .socket, .other:
                throw ArchiveError(
                    .unsupportedEntryType,
                    "cannot add \(childSource) to \(archiveName): a \(ArchiveEntry.Kind(status.kind).rawValue) is not archived",
                    archive: archiveName, entry: path)
            }
        }
    }

    // MARK: - Conveniences

    /// Zips the directory at `directory` into the file `archive`, with the directory itself as
    /// the top-level entry (`Folder/…`), as a folder shared through `NSItemProvider` arrives as
    /// `public.zip-archive`.
    ///
    /// - Parameters:
    ///   - directory: The folder to zip.
    ///   - archive: The zip file to create (replaced atomically if it exists).
    /// - Throws: ``ArchiveError`` as ``addDirectory(at:as:)`` and ``finish()`` do.
    public static func zipDirectory(at directory: URL, to archive: URL) throws {
        let writer = try ArchiveWriter(url: archive, format: .zip)
        try writer.addDirectory(at: directory, as: directory.lastPathComponent)
        try writer.finish()
    }

    /// Zips the directory at `directory` into memory, with the directory itself as the
    /// top-level entry, refusing to grow past `maximumSize` bytes.
    ///
    /// - Parameters:
    ///   - directory: The folder to zip.
    ///   - maximumSize: The largest archive accepted, in bytes.
    /// - Returns: The zip archive.
    /// - Throws: ``ArchiveError`` with ``ArchiveError/Code/outputTooLarge`` past the limit, or as
    ///   ``addDirectory(at:as:)`` does.
    public static func zipDirectory(at directory: URL, maximumSize: Int) throws -> Data {
        try withMemoryOutput(format: .zip, maximumSize: maximumSize) { writer in
            try writer.addDirectory(at: directory, as: directory.lastPathComponent)
        }
    }
}
