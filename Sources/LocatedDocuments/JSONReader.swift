// JSON text read into located values (``DocumentFormat/json``).

/// Reads JSON text (RFC 8259) with the line and column of every value.
enum JSONReader {
    /// Parses UTF-8 JSON text (RFC 8259; no comments, no trailing commas).
    static func read(_ bytes: [UInt8]) throws(DocumentSyntaxError) -> LocatedValue {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var location: LocatedValue.Location { LocatedValue.Location(line: line, column: index - lineStart + 1) }

        func error(_ message: String) -> DocumentSyntaxError {
            DocumentSyntaxError(location: location, message: message)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\n"):
                    index += 1
                    line += 1
                    lineStart = index
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(DocumentSyntaxError) -> LocatedValue {
            guard depth < 128 else { throw error("nesting deeper than 128 levels") }
            guard index < bytes.count else { throw error("unexpected end of the file; expected a value") }
            let start = location
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth, start: start)
            case UInt8(ascii: "["): return try array(depth: depth, start: start)
            case UInt8(ascii: "\""): return .string(try string(), start)
            case UInt8(ascii: "t"): try literal("true"); return .bool(true, start)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false, start)
            case UInt8(ascii: "n"): try literal("null"); return .null(start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(), start)
            default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'; expected a value")
            }
        }

        mutating func literal(_ word: String) throws(DocumentSyntaxError) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("unexpected word; expected \(word)")
            }
            index += expected.count
        }

        mutating func number() throws(DocumentSyntaxError) -> Double {
            let start = index
            while index < bytes.count,
                [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")]
                    .contains(bytes[index]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
            {
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text) else {
                index = start
                throw error("'\(text)' is not a number")
            }
            return value
        }

        mutating func string() throws(DocumentSyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            /// Appends the bytes read so far; false when they are not UTF-8 (JSON text is UTF-8).
            func flush() -> Bool {
                guard let text = String(validating: run, as: UTF8.self) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                run.removeAll(keepingCapacity: true)
                return true
            }
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    guard flush() else { throw error("a string that is not UTF-8") }
                    index += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    guard flush() else { throw error("a string that is not UTF-8") }
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{c}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
                            bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        {
                            index += 2
                            let low = try hex4()
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default:
                        index -= 1
                        throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                    }
                case 0..<0x20:
                    throw error("control character in a string (write \\n or \\t)")
                default:
                    run.append(byte)
                    index += 1
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(DocumentSyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw error("\\u must be followed by four hexadecimal digits") }
            index += 4
            return code
        }

        mutating func array(depth: Int, start: LocatedValue.Location) throws(DocumentSyntaxError) -> LocatedValue {
            index += 1
            var values: [LocatedValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values, start)
            }
            while true {
                skipWhitespace()
                values.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated array; expected ']'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
                index += 1
                return .array(values, start)
            }
        }

        mutating func object(depth: Int, start: LocatedValue.Location) throws(DocumentSyntaxError) -> LocatedValue {
            index += 1
            var members: [(key: String, value: LocatedValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .dictionary(members, start)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a key in double quotes")
                }
                let keyLocation = location
                let key = try string()
                if members.contains(where: { $0.key == key }) {
                    throw DocumentSyntaxError(location: keyLocation, message: "duplicate key '\(key)'")
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after a key")
                }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated object; expected '}'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
                index += 1
                return .dictionary(members, start)
            }
        }
    }
}
