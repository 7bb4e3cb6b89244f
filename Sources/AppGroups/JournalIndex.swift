import Foundation
import HostSystem
import Synchronization

/// The in-memory copy of a container's journal, brought up to date incrementally: only bytes past
/// the last whole record already read are scanned again.
final class JournalIndex: Sendable {
    struct State: Sendable {
        var id: UUID
        var validEnd: Int64
        var entries: [JournalEntry]
    }

    private let directory: ContainerDirectory
    private let state: Mutex<State>

    init(directory: ContainerDirectory, id: UUID) {
        self.directory = directory
        state = Mutex(State(id: id, validEnd: Int64(Journal.headerSize), entries: []))
    }

    var id: UUID { state.withLock { $0.id } }
    var entries: [JournalEntry] { state.withLock { $0.entries } }
    /// The next sequence number and the offset where the next record goes.
    var next: (sequence: Int, offset: Int64) {
        state.withLock { ($0.entries.last.map { $0.sequence + 1 } ?? 1, $0.validEnd) }
    }

    func appended(_ entries: [JournalEntry], newEnd: Int64) {
        state.withLock { state in
            state.entries += entries
            state.validEnd = newEnd
        }
    }

    /// Reads records past the last known one. With `repair` (the exclusive lock is held, so no
    /// writer is mid-append), a torn tail is truncated and fsynced.
    /// - Returns: bytes cut and why.
    @discardableResult
    func refresh(repair: Bool) throws -> (cut: Int64, damage: String?) {
        let path = try ContainerPath(AppGroupStore.journalPath)
        let fd = try directory.open(path, repair ? .readWrite : .readOnly)
        defer { try? fd.close() }
        let id = try Journal.readHeader(fd, path: path.description)
        let start = state.withLock { state -> Int64 in
            if state.id != id { state = State(id: id, validEnd: Int64(Journal.headerSize), entries: []) }
            return state.validEnd
        }
        let scan = try Journal.scan(fd, from: start, path: path.description)
        appended(scan.entries, newEnd: scan.validEnd)
        guard scan.fileLength > scan.validEnd else { return (0, nil) }
        guard repair else { return (0, scan.damage) }
        do throws(Errno) {
            try fd.truncate(toSize: scan.validEnd)
            try fd.sync()
        } catch {
            throw AppGroupError.write(error, path: path.description)
        }
        return (scan.fileLength - scan.validEnd, scan.damage)
    }

    /// The damage past the last whole record, without repairing (for verify).
    func damage() throws -> (bytes: Int64, detail: String)? {
        let path = try ContainerPath(AppGroupStore.journalPath)
        let fd = try directory.open(path)
        defer { try? fd.close() }
        let scan = try Journal.scan(fd, from: state.withLock { $0.validEnd }, path: path.description)
        guard scan.fileLength > scan.validEnd else { return nil }
        return (scan.fileLength - scan.validEnd, scan.damage ?? "damaged")
    }
}
