import HostSystem

/// One extraction in progress: entries from `reader` are created under the staging directory
/// `root`, checked against the rules of ``ArchiveExtractor`` and the ``ExtractionLimits``.
struct ExtractionSession {
    let root: FileDescriptor
    let reader: ArchiveReader
    let limits: ExtractionLimits
    private(set) var summary = ExtractionSummary()
    private var entryCount = 0
    /// Directories whose mode and time are applied at the end (implicit parents get 0755).
    private var directories: [EntryPath: (permissions: UInt32, modificationTime: Int64?)] = [:]

    init(root: FileDescriptor, reader: ArchiveReader, limits: ExtractionLimits) {
        self.root = root
        self.reader = reader
        self.limits = limits
    }

    private var archive: String { reader.archiveName }

    private func refused(_ code: ArchiveError.Code, _ reason: String, _ entry: ArchiveEntry) -> ArchiveError {
        ArchiveError.refused(code, reason, archive: archive, entry: entry.path)
    }

    /// `openat`, `O_DIRECTORY | O_NOFOLLOW`: every directory of the walk.
    private static var directoryOptions: FileDescriptor.OpenOptions { [.readOnly, .directory, .noFollow] }

    private func io(_ errno: Errno, _ function: String, _ what: String, _ entry: ArchiveEntry) -> ArchiveError {
        ArchiveError.io(
            errno, function, "cannot \(what) for entry '\(entry.path)' of \(archive)", archive: archive,
            entry: entry.path)
    }

    /// Extracts every entry, then applies directory modes and times.
    mutating func run() throws {
        while let entry = try reader.nextEntry() {
            entryCount += 1
            if entryCount > limits.maximumEntryCount {
                throw refused(
                    .tooManyEntries, "the archive has more than \(limits.maximumEntryCount) entries (the limit)", entry)
            }
            let path: EntryPath
            do {
                path = try EntryPath(validating: entry.path)
            } catch {
                throw refused(.unsafePath, error.reason, entry)
            }
            switch entry.kind {
            case .directory: try makeDirectory(path, entry)
            case .file: try writeFile(path, entry)
            case .symbolicLink: try makeSymbolicLink(path, entry)
            case .hardLink: try makeHardLink(path, entry)
            case .characterDevice, .blockDevice, .fifo, .socket, .unknown:
                throw refused(
                    .unsupportedEntryType, "\(entry.kind.rawValue) entries are never extracted", entry)
            }
        }
        try applyDirectoryAttributes()
    }

    // MARK: - Walking

    /// Opens the directory `components` below the root, never following a link; missing
    /// directories are created (mode 0700 until the end) when `create`.
    private mutating func openDirectory(
        _ components: ArraySlice<String>, create: Bool, for entry: ArchiveEntry
    ) throws -> FileDescriptor {
        var current: FileDescriptor
        do {
            current = try FileDescriptor.open(".", relativeTo: root, Self.directoryOptions)
        } catch {
            throw io(error, "openat", "open the staging directory", entry)
        }
        var walked: [String] = []
        for name in components {
            walked.append(name)
            // The C function an error below comes from, for the message.
            var function = "openat"
            do {
                let next: FileDescriptor
                do {
                    next = try FileDescriptor.open(name, relativeTo: current, Self.directoryOptions)
                } catch let failure where failure == .noSuchFileOrDirectory && create {
                    function = "mkdirat"
                    try current.makeDirectory(name, permissions: 0o700)
                    let made = EntryPath(trusted: walked)
                    if directories[made] == nil { directories[made] = (0o755, nil) }
                    function = "openat"
                    next = try FileDescriptor.open(name, relativeTo: current, Self.directoryOptions)
                }
                try? current.close()
                current = next
            } catch let failure where failure == .tooManySymbolicLinks || failure == .notDirectory {
                try? current.close()
                throw refused(
                    .traversesLink,
                    "'\(walked.joined(separator: "/"))' was extracted as a symbolic link or a file, not a directory",
                    entry)
            } catch let failure where failure == .noSuchFileOrDirectory {
                try? current.close()
                throw refused(.escapingLink, "'\(walked.joined(separator: "/"))' was not extracted before", entry)
            } catch {
                try? current.close()
                throw io(error, function, "open '\(walked.joined(separator: "/"))'", entry)
            }
        }
        return current
    }

    // MARK: - Entries

    private mutating func makeDirectory(_ path: EntryPath, _ entry: ArchiveEntry) throws {
        if path.isRoot { return }
        let parent = try openDirectory(path.parent, create: true, for: entry)
        defer { try? parent.close() }
        do {
            try parent.makeDirectory(path.name, permissions: 0o700)
        } catch let failure where failure == .fileExists {
            let existing = try? parent.status(ofEntry: path.name)
            guard existing?.kind == .directory else {
                throw refused(.duplicateEntry, "a file or link with this path was extracted before", entry)
            }
        } catch {
            throw io(error, "mkdirat", "create the directory", entry)
        }
        directories[path] = (entry.permissions & 0o777, entry.modificationTime)
        summary.directoryCount += 1
    }

