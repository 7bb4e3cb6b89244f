import Foundation

// Old-style (OpenStep/NeXT) property lists read into located values
// (``DocumentFormat/oldStylePropertyList``): the format of `project.pbxproj`.

extension LocatedValue {
    /// The deepest nesting an old-style property list may have: deeper input is refused rather
    /// than exhausting the stack.
    public static let oldStyleMaximumDepth = 256
}

struct OldStyleReader {
    typealias Location = LocatedValue.Location

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    /// Reads `bytes`: one value, optionally after the `// !$*UTF8*$!` comment Xcode writes, then
    /// only whitespace and comments.
    ///
    /// Strings are quoted (`"…"` with `\\`, `\"`, `\n`, `\t`, `\r`, `\UXXXX` and octal escapes) or
    /// unquoted (letters, digits and `_$+/:.-`); data is `<hex bytes>`; comments are `//` and
    /// `/* */`.
    static func read(_ bytes: [UInt8]) throws(DocumentSyntaxError) -> LocatedValue {
        var reader = OldStyleReader(bytes: bytes)
        return try reader.parseDocument()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is skipped.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        lineStart = index
    }

    var location: Location { Location(line: line, column: index - lineStart + 1) }

    func error(_ message: String, at location: Location? = nil) -> DocumentSyntaxError {
        DocumentSyntaxError(location: location ?? self.location, message: message)
    }

    mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    /// Skips whitespace and comments.
    mutating func skipTrivia() throws(DocumentSyntaxError) {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { advance() }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = location
                advance()
                advance()
                var closed = false
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/")
                    {
                        advance()
                        advance()
                        closed = true
                        break
                    }
                    advance()
                }
                if !closed { throw error("unterminated comment (it starts here)", at: start) }
            } else {
                return
            }
        }
    }

    mutating func parseDocument() throws(DocumentSyntaxError) -> LocatedValue {
        try skipTrivia()
        guard index < bytes.count else { throw error("empty file: expected a property list") }
        let value = try parseValue(depth: 0)
        try skipTrivia()
        if index < bytes.count {
            throw error("unexpected '\(Self.describe(bytes[index]))' after the property list's end")
        }
        return value
    }

    static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }

    mutating func parseValue(depth: Int) throws(DocumentSyntaxError) -> LocatedValue {
        guard depth < LocatedValue.oldStyleMaximumDepth else {
            throw error("nested more than \(LocatedValue.oldStyleMaximumDepth) levels deep")
        }
        guard index < bytes.count else { throw error("unexpected end of file: expected a value") }
        let start = location
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "{"):
            advance()
            var members: [(key: String, value: LocatedValue)] = []
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw error(
                        "unexpected end of file: the dictionary opened at \(start.line):\(start.column) is not closed")
                }
                if bytes[index] == UInt8(ascii: "}") {
                    advance()
                    return .dictionary(members, start)
                }
                let keyLocation = location
                guard case .string(let key, _) = try parseValue(depth: depth + 1) else {
                    throw error("a dictionary key must be a string", at: keyLocation)
                }
                try skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                    throw error(
                        index < bytes.count
                            ? "expected '=' after the key '\(key)', found '\(Self.describe(bytes[index]))'"
                            : "unexpected end of file: expected '=' after the key '\(key)'")
                }
                advance()
                try skipTrivia()
                let value = try parseValue(depth: depth + 1)
                try skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
                    throw error(
                        index < bytes.count
                            ? "expected ';' after the value of '\(key)', found '\(Self.describe(bytes[index]))'"
                            : "unexpected end of file: expected ';' after the value of '\(key)'")
                }
                advance()
                members.append((key, value))
            }
        case UInt8(ascii: "("):
            advance()
            var values: [LocatedValue] = []
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw error(
                        "unexpected end of file: the list opened at \(start.line):\(start.column) is not closed")
                }
                if bytes[index] == UInt8(ascii: ")") {
                    advance()
                    return .array(values, start)
                }
                values.append(try parseValue(depth: depth + 1))
                try skipTrivia()
                guard index < bytes.count else { continue }
                if bytes[index] == UInt8(ascii: ",") {
                    advance()
                } else if bytes[index] != UInt8(ascii: ")") {
                    throw error("expected ',' or ')' in the list, found '\(Self.describe(bytes[index]))'")
                }
            }
        case UInt8(ascii: "<"):
            advance()
            var data = Data()
            var high: UInt8?
            while true {
                try skipTrivia()
                guard index < bytes.count else {
                    throw error("unexpected end of file: data opened at \(start.line):\(start.column) is not closed")
                }
                let c = bytes[index]
                if c == UInt8(ascii: ">") {
                    guard high == nil else { throw error("data has an odd number of hex digits") }
                    advance()
                    return .data(data, start)
                }
                guard let nibble = Self.hexValue(c) else {
                    throw error("'\(Self.describe(c))' is not a hex digit in data")
                }
                advance()
                if let h = high {
                    data.append(h << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try parseQuoted(quote: byte, start: start), start)
        default:
            guard Self.isUnquoted(byte) else {
                throw error("unexpected '\(Self.describe(byte))': expected a string, '{', '(' or '<'")
            }
            let from = index
            while index < bytes.count, Self.isUnquoted(bytes[index]) { advance() }
            return .string(String(decoding: bytes[from..<index], as: UTF8.self), start)
        }
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    mutating func parseQuoted(quote: UInt8, start: Location) throws(DocumentSyntaxError) -> String {
        advance()
        var out: [UInt8] = []
        var units: [UInt16] = []  // pending \U escapes, decoded together (surrogate pairs)
        func flushUnits() {
            guard !units.isEmpty else { return }
            out.append(contentsOf: Array(String(decoding: units, as: UTF16.self).utf8))
            units.removeAll()
        }
        while index < bytes.count {
            let c = bytes[index]
            if c == quote {
                advance()
                flushUnits()
                guard let string = String(validating: out, as: UTF8.self) else {
                    throw error("the string is not valid UTF-8", at: start)
                }
                return string
            }
            if c != UInt8(ascii: "\\") {
                flushUnits()
                out.append(c)
                advance()
                continue
            }
            let escapeLocation = location
            advance()
            guard index < bytes.count else { break }
            let e = bytes[index]
            advance()
            switch e {
            case UInt8(ascii: "n"): flushUnits(); out.append(0x0A)
            case UInt8(ascii: "t"): flushUnits(); out.append(0x09)
            case UInt8(ascii: "r"): flushUnits(); out.append(0x0D)
            case UInt8(ascii: "a"): flushUnits(); out.append(0x07)
            case UInt8(ascii: "b"): flushUnits(); out.append(0x08)
            case UInt8(ascii: "f"): flushUnits(); out.append(0x0C)
            case UInt8(ascii: "v"): flushUnits(); out.append(0x0B)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var value: UInt16 = 0
                for _ in 0..<4 {
                    guard index < bytes.count, let nibble = Self.hexValue(bytes[index]) else {
                        throw error("'\\U' must be followed by four hex digits", at: escapeLocation)
                    }
                    value = value << 4 | UInt16(nibble)
                    advance()
                }
                units.append(value)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt16(e - UInt8(ascii: "0"))
                var count = 1
                while count < 3, index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
                    bytes[index] <= UInt8(ascii: "7")
                {
                    value = value * 8 + UInt16(bytes[index] - UInt8(ascii: "0"))
                    advance()
                    count += 1
                }
                flushUnits()
                guard value < 0x100 else { throw error("octal escape out of range", at: escapeLocation) }
                out.append(UInt8(value))
            default:
                flushUnits()
                out.append(e)
            }
        }
        throw error("unterminated string (it starts here)", at: start)
    }
}
