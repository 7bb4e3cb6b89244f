import AppGroups
import Foundation

extension ContainerReports.Entry {
    /// Appends `entry`'s JSON (UTF-8) to `out` exactly as `JSONValue(encoding: Entry(entry, url:))`
    /// renders at depth `indent` (pretty, two-space indentation) — the same keys in the same order,
    /// the same escaping, `url` null when absent — without building the entry's strings or a value
    /// tree: `app inbox --json` writes 100 000 of them.
    /// - Parameter filePath: the file's absolute path (what `url?.path` would be), or nil.
    static func writeJSON(_ entry: JournalEntry, filePath: String?, indent: Int, into out: inout [UInt8]) {
        // Each member opens with `,\n` (but the first), the padding (made once per entry) and `"key": `.
        let pad = String(repeating: " ", count: 2 * (indent + 1))
        func key(_ name: StaticString, first: Bool = false) {
            if !first { out.append(contentsOf: ",\n".utf8) }
            out.append(contentsOf: pad.utf8)
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: "\": ".utf8)
        }
        func string(_ name: StaticString, _ value: String) {
            key(name)
            escape(value, into: &out)
        }
        out.append(contentsOf: "{\n".utf8)
        key("sequence", first: true)
        decimal(Int64(entry.sequence), into: &out)
        key("id")
        uuid(entry.id, into: &out)
        string("name", entry.name)
        string("path", entry.path.description)
        string("type", entry.typeIdentifier)
        key("size")
        decimal(entry.size, into: &out)
        string("sha256", entry.sha256)
        key("committedAt")
        out.append(UInt8(ascii: "\""))
        if !ContainerReports.iso8601(entry.committedAt, into: &out) {
            out.append(contentsOf: ContainerReports.iso8601(entry.committedAt).utf8)
        }
        out.append(UInt8(ascii: "\""))
        string("source", entry.source)
        if let filePath {
            string("url", filePath)
        } else {
            key("url")
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
        out.append(UInt8(ascii: "}"))
    }

    /// `text` as a JSON string literal, as ``JSONValue`` prints it: copied as is when nothing in
    /// it needs escaping (the usual case), through ``JSONValue``'s own escaping otherwise.
    private static func escape(_ text: String, into out: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: utf8)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if !plain {
            var escaped = ""
            JSONValue.escape(text, into: &escaped)
            out.append(contentsOf: escaped.utf8)
        }
    }

    /// `value` in decimal, as `String(value)` prints it.
    private static func decimal(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // up to 20 digits, reversed
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// `id.uuidString` (upper-case hex, 8-4-4-4-12), quoted.
    private static func uuid(_ id: UUID, into out: inout [UInt8]) {
        func hex(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10 }
        out.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hex(byte >> 4))
                out.append(hex(byte & 0x0f))
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
