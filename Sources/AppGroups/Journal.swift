import Foundation
import HostSystem

/// The append-only journal of committed entries, `.exthost/journal` in the group container.
///
/// Format (little-endian): a 32-byte header, `EXTHJRNL`, version `UInt32` = 1, 4 reserved bytes,
/// the journal's UUID (16 bytes); then records, each `UInt32 length | UInt32 CRC-32C(length bytes +
/// payload) | payload`. A record is appended with one `write` on an `O_APPEND` descriptor and
/// fsynced, after the entry's file is durable. Reading stops at the first frame that is short or
/// fails its CRC: that is a torn tail, which recovery truncates away.
enum Journal {
    static let magic = Array("EXTHJRNL".utf8)
    static let headerSize = 32
    static let maximumRecord = 1 << 20

    /// The result of reading the journal from some offset.
    struct Scan: Sendable {
        var entries: [JournalEntry]
        /// Where the last whole record ends.
        var validEnd: Int64
        /// The file's length when read.
        var fileLength: Int64
        /// Why reading stopped before the end, when it did.
        var damage: String?
    }

    static func header(id: UUID) -> [UInt8] {
        var bytes = magic
        bytes += le32(1) + le32(0)
        withUnsafeBytes(of: id.uuid) { bytes += $0 }
        return bytes
    }

