public import Foundation
public import HostSystem

extension AppGroupStore {
    /// Starts an entry: a temporary file in the directory of its final path (by default
    /// `Inbox/<8 hex>-<name>`, the name made safe), to be written and passed to ``commit(_:)``.
    /// - Throws: ``AppGroupError`` `.invalidPath`, `.io`.
    public func makeEntry(name: String, typeIdentifier: String, path: ContainerPath? = nil, permissions: UInt32 = 0o644)
        throws -> EntryWriter
    {
        let final = try path ?? Self.inboxPath(for: name)
        let staged = try directory.stage(in: final.parent, permissions: permissions)
        return EntryWriter(
            name: name, typeIdentifier: typeIdentifier, path: final, hasGeneratedPath: path == nil, staged: staged)
    }

    /// Starts an entry by moving the file at `url` into the container instead of copying it (the
    /// file must be on the container's file system, a regular file with no other hard link); nil
    /// when it cannot be moved, leaving it where it is for the caller to copy with
    /// ``makeEntry(name:typeIdentifier:path:permissions:)``. The file's bytes are hashed and synced
    /// at ``commit(_:)`` like any entry's; until then it is a locked temporary file recovery skips.
    /// - Throws: ``AppGroupError`` `.invalidPath`, `.notFound`, `.io`.
    public func makeEntry(
        name: String, typeIdentifier: String, movingFileAt url: URL, path: ContainerPath? = nil,
        permissions: UInt32 = 0o644
    ) throws -> EntryWriter? {
        let final = try path ?? Self.inboxPath(for: name)
        guard let staged = try directory.stage(movingFileAt: url, in: final.parent, permissions: permissions) else {
            return nil
        }
        return EntryWriter(
            name: name, typeIdentifier: typeIdentifier, path: final, hasGeneratedPath: path == nil, staged: staged)
    }

    /// Commits `writers` as one batch: each file is made durable (fsync, or for a batch of at least
    /// ``batchSyncThreshold`` files one `syncfs` of the container's filesystem — the durability of
    /// `sync -f`, and a write-back error of any file is reported); then, under the exclusive container
    /// lock, renamed into place (never over an existing file), its directory fsynced, and all their
    /// records appended to the journal in one write and fsynced. Then the commit notification is
    /// posted (a failed post is not an error: the entries are committed).
    ///
    /// On any failure nothing of the batch is visible: published files are removed, the journal is
    /// cut back, temporary files are unlinked.
    /// - Returns: the committed entries, in order.
    /// - Throws: ``AppGroupError`` (`.alreadyExists` when a path is taken).
    @discardableResult
    public func commit(_ writers: [EntryWriter]) throws -> [JournalEntry] {
        defer { for writer in writers { writer.discard() } }
        var summaries: [(size: Int64, sha256: String)] = []
        let syncsOnce = writers.count >= Self.batchSyncThreshold
        for writer in writers { summaries.append(try writer.staged.finish(syncing: !syncsOnce)) }
        if syncsOnce, let first = writers.first {
            do { try first.staged.descriptor.syncFileSystem() } catch {
                throw AppGroupError.sync(error, path: first.path.description)
            }
        }
        let committed = try lock.withLock(.exclusive) { () throws -> [JournalEntry] in
            try index.refresh(repair: true)
            var published: [ContainerPath] = []
            do {
                for (position, writer) in writers.enumerated() {
                    // One directory sync per directory: the last publish into it syncs it.
                    let later = writers[(position + 1)...].contains { $0.path.parent == writer.path.parent }
                    try writer.publish(syncingDirectory: !later)
                    published.append(writer.path)
                }
                let (first, start) = index.next
                let now = Date()
                var entries: [JournalEntry] = []
                var bytes: [UInt8] = []
                var lastRecord: [UInt8] = []
                for (index, writer) in writers.enumerated() {
                    let entry = JournalEntry(
                        sequence: first + index, id: UUID(), name: writer.name, path: writer.path,
                        typeIdentifier: writer.typeIdentifier, size: summaries[index].size,
                        sha256: summaries[index].sha256, committedAt: now, source: source)
                    entries.append(entry)
                    lastRecord = Journal.record(entry)
                    bytes += lastRecord
                }
                try appendToJournal(bytes, expectedEnd: start)
                index.appended(entries, newEnd: start + Int64(bytes.count))
                if let last = entries.last {
                    JournalCheckpoint(
                        journal: index.id, lastRecordOffset: start + Int64(bytes.count - lastRecord.count),
                        validEnd: start + Int64(bytes.count), lastSequence: last.sequence,
                        lastRecordCRC: Journal.readLE32(lastRecord, 4)
                    ).write(in: directory)
                }
                return entries
            } catch {
                for path in published { try? directory.removeFile(path) }
                throw error
            }
        }
        try? commitNotification.post()
        return committed
    }

    /// From this many files on, a batch is made durable with one `syncfs` instead of one `fsync`
    /// per file (measured by Scripts/bench-containers: see README).
    public static var batchSyncThreshold: Int { 8 }

    /// Commits one entry holding `bytes`.
    /// - Throws: ``AppGroupError``.
    @discardableResult
    public func commit(name: String, typeIdentifier: String, bytes: [UInt8], path: ContainerPath? = nil) throws
        -> JournalEntry
    {
        let writer = try makeEntry(name: name, typeIdentifier: typeIdentifier, path: path)
        try writer.write(bytes)
        return try commit([writer])[0]
    }

    /// Commits one entry copied from `source` (clone, `copy_file_range`, or a bounded buffer).
    /// - Throws: ``AppGroupError``.
    @discardableResult
    public func commit(
        name: String, typeIdentifier: String, copyingFrom source: FileDescriptor, path: ContainerPath? = nil
    )
        throws -> JournalEntry
    {
        let writer = try makeEntry(name: name, typeIdentifier: typeIdentifier, path: path)
        try writer.copy(from: source)
        return try commit([writer])[0]
    }

    /// Commits one entry copied from the file at `url` (outside the container), named after it.
    /// - Throws: ``AppGroupError`` (`.notFound` for a missing source).
    @discardableResult
    public func commit(contentsOf url: URL, typeIdentifier: String, name: String? = nil, path: ContainerPath? = nil)
        throws -> JournalEntry
    {
        let source: FileDescriptor
        do { source = try FileDescriptor.open(url.path) } catch { throw AppGroupError.open(error, path: url.path) }
        defer { try? source.close() }
        return try commit(
            name: name ?? url.lastPathComponent, typeIdentifier: typeIdentifier, copyingFrom: source, path: path)
    }

    /// `Inbox/<8 hex>-<safe name>`.
    static func inboxPath(for name: String) throws -> ContainerPath {
        var safe = String(
            name.map { $0 == "/" || $0 == "\0" ? "_" : $0 }.prefix(180))
        if safe.isEmpty { safe = "item" }
        if safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
        let tag = String(UInt32.random(in: .min ... .max), radix: 16)
        let padded = String(repeating: "0", count: 8 - tag.count) + tag
        return try ContainerPath(inboxDirectory).appending("\(padded)-\(safe)")
    }

    private func appendToJournal(_ bytes: [UInt8], expectedEnd: Int64) throws {
        let path = try ContainerPath(Self.journalPath)
        let fd = try directory.open(path, [.writeOnly, .append])
        defer { try? fd.close() }
        do throws(Errno) {
            try fd.writeAll(bytes)
            try fd.sync()
        } catch {
            // Cut any partial record so the journal ends on a whole one.
            try? fd.truncate(toSize: expectedEnd)
            try? fd.sync()
            throw AppGroupError.write(error, path: path.description)
        }
    }
}
