import Foundation

/// A JSON value with ordered object keys, for the `--json` output of every command.
///
/// Keys print in the order given, so output is stable and diffable.
///
/// Not `Predicates.PlistValue` or `AppGroups.DefaultsValue`: an output document needs ordered keys
/// and unsigned numbers and has no dates or data (its Encoder writes them as JSON's decoder reads
/// them back); see `PlistValue` for why the three stay apart.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A whole number above `Int.max` (a 64-bit size or identifier).
    case unsigned(UInt64)
    /// A number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keys in order.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }

    /// A string value, or null.
    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// An array of strings.
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// The JSON text, pretty-printed with two-space indentation.
    public func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: 0, pretty: pretty)
        return out
    }

    /// Writes the object `{pairs…, key: [elements…], trailing…}` exactly as ``rendered(pretty:)``
    /// prints it, but renders the array one element at a time and hands the text to `write` in
    /// chunks of about 1 MiB: a 100 000-entry listing never exists as one value tree or one string.
    public static func streamObject(
        _ pairs: [(String, JSONValue)], array key: String, count: Int, element: (Int) throws -> JSONValue,
        trailing: [(String, JSONValue)] = [], to write: (String) -> Void
    ) rethrows {
        try streamObject(
            pairs, array: key,
            elements: { emit in
                for index in 0..<count { try emit(try element(index)) }
            }, trailing: trailing, to: write)
    }

    /// ``streamObject(_:array:count:element:trailing:to:)`` for elements whose number is not known
    /// in advance: `elements` hands each one to `emit` as it produces it (while reading a journal,
    /// say), so nothing but the element being written is held.
    public static func streamObject(
        _ pairs: [(String, JSONValue)], array key: String,
        elements: (_ emit: (JSONValue) throws -> Void) throws -> Void,
        trailing: [(String, JSONValue)] = [], to write: (String) -> Void
    ) rethrows {
        var out = "{\n"
        for pair in pairs {
            out += "  "
            writeMember(pair, indent: 0, pretty: true, into: &out)
            out += ",\n"
        }
        out += "  "
        escape(key, into: &out)
        out += ": ["
        var any = false
        try withoutActuallyEscaping(write) { flush in
            try elements { element in
                out += any ? ",\n    " : "\n    "
                any = true
                element.write(into: &out, indent: 2, pretty: true)
                if out.utf8.count >= 1 << 20 {
                    flush(out)
                    out = ""
                }
            }
        }
        out += any ? "\n  ]" : "]"
        for pair in trailing {
            out += ",\n  "
            writeMember(pair, indent: 0, pretty: true, into: &out)
        }
        out += "\n}"
        write(out)
    }

    private func write(into out: inout String, indent: Int, pretty: Bool) {
        // Padding is made only for containers: a 100 000-entry inbox has a million scalar values.
        var innerPad: String { pretty ? String(repeating: "  ", count: indent + 1) : "" }
        var closePad: String { pretty ? String(repeating: "  ", count: indent) : "" }
        let newline = pretty ? "\n" : ""
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .unsigned(let value): out += String(value)
        case .double(let value):
            if value.isFinite {
                if value == value.rounded(), abs(value) < 1e15 {
                    out += String(Int64(value))
                } else {
                    out += "\(value)"
                }
            } else {
                out += "null"
            }
        case .string(let value): JSONValue.escape(value, into: &out)
        case .array(let values):
            if values.isEmpty {
                out += "[]"
                return
            }
            out += "[" + newline
            let pad = innerPad
            for (index, value) in values.enumerated() {
                out += pad
                value.write(into: &out, indent: indent + 1, pretty: pretty)
                if index < values.count - 1 { out += "," }
                out += newline
            }
            out += closePad + "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            let pad = innerPad
            for (index, pair) in pairs.enumerated() {
                out += pad
                JSONValue.writeMember(pair, indent: indent, pretty: pretty, into: &out)
                if index < pairs.count - 1 { out += "," }
                out += newline
            }
            out += closePad + "}"
        }
    }

    /// `"key": value` of an object whose own indentation is `indent`.
    private static func writeMember(_ pair: (String, JSONValue), indent: Int, pretty: Bool, into out: inout String) {
        escape(pair.0, into: &out)
        out += pretty ? ": " : ":"
        pair.1.write(into: &out, indent: indent + 1, pretty: pretty)
    }

    private static func escape(_ text: String, into out: inout String) {
        out += "\""
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(s.value, radix: 16).count)
                    + String(s.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