    /// The journal UUID from the header.
    static func readHeader(_ fd: FileDescriptor, path: String) throws -> UUID {
        var header = [UInt8](repeating: 0, count: headerSize)
        let count: Int
        do {
            count = try header.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: 0, into: $0) }
        } catch let error as Errno {
            throw AppGroupError.read(error, path: path)
        }
        guard count == headerSize, Array(header[0..<8]) == magic, header[8] == 1 else {
            throw AppGroupError(.corrupt, "\(path): not an exthost journal (bad header)")
        }
        let raw = Array(header[16..<32])
        let uuid = raw.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return UUID(uuid: uuid)
    }

    /// Reads whole records from `offset` to the end of the file, decoding every entry.
    static func scan(_ fd: FileDescriptor, from offset: Int64, path: String) throws -> Scan {
        var entries: [JournalEntry] = []
        var scan = try walk(fd, from: offset, path: path, decoding: true) {
            entries.append($0)
            return true
        }
        scan.entries = entries
        return scan
    }

    /// Checks the records from `offset` to the end — framing, CRC, and the sequence number of the
    /// last one — without decoding them or holding them: memory is one read buffer, however long
    /// the journal. `Scan.entries` is empty; ``Frames/lastSequence`` is 0 when no record was read.
    static func frames(_ fd: FileDescriptor, from offset: Int64, path: String) throws -> Frames {
        var last = 0
        let scan = try walk(fd, from: offset, path: path, decoding: false, lastSequence: &last) { _ in true }
        return Frames(scan: scan, lastSequence: last)
    }

    /// What ``frames(_:from:path:)`` found.
    struct Frames {
        var scan: Scan
        var lastSequence: Int
    }

    /// Calls `visit` with each whole record from `offset` on (decoded when `decoding`; records
    /// numbered `skippingThrough` or lower are checked but not decoded), reading 1 MiB at a time;
    /// stops at the first short or damaged frame, or when `visit` returns false.
    static func walk(
        _ fd: FileDescriptor, from offset: Int64, path: String, decoding: Bool, skippingThrough: Int = 0,
        visit: (JournalEntry) throws -> Bool
    ) throws -> Scan {
        var last = 0
        return try walk(
            fd, from: offset, path: path, decoding: decoding, skippingThrough: skippingThrough, lastSequence: &last,
            visit: visit)
    }

    private static func walk(
        _ fd: FileDescriptor, from offset: Int64, path: String, decoding: Bool, skippingThrough: Int = 0,
        lastSequence: inout Int, visit: (JournalEntry) throws -> Bool
    ) throws -> Scan {
        let length: Int64
        do { length = try fd.status().size } catch { throw AppGroupError.read(error, path: path) }
        // A window of the file: `window[0..<filled]` holds bytes from `windowStart`.
        var window = [UInt8](repeating: 0, count: 1 << 20)
        var windowStart = offset
        var filled = 0
        var position = offset
        var damage: String?
        /// Makes `count` bytes from `position` available in the window; false at the end of the file.
        func ensure(_ count: Int) throws -> Bool {
            if position + Int64(count) <= windowStart + Int64(filled) { return true }
            let keep = Int(windowStart + Int64(filled) - position)
            if keep > 0 {
                let from = Int(position - windowStart)
                window.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    base.copyMemory(from: base + from, byteCount: keep)
                }
            }
            if count > window.count { window += [UInt8](repeating: 0, count: count - window.count) }
            windowStart = position
            filled = max(keep, 0)
            do {
                try window.withUnsafeMutableBytes { raw in
                    while filled < raw.count {
                        let read = try fd.read(
                            fromAbsoluteOffset: windowStart + Int64(filled),
                            into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                        if read == 0 { break }
                        filled += read
                    }
                }
            } catch let error as Errno {
                throw AppGroupError.read(error, path: path)
            }
            return filled >= count
        }
        while position < length {
            guard try ensure(8) else {
                damage = "record at byte \(position): \(length - position) bytes, too short for a frame"
                break
            }
            let at = Int(position - windowStart)
            let size = Int(readLE32(window, at))
            let storedCRC = readLE32(window, at + 4)
            guard size > 0, size <= maximumRecord, position + 8 + Int64(size) <= length, try ensure(8 + size) else {
                damage = "record at byte \(position): length \(size) runs past the end of the file"
                break
            }
            let base = Int(position - windowStart)
            let crc = window.withUnsafeBytes { raw in
                let lengthCRC = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[base..<(base + 4)]))
                return CRC32C.checksum(
                    UnsafeRawBufferPointer(rebasing: raw[(base + 8)..<(base + 8 + size)]), continuing: lengthCRC)
            }
            let payload = window[(base + 8)..<(base + 8 + size)]
            guard crc == storedCRC, payload.count >= 9, payload.first == 1 else {
                damage = "record at byte \(position): checksum mismatch (torn write)"
                break
            }
            let sequence = Int(truncatingIfNeeded: readLE64(window, base + 9))
            lastSequence = sequence
            position += 8 + Int64(size)
            if decoding && sequence > skippingThrough {
                guard let entry = decode(payload) else {
                    position -= 8 + Int64(size)
                    damage = "record at byte \(position): checksum mismatch (torn write)"
                    break
                }
                if try !visit(entry) { break }
            }
        }
        return Scan(entries: [], validEnd: position, fileLength: length, damage: damage)
    }

    // MARK: - Records

    static func record(_ entry: JournalEntry) -> [UInt8] {
        let payload = encode(entry)
        let lengthBytes = le32(UInt32(payload.count))
        let crc = payload.withUnsafeBytes { raw in
            CRC32C.checksum(raw, continuing: CRC32C.checksum(lengthBytes))
        }
        return lengthBytes + le32(crc) + payload
    }

    static func encode(_ entry: JournalEntry) -> [UInt8] {
        var out: [UInt8] = [1]
        out += le64(UInt64(entry.sequence))
        withUnsafeBytes(of: entry.id.uuid) { out += $0 }
        out += le64(entry.committedAt.timeIntervalSince1970.bitPattern)
        out += le64(UInt64(bitPattern: entry.size))
        out += hexBytes(entry.sha256)
        for text in [entry.name, entry.path.description, entry.typeIdentifier, entry.source] {
            let utf8 = Array(text.utf8.prefix(Int(UInt16.max)))
            out += [UInt8(utf8.count & 0xff), UInt8(utf8.count >> 8)] + utf8
        }
        return out
    }

    static func decode(_ slice: ArraySlice<UInt8>) -> JournalEntry? {
        // Read in place (no copy of the record); the only allocations are the entry's strings.
        slice.withUnsafeBytes { bytes -> JournalEntry? in
            guard bytes.count >= 1 + 8 + 16 + 8 + 8 + 32, bytes[0] == 1 else { return nil }
            func le64(_ at: Int) -> UInt64 {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            }
            var position = 1
            let sequence = Int(truncatingIfNeeded: le64(position))
            position += 8
            let uuid = bytes.loadUnaligned(fromByteOffset: position, as: uuid_t.self)
            position += 16
            let time = Double(bitPattern: le64(position))
            position += 8
            let size = Int64(bitPattern: le64(position))
            position += 8
            let sha = SHA256.hexString(UnsafeRawBufferPointer(rebasing: bytes[position..<(position + 32)]))
            position += 32
            func text() -> String? {
                guard position + 2 <= bytes.count else { return nil }
                let count = Int(bytes[position]) | Int(bytes[position + 1]) << 8
                position += 2
                guard position + count <= bytes.count else { return nil }
                defer { position += count }
                return String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)]), as: UTF8.self)
            }
            guard let name = text(), let pathText = text(), let type = text(), let source = text(),
                position == bytes.count, let path = try? ContainerPath(pathText)
            else { return nil }
            return JournalEntry(
                sequence: sequence, id: UUID(uuid: uuid), name: name, path: path, typeIdentifier: type, size: size,
                sha256: sha, committedAt: Date(timeIntervalSince1970: time), source: source)
        }
    }

    // MARK: - Little-endian helpers

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le64(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func readLE32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    static func readLE64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }

    static func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        func value(_ c: UInt8) -> UInt8 { c >= 0x61 ? c - 0x61 + 10 : c >= 0x41 ? c - 0x41 + 10 : c &- 0x30 }
        var out: [UInt8] = []
        var index = 0
        while index + 1 < digits.count, out.count < 32 {
            out.append(value(digits[index]) << 4 | value(digits[index + 1]))
            index += 2
        }
        return out + [UInt8](repeating: 0, count: 32 - out.count)
    }
}
