import AppGroups
import Foundation

extension ContainerReports.Entry {
    /// Appends `entry`'s JSON to `out` exactly as `JSONValue(encoding: Entry(entry, url:))` renders
    /// at depth `indent` (pretty, two-space indentation) — the same keys in the same order, the
    /// same escaping, `url` null when absent — without building the entry's strings or a value tree:
    /// `app inbox --json` writes 100 000 of them.
    /// - Parameter filePath: the file's absolute path (what `url?.path` would be), or nil.
    static func writeJSON(_ entry: JournalEntry, filePath: String?, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        func key(_ name: String) {
            out += pad
            out += "\""
            out += name
            out += "\": "
        }
        func string(_ name: String, _ value: String, last: Bool = false) {
            key(name)
            JSONValue.escape(value, into: &out)
            out += last ? "\n" : ",\n"
        }
        out += "{\n"
        key("sequence")
        out += String(entry.sequence)
        out += ",\n"
        string("id", entry.id.uuidString)
        string("name", entry.name)
        string("path", entry.path.description)
        string("type", entry.typeIdentifier)
        key("size")
        out += String(entry.size)
        out += ",\n"
        string("sha256", entry.sha256)
        string("committedAt", ContainerReports.iso8601(entry.committedAt))
        string("source", entry.source)
        if let filePath {
            string("url", filePath, last: true)
        } else {
            key("url")
            out += "null\n"
        }
        out += String(repeating: "  ", count: indent)
        out += "}"
    }
}
