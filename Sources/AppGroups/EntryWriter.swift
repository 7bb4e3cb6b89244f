public import HostSystem

/// One entry being written: a staged temporary file in its final directory, committed by
/// ``AppGroupStore/commit(_:)``. Not Sendable: one owner writes it, then commits or discards it.
public final class EntryWriter {
    /// The name the entry will carry.
    public let name: String
    /// Its uniform type identifier.
    public let typeIdentifier: String
    /// Where its file will be, relative to the container. A generated inbox path
    /// (`Inbox/<8 hex>-<name>`) is drawn again at commit if another entry took it meanwhile.
    public internal(set) var path: ContainerPath
    /// Whether ``path`` was generated (and so may be redrawn) rather than asked for.
    let hasGeneratedPath: Bool
    let staged: StagedFile

    init(name: String, typeIdentifier: String, path: ContainerPath, hasGeneratedPath: Bool, staged: StagedFile) {
        self.name = name
        self.typeIdentifier = typeIdentifier
        self.path = path
        self.hasGeneratedPath = hasGeneratedPath
        self.staged = staged
    }

    /// The size of the entry's file so far.
    /// - Throws: ``AppGroupError`` `.io`.
    public func size() throws -> Int64 {
        do { return try staged.descriptor.status().size } catch {
            throw AppGroupError.read(error, path: path.description)
        }
    }

    /// Appends `bytes` to the entry's file.
    /// - Throws: ``AppGroupError`` `.io`.
    public func write(_ bytes: [UInt8]) throws { try staged.write(bytes) }

    /// Appends everything from `source` (clone, `copy_file_range` or a bounded buffer).
    /// - Throws: ``AppGroupError`` `.io`.
    @discardableResult
    public func copy(from source: FileDescriptor, startingWith method: CopyMethod = .clone) throws -> CopyMethod {
        try staged.copy(from: source, startingWith: method)
    }

    /// Publishes the staged file under ``path``, replacing nothing. A generated path another entry
    /// took meanwhile (two same-named entries drew the same 32-bit tag, likely past ~65 000 of them)
    /// is drawn again, up to 8 times; the temporary file stays in the same directory.
    /// - Throws: ``AppGroupError`` (`.alreadyExists` when a path asked for is taken).
    func publish(syncingDirectory: Bool) throws {
        var attempts = 0
        while true {
            do {
                return try staged.publish(as: path.lastComponent, replacing: false, syncingDirectory: syncingDirectory)
            } catch let error as AppGroupError where error.code == .alreadyExists && hasGeneratedPath && attempts < 8 {
                attempts += 1
                path = try AppGroupStore.inboxPath(for: name)
            }
        }
    }

    /// Whether the commit read the entry's file back to hash it (false when it used the digest
    /// exthost's loader made while copying the file, which it does only for an unchanged file).
    package var wasHashedAtCommit: Bool { staged.hashedAtFinish }

    /// Abandons the entry and removes its temporary file.
    public func discard() { staged.discard() }
}
