public import FoundationEssentials
import HostSystem

/// Extracts an archive into a new directory, refusing anything that could escape it or exhaust
/// the disk, and leaving nothing behind when it refuses.
///
/// How (and why not libarchive's `archive_write_disk`): entries are written by this module
/// through `openat` relative to a directory descriptor of a staging directory. Every path
/// component is opened with `O_NOFOLLOW | O_DIRECTORY` and every file is created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW`, so no entry is ever written through a symbolic link, nothing
/// extracted earlier is overwritten, and the process's working directory plays no part.
/// libarchive's disk writer cannot give those guarantees here: `SECURE_NOABSOLUTEPATHS` makes it
/// extract relative to the working directory (process-wide, racy across threads) and
/// `SECURE_SYMLINKS` still creates a symbolic link that points outside.
///
/// - Important: Refused, whatever the limits:
///   - entry paths that are absolute or contain `..` (``ArchiveError/Code/unsafePath``);
///   - symbolic links whose target is absolute, climbs above the destination, or has `..` after
///     a name; hard links to anything but a regular file extracted earlier
///     (``ArchiveError/Code/escapingLink``);
///   - entries whose path passes through a symbolic link or a file (``ArchiveError/Code/traversesLink``);
///   - device nodes, FIFOs, sockets (``ArchiveError/Code/unsupportedEntryType``);
///   - a second entry with the path of a file or link already extracted (``ArchiveError/Code/duplicateEntry``);
///   - exceeding any of ``ExtractionLimits``.
///
/// The archive is extracted into `.<name>.extract-<random>` next to the destination, which is
/// renamed to the destination only after every entry succeeded; on any error the staging
/// directory is removed, so the destination is untouched (it still does not exist, or is still
/// the empty directory it was). Permission bits are kept without setuid, setgid and sticky
/// bits; owners are not restored. Directory modes and times are applied last, deepest first.
/// The destination directory itself gets mode 0755.
public struct ArchiveExtractor: Sendable {
    /// The bomb limits in force.
    public var limits: ExtractionLimits

    /// Creates an extractor.
    ///
    /// - Parameter limits: The bomb limits; ``ExtractionLimits/default`` when omitted.
    public init(limits: ExtractionLimits = .default) {
        self.limits = limits
    }

    /// Extracts the archive at `archive` into `destination`, which must not exist yet (or be an
    /// empty directory); its parent must exist.
    ///
    /// - Parameters:
    ///   - archive: A tar, tar.gz (or other supported compression) or zip file.
    ///   - destination: The directory to create.
    /// - Returns: What was extracted.
    /// - Throws: ``ArchiveError``; every refusal names the archive and the entry.
    @discardableResult
    public func extract(archiveAt archive: URL, into destination: URL) throws -> ExtractionSummary {
        let reader = try ArchiveReader(contentsOf: archive)
        defer { try? reader.finish() }
        return try extract(from: reader, into: destination)
    }

    /// Extracts all remaining entries of `reader` into `destination` (see ``extract(archiveAt:into:)``).
    ///
    /// The compression ratio is measured against ``ArchiveReader/archiveSize`` when the reader
    /// knows it, else against the bytes consumed so far.
    ///
    /// - Parameters:
    ///   - reader: An archive positioned before its first entry.
    ///   - destination: The directory to create.
    /// - Returns: What was extracted.
    /// - Throws: ``ArchiveError``.
    @discardableResult
    public func extract(from reader: ArchiveReader, into destination: URL) throws -> ExtractionSummary {
        let destinationPath = destination.path(percentEncoded: false)
        let archive = reader.archiveName
        let parentPath = destination.deletingLastPathComponent().path(percentEncoded: false)
        let name = destination.lastPathComponent
        let parent: FileDescriptor
        do {
            parent = try FileDescriptor.open(parentPath.isEmpty ? "." : parentPath, [.readOnly, .directory])
        } catch {
            throw ArchiveError.io(
                error, "openat", "cannot open the parent of the destination \(destinationPath)", archive: archive)
        }
        defer { try? parent.close() }
        try checkDestination(name, in: parent, path: destinationPath, archive: archive)

        let stagingName = ".\(name).extract-\(randomSuffix())"
        do {
            try parent.makeDirectory(stagingName, permissions: 0o700)
        } catch {
            throw ArchiveError.io(
                error, "mkdirat", "cannot create a staging directory next to \(destinationPath)", archive: archive)
        }
        do {
            return try extract(
                from: reader, intoStaging: stagingName, in: parent, renamingTo: name, path: destinationPath)
        } catch {
            try? parent.removeTree(stagingName)
            throw error
        }
    }

    /// Extracts every entry into the staging directory `stagingName` of `parent`, then renames it
    /// to `name`; the caller removes the staging directory when this throws.
    private func extract(
        from reader: ArchiveReader, intoStaging stagingName: String, in parent: FileDescriptor,
        renamingTo name: String, path destinationPath: String
    ) throws -> ExtractionSummary {
        let archive = reader.archiveName
        let what = "cannot extract \(archive) into \(destinationPath)"
        let staging: FileDescriptor
        do {
            staging = try FileDescriptor.open(stagingName, relativeTo: parent, [.readOnly, .directory, .noFollow])
        } catch {
            throw ArchiveError.io(error, "openat", what, archive: archive)
        }
        defer { try? staging.close() }
        var session = ExtractionSession(root: staging, reader: reader, limits: limits)
        try session.run()
        do {
            try staging.setPermissions(0o755)
        } catch {
            throw ArchiveError.io(error, "fchmod", what, archive: archive)
        }
        do {
            try parent.rename(stagingName, to: name)
        } catch let failure where failure == .directoryNotEmpty || failure == .fileExists {
            throw ArchiveError(
                .destinationExists, "\(destinationPath) appeared while \(archive) was being extracted",
                cause: failure, archive: archive)
        } catch {
            throw ArchiveError.io(error, "renameat", what, archive: archive)
        }
        return session.summary
    }

    private func checkDestination(_ name: String, in parent: FileDescriptor, path: String, archive: String) throws {
        let status: FileStatus
        do {
            status = try parent.status(ofEntry: name)
        } catch let failure where failure == .noSuchFileOrDirectory {
            return
        } catch {
            throw ArchiveError.io(error, "fstatat", "cannot stat the destination \(path)", archive: archive)
        }
        if status.kind == .directory {
            let directory: FileDescriptor
            do {
                directory = try FileDescriptor.open(name, relativeTo: parent, [.readOnly, .directory, .noFollow])
            } catch {
                throw ArchiveError.io(error, "openat", "cannot list the destination \(path)", archive: archive)
            }
            defer { try? directory.close() }
            let entries: [DirectoryEntry]
            do {
                entries = try directory.directoryEntries()
            } catch {
                throw ArchiveError.io(error, "readdir", "cannot list the destination \(path)", archive: archive)
            }
            if entries.isEmpty { return }
        }
        throw ArchiveError(
            .destinationExists, "cannot extract \(archive) into \(path): it exists and is not an empty directory",
            archive: archive)
    }
}