    private mutating func writeFile(_ path: EntryPath, _ entry: ArchiveEntry) throws {
        if path.isRoot { throw refused(.unsafePath, "a file cannot replace the destination itself", entry) }
        if let declared = entry.size, declared > 0 {
            try account(declared, entry, declared: true)
        }
        let parent = try openDirectory(path.parent, create: true, for: entry)
        defer { try? parent.close() }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(
                path.name, relativeTo: parent, [.writeOnly, .create, .exclusiveCreate, .noFollow], permissions: 0o600)
        } catch let failure where failure == .fileExists {
            throw refused(.duplicateEntry, "an entry with this path was extracted before", entry)
        } catch {
            throw io(error, "openat", "create the file", entry)
        }
        defer { try? file.close() }
        var written: Int64 = 0
        try reader.readData { chunk in
            written += Int64(chunk.count)
            try account(written, entry, declared: false)
            do throws(Errno) {
                try file.writeAll(chunk)
            } catch {
                throw io(error, "write", "write", entry)
            }
        }
        try setModeAndTime(of: file, entry.permissions & 0o777, entry.modificationTime, entry)
        summary.totalSize += written
        summary.fileCount += 1
    }

    private mutating func makeSymbolicLink(_ path: EntryPath, _ entry: ArchiveEntry) throws {
        let target = entry.linkTarget ?? ""
        if path.isRoot { throw refused(.unsafePath, "a link cannot replace the destination itself", entry) }
        do {
            try path.checkSymbolicLinkTarget(target)
        } catch {
            throw refused(.escapingLink, "symbolic link to '\(target)': \(error.reason)", entry)
        }
        let parent = try openDirectory(path.parent, create: true, for: entry)
        defer { try? parent.close() }
        do {
            try parent.makeSymbolicLink(path.name, pointingTo: target)
        } catch let failure where failure == .fileExists {
            throw refused(.duplicateEntry, "an entry with this path was extracted before", entry)
        } catch {
            throw io(error, "symlinkat", "create the symbolic link", entry)
        }
        if let time = entry.modificationTime {
            do {
                try parent.setModificationTime(time, ofEntry: path.name)
            } catch {
                throw io(error, "utimensat", "create the symbolic link", entry)
            }
        }
        summary.symbolicLinkCount += 1
    }

    private mutating func makeHardLink(_ path: EntryPath, _ entry: ArchiveEntry) throws {
        let rawTarget = entry.linkTarget ?? ""
        if path.isRoot { throw refused(.unsafePath, "a link cannot replace the destination itself", entry) }
        let target: EntryPath
        do {
            target = try EntryPath(validating: rawTarget)
        } catch {
            throw refused(.escapingLink, "hard link to '\(rawTarget)': \(error.reason)", entry)
        }
        if target.isRoot { throw refused(.escapingLink, "hard link to the destination itself", entry) }
        let targetParent = try openDirectory(target.parent, create: false, for: entry)
        defer { try? targetParent.close() }
        let status = try? targetParent.status(ofEntry: target.name)
        guard status?.kind == .regular else {
            throw refused(
                .escapingLink, "hard link to '\(rawTarget)', which is not a regular file extracted before", entry)
        }
        let parent = try openDirectory(path.parent, create: true, for: entry)
        defer { try? parent.close() }
        do {
            try parent.makeHardLink(path.name, to: target.name, in: targetParent)
        } catch let failure where failure == .fileExists {
            throw refused(.duplicateEntry, "an entry with this path was extracted before", entry)
        } catch {
            throw io(error, "linkat", "create the hard link", entry)
        }
        summary.hardLinkCount += 1
    }

    // MARK: - Limits

    /// Checks the total size and the compression ratio with `entrySize` more bytes of the
    /// current entry (declared by its header, or written so far).
    private func account(_ entrySize: Int64, _ entry: ArchiveEntry, declared: Bool) throws {
        let (total, overflow) = summary.totalSize.addingReportingOverflow(entrySize)
        let claim = declared ? "its header declares" : "it expands to"
        if overflow || total > limits.maximumTotalSize {
            throw refused(
                .tooLarge,
                "\(claim) \(entrySize) bytes, bringing the archive past its limit of \(limits.maximumTotalSize) bytes",
                entry)
        }
        guard total > limits.compressionRatioThreshold else { return }
        let archiveSize: Int64
        if let known = reader.archiveSize {
            archiveSize = known
        } else if !declared {
            archiveSize = reader.bytesConsumed
        } else {
            return
        }
        let (allowed, tooBig) = max(archiveSize, 1).multipliedReportingOverflow(by: limits.maximumCompressionRatio)
        if !tooBig && total > allowed {
            throw refused(
                .compressionRatio,
                "\(claim) \(entrySize) bytes, so \(total) bytes from a \(archiveSize)-byte archive, over the ratio limit of \(limits.maximumCompressionRatio):1",
                entry)
        }
    }

    // MARK: - Finishing

    /// Applies directory modes and times, deepest first, so a read-only directory is made so
    /// only after everything inside it exists.
    private mutating func applyDirectoryAttributes() throws {
        let ordered = directories.sorted { $0.key.components.count > $1.key.components.count }
        for (path, attributes) in ordered {
            let marker = ArchiveEntry(path: path.joined, kind: .directory)
            let directory = try openDirectory(path.components[...], create: false, for: marker)
            defer { try? directory.close() }
            try setModeAndTime(of: directory, attributes.permissions, attributes.modificationTime, marker)
        }
    }

    /// Sets the permission bits and, when known, the modification time of an open file or directory.
    private func setModeAndTime(
        of file: FileDescriptor, _ permissions: UInt32, _ modificationTime: Int64?, _ entry: ArchiveEntry
    ) throws {
        do {
            try file.setPermissions(permissions)
        } catch {
            throw io(error, "fchmod", "set the mode and time", entry)
        }
        guard let modificationTime else { return }
        do {
            try file.setModificationTime(modificationTime)
        } catch {
            throw io(error, "futimens", "set the mode and time", entry)
        }
    }
}
