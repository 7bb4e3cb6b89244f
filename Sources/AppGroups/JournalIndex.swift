import Foundation
import HostSystem

/// The in-memory copy of a container's journal, brought up to date incrementally: only bytes past
/// the last whole record already read are scanned again.
///
/// A writer that never lists entries (the extension) keeps only the last sequence number and the
/// valid end (`retainsEntries == false`), and reads the journal as frames (length, CRC, sequence)
/// through one 1 MiB buffer without decoding them: a retained copy grows with the container's
/// history and with every commit — about 1 KiB an entry, which put a 100 000-attachment share over
/// the extension's 120 MiB limit. Without retention ``refreshAll(repair:)`` decodes the entries
/// from the journal in a second scan.
final class JournalIndex: Sendable {
    struct State: Sendable {
        var id: UUID
        var validEnd: Int64
        var lastSequence = 0
        var entries: [JournalEntry] = []
    }

    private let directory: ContainerDirectory
    private let state: Locked<State>
    /// Whether entries read or appended are kept in memory.
    let retainsEntries: Bool

    init(directory: ContainerDirectory, id: UUID, retainsEntries: Bool = true) {
        self.directory = directory
        self.retainsEntries = retainsEntries
        state = Locked(State(id: id, validEnd: Int64(Journal.headerSize)))
    }

    var id: UUID { state.withLock { $0.id } }
    /// The next sequence number and the offset where the next record goes.
    var next: (sequence: Int, offset: Int64) {
        state.withLock { ($0.lastSequence + 1, $0.validEnd) }
    }

    func appended(_ entries: [JournalEntry], newEnd: Int64) {
        state.withLock { state in
            if let last = entries.last { state.lastSequence = last.sequence }
            if retainsEntries { state.entries += entries }
            state.validEnd = newEnd
        }
    }

    /// Reads records past the last known one. With `repair` (the exclusive lock is held, so no
    /// writer is mid-append), a torn tail is truncated and fsynced.
    /// - Returns: bytes cut and why.
    @discardableResult
    func refresh(repair: Bool) throws -> (cut: Int64, damage: String?) {
        let result = try update(repair: repair, collectingAll: false)
        return (result.cut, result.damage)
    }

    /// ``refresh(repair:)``, then every whole entry: the retained copy, or without retention the
    /// records this refresh read when it read the journal from its start (a store's first refresh,
    /// as recovery on open does), else a second scan of the same open journal.
    func refreshAll(repair: Bool) throws -> (entries: [JournalEntry], cut: Int64, damage: String?) {
        let result = try update(repair: repair, collectingAll: true)
        return (result.entries, result.cut, result.damage)
    }

    private func update(repair: Bool, collectingAll: Bool) throws
        -> (entries: [JournalEntry], cut: Int64, damage: String?)
    {
        let path = try ContainerPath(AppGroupStore.journalPath)
        let fd = try directory.open(path, repair ? .readWrite : .readOnly)
        defer { try? fd.close() }
        let id = try Journal.readHeader(fd, path: path.description)
        let start = state.withLock { state -> Int64 in
            if state.id != id { state = State(id: id, validEnd: Int64(Journal.headerSize)) }
            return state.validEnd
        }
        var entries: [JournalEntry] = []
        let scan: Journal.Scan
        if retainsEntries {
            scan = try Journal.scan(fd, from: start, path: path.description)
            appended(scan.entries, newEnd: scan.validEnd)
            if collectingAll { entries = state.withLock { $0.entries } }
        } else {
            // Only the frames, from the checkpoint on when it can be trusted: memory stays one read
            // buffer, and time does not grow with the history.
            var start = start
            if start == Int64(Journal.headerSize), let length = try? fd.status().size,
                let checkpoint = JournalCheckpoint.trusted(in: directory, journal: id, fd: fd, length: length)
            {
                start = checkpoint.validEnd
                state.withLock { state in
                    state.lastSequence = checkpoint.lastSequence
                    state.validEnd = checkpoint.validEnd
                }
            }
            let frames = try Journal.frames(fd, from: start, path: path.description)
            scan = frames.scan
            state.withLock { state in
                if frames.lastSequence > 0 { state.lastSequence = frames.lastSequence }
                state.validEnd = frames.scan.validEnd
            }
            if collectingAll {
                entries = try Journal.scan(fd, from: Int64(Journal.headerSize), path: path.description).entries
            }
        }
        guard scan.fileLength > scan.validEnd else { return (entries, 0, nil) }
        guard repair else { return (entries, 0, scan.damage) }
        do throws(Errno) {
            try fd.truncate(toSize: scan.validEnd)
            try fd.sync()
        } catch {
            throw AppGroupError.write(error, path: path.description)
        }
        return (entries, scan.fileLength - scan.validEnd, scan.damage)
    }
}
