import Foundation
import HostSystem

/// `.exthost/journal.checkpoint`: where the journal's records were last known whole, so that a
/// writer opening the group checks only what was appended since instead of every record of its
/// history (a 100 000-entry journal is about 20 MB).
///
/// Written after each commit's journal append is durable, in place and without fsync: a torn or
/// lost checkpoint fails its own CRC or names an older end, and the reader then scans more. It is
/// trusted only when it names this journal (its UUID) and the record it says is the last one is
/// there, whole, ending exactly where it says, with the CRC it recorded; otherwise the journal is
/// scanned from its start. Records before the checkpoint are not re-checked on open;
/// `container verify` reads every one.
///
/// Format (little-endian, 56 bytes): `EXTHCKPT`, the journal UUID (16), the last record's offset
/// (8), the end of the last whole record (8), its sequence number (8), its frame CRC (4), and a
/// CRC-32C of the 52 bytes before it (4).
struct JournalCheckpoint: Equatable {
    var journal: UUID
    var lastRecordOffset: Int64
    var validEnd: Int64
    var lastSequence: Int
    var lastRecordCRC: UInt32

    static let path = ContainerPath(components: [".exthost", "journal.checkpoint"])
    static let magic = Array("EXTHCKPT".utf8)
    static let size = 56

    var bytes: [UInt8] {
        var out = Self.magic
        withUnsafeBytes(of: journal.uuid) { out += $0 }
        out += Journal.le64(UInt64(bitPattern: lastRecordOffset)) + Journal.le64(UInt64(bitPattern: validEnd))
        out += Journal.le64(UInt64(lastSequence)) + Journal.le32(lastRecordCRC)
        return out + Journal.le32(CRC32C.checksum(out))
    }

}

extension JournalCheckpoint {
    /// Parses `bytes`; nil when they are not a whole checkpoint.
    init?(_ bytes: [UInt8]) {
        guard bytes.count == Self.size, Array(bytes[0..<8]) == Self.magic,
            CRC32C.checksum(Array(bytes[0..<52])) == Journal.readLE32(bytes, 52)
        else { return nil }
        journal = UUID(uuid: Array(bytes[8..<24]).withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
        lastRecordOffset = Int64(bitPattern: Journal.readLE64(bytes, 24))
        validEnd = Int64(bitPattern: Journal.readLE64(bytes, 32))
        lastSequence = Int(truncatingIfNeeded: Journal.readLE64(bytes, 40))
        lastRecordCRC = Journal.readLE32(bytes, 48)
    }

    /// The checkpoint of `directory`'s journal `fd` (UUID `journal`, `length` bytes long), if there
    /// is one it can trust.
    static func trusted(in directory: ContainerDirectory, journal: UUID, fd: FileDescriptor, length: Int64)
        -> JournalCheckpoint?
    {
        guard let bytes = try? directory.readFile(path, limit: size), let checkpoint = JournalCheckpoint(bytes),
            checkpoint.journal == journal, checkpoint.lastRecordOffset >= Int64(Journal.headerSize),
            checkpoint.validEnd <= length, checkpoint.lastRecordOffset + 8 < checkpoint.validEnd
        else { return nil }
        var frame = [UInt8](repeating: 0, count: 8)
        let count =
            (try? frame.withUnsafeMutableBytes {
                try fd.read(fromAbsoluteOffset: checkpoint.lastRecordOffset, into: $0)
            }) ?? 0
        guard count == 8, checkpoint.lastRecordOffset + 8 + Int64(Journal.readLE32(frame, 0)) == checkpoint.validEnd,
            Journal.readLE32(frame, 4) == checkpoint.lastRecordCRC
        else { return nil }
        return checkpoint
    }

    /// Writes the checkpoint in place (no fsync; see the type's documentation). Failures are ignored:
    /// a missing checkpoint only makes the next open scan the whole journal.
    func write(in directory: ContainerDirectory) {
        guard let fd = try? directory.open(Self.path, [.writeOnly, .create], permissions: 0o644) else { return }
        defer { try? fd.close() }
        try? fd.writeAll(bytes)
    }
}
