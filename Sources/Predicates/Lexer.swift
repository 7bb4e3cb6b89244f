/// Turns predicate source text into tokens.
///
/// Works on UTF-8 bytes; every token carries its byte range. Errors are reported for the lexical
/// mistakes people actually make in Info.plist rules: typographic quotes, `//` comments,
/// unterminated strings, stray characters.
struct Lexer {
    private let bytes: [UInt8]
    private let source: String
    private var position = 0

    init(_ source: String) {
        self.source = source
        self.bytes = Array(source.utf8)
    }

    /// Tokenizes the whole source; the last token is always `.endOfInput`.
    static func tokenize(_ source: String) throws(ParseFailure) -> [Token] {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .endOfInput { return tokens }
        }
    }

    private func error(_ code: PredicateSyntaxError.Code, _ message: String, _ range: Range<Int>) -> ParseFailure {
        ParseFailure(PredicateSyntaxError(code, message, range: SourceRange(range), source: source))
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: "_")
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// The typographic quote starting at `index`, if any, with its ASCII replacement.
    private func typographicQuote(at index: Int) -> (quote: String, replacement: String)? {
        guard index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80 else { return nil }
        switch bytes[index + 2] {
        case 0x9C: return ("\u{201C}", "\"")
        case 0x9D: return ("\u{201D}", "\"")
        case 0x98: return ("\u{2018}", "'")
        case 0x99: return ("\u{2019}", "'")
        default: return nil
        }
    }

    private func scanWord(from start: Int) -> Int {
        var end = start
        while end < bytes.count, Lexer.isIdentifierPart(bytes[end]) { end += 1 }
        return end
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    mutating func next() throws(ParseFailure) -> Token {
        while let byte = peek(), Lexer.isSpace(byte) { position += 1 }
        let start = position
        guard let byte = peek() else {
            return Token(kind: .endOfInput, range: SourceRange(start..<start))
        }
        if Lexer.isIdentifierStart(byte) { return scanIdentifierOrKeyword() }
        if Lexer.isDigit(byte) || (byte == UInt8(ascii: ".") && peek(1).map(Lexer.isDigit) == true) {
            return try scanNumber()
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try scanString()
        case UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: "#"):
            position += 1
            let end = scanWord(from: position)
            guard end > position, let first = peek(), !Lexer.isDigit(first) else {
                let what =
                    byte == UInt8(ascii: "$")
                    ? "variable" : byte == UInt8(ascii: "@") ? "collection operator" : "escaped key"
                throw error(
                    .missingName, "'\(Character(Unicode.Scalar(byte)))' must be followed by a \(what) name",
                    start..<start + 1)
            }
            let name = text(position..<end)
            position = end
            let kind: TokenKind =
                switch byte {
                case UInt8(ascii: "$"): .variable(name)
                case UInt8(ascii: "@"): .atName(name)
                default: .identifier(name, escaped: true)
                }
            return Token(kind: kind, range: SourceRange(start..<end))
        case UInt8(ascii: "%"):
            return try scanArgument()
        default:
            break
        }
        if let punctuation = try scanPunctuation() {
            return Token(kind: .punctuation(punctuation), range: SourceRange(start..<position))
        }
        if let (quote, replacement) = typographicQuote(at: start) {
            throw error(
                .typographicQuote,
                "typographic quote \(quote) is not a string delimiter; use \(replacement)", start..<start + 3)
        }
        // Decode the whole scalar for the message.
        var end = start + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let character = text(start..<end)
        let shown = byte < 0x20 || byte == 0x7F ? "U+\(String(byte, radix: 16, uppercase: true))" : "'\(character)'"
        throw error(.unknownCharacter, "unexpected character \(shown)", start..<end)
    }

    // MARK: - Words

    private mutating func scanIdentifierOrKeyword() -> Token {
        let start = position
        var end = scanWord(from: start)
        let word = text(start..<end)
        let upper = word.uppercased()
        if upper == "UTI" {
            // UTI-CONFORMS-TO and UTI-EQUALS are single tokens containing hyphens.
            for (suffix, keyword) in [("-CONFORMS-TO", Keyword.utiConformsTo), ("-EQUALS", Keyword.utiEquals)] {
                let suffixBytes = Array(suffix.utf8)
                let candidateEnd = end + suffixBytes.count
                guard candidateEnd <= bytes.count else { continue }
                let matches = zip(bytes[end..<candidateEnd], suffixBytes).allSatisfy { byte, expected in
                    byte == expected || (byte >= 0x61 && byte <= 0x7A && byte - 0x20 == expected)
                }
                if matches, candidateEnd == bytes.count || !Lexer.isIdentifierPart(bytes[candidateEnd]) {
                    end = candidateEnd
                    position = end
                    return Token(kind: .keyword(keyword), range: SourceRange(start..<end))
                }
            }
        }
        position = end
        if let keyword = Keyword.byName[upper] {
            return Token(kind: .keyword(keyword), range: SourceRange(start..<end))
        }
        return Token(kind: .identifier(word, escaped: false), range: SourceRange(start..<end))
    }

    // MARK: - Numbers

    private mutating func scanNumber() throws(ParseFailure) -> Token {
        let start = position
        if peek() == UInt8(ascii: "0"), let marker = peek(1) {
            let radix: Int? =
                switch marker {
                case UInt8(ascii: "x"), UInt8(ascii: "X"): 16
                case UInt8(ascii: "o"), UInt8(ascii: "O"): 8
                case UInt8(ascii: "b"), UInt8(ascii: "B"): 2
                default: nil
                }
            if let radix {
                position += 2
                let digitsStart = position
                while let byte = peek(), Lexer.isIdentifierPart(byte) { position += 1 }
                let digits = text(digitsStart..<position)
                guard !digits.isEmpty, let value = Int(digits, radix: radix) else {
                    throw error(
                        .invalidNumber, "invalid base-\(radix) number '\(text(start..<position))'", start..<position)
                }
                return Token(kind: .integer(value), range: SourceRange(start..<position))
            }
        }
        var isDouble = false
        while let byte = peek(), Lexer.isDigit(byte) { position += 1 }
        if peek() == UInt8(ascii: "."), let next = peek(1), Lexer.isDigit(next) {
            isDouble = true
            position += 1
            while let byte = peek(), Lexer.isDigit(byte) { position += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            var lookahead = 1
            if let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { lookahead = 2 }
            if let digit = peek(lookahead), Lexer.isDigit(digit) {
                isDouble = true
                position += lookahead
                while let byte = peek(), Lexer.isDigit(byte) { position += 1 }
            }
        }
        if let byte = peek(), Lexer.isIdentifierStart(byte) {
            let end = scanWord(from: position)
            throw error(.invalidNumber, "invalid number '\(text(start..<end))'", start..<end)
        }
        let literal = text(start..<position)
        let range = SourceRange(start..<position)
        if !isDouble, let value = Int(literal) { return Token(kind: .integer(value), range: range) }
        guard let value = Double(literal) else {
            throw error(.invalidNumber, "invalid number '\(literal)'", start..<position)
        }
        return Token(kind: .double(value), range: range)
    }

    // MARK: - Strings

    private mutating func scanString() throws(ParseFailure) -> Token {
        let start = position
        let quote = bytes[start]
        position += 1
        var scalars = String.UnicodeScalarView()
        var segmentStart = position
        var firstTypographic: (index: Int, quote: String, replacement: String)?
        func flush(_ lexer: Lexer, _ upTo: Int, into scalars: inout String.UnicodeScalarView) {
            scalars.append(contentsOf: String(decoding: lexer.bytes[segmentStart..<upTo], as: UTF8.self).unicodeScalars)
        }
        while let byte = peek() {
            if byte == quote {
                flush(self, position, into: &scalars)
                position += 1
                return Token(kind: .string(String(scalars)), range: SourceRange(start..<position))
            }
            if firstTypographic == nil, let found = typographicQuote(at: position) {
                firstTypographic = (position, found.quote, found.replacement)
            }
            if byte == UInt8(ascii: "\\") {
                flush(self, position, into: &scalars)
                try scanEscape(into: &scalars)
                segmentStart = position
                continue
            }
            position += 1
        }
        let opener = quote == UInt8(ascii: "\"") ? "\"" : "'"
        if let typographic = firstTypographic {
            throw error(
                .typographicQuote,
                "unterminated string: typographic quote \(typographic.quote) is not a string delimiter; use \(opener)",
                typographic.index..<typographic.index + 3)
        }
        throw error(.unterminatedString, "unterminated string: no closing \(opener) for this quote", start..<start + 1)
    }

    private mutating func scanEscape(into scalars: inout String.UnicodeScalarView) throws(ParseFailure) {
        let start = position
        position += 1
        guard let byte = peek() else {
            throw error(.invalidEscape, "string ends in the middle of an escape sequence", start..<position)
        }
        position += 1
        func hexScalar(_ lexer: inout Lexer, count: Int) throws(ParseFailure) -> Unicode.Scalar {
            let digitsStart = lexer.position
            var digits = 0
            while digits < count, let next = lexer.peek(), next < 0x80, Character(Unicode.Scalar(next)).isHexDigit {
                lexer.position += 1
                digits += 1
            }
            guard digits > 0, let value = UInt32(lexer.text(digitsStart..<lexer.position), radix: 16),
                let scalar = Unicode.Scalar(value)
            else {
                throw lexer.error(
                    .invalidEscape, "invalid escape sequence '\(lexer.text(start..<lexer.position))'",
                    start..<lexer.position)
            }
            return scalar
        }
        switch byte {
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "a"): scalars.append("\u{07}")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "v"): scalars.append("\u{0B}")
        case UInt8(ascii: "x"), UInt8(ascii: "X"): scalars.append(try hexScalar(&self, count: 2))
        case UInt8(ascii: "u"), UInt8(ascii: "U"): scalars.append(try hexScalar(&self, count: 4))
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = UInt32(byte - UInt8(ascii: "0"))
            var digits = 1
            while digits < 3, let next = peek(), next >= UInt8(ascii: "0"), next <= UInt8(ascii: "7") {
                value = value * 8 + UInt32(next - UInt8(ascii: "0"))
                position += 1
                digits += 1
            }
            scalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: value)))
        default:
            // `\\`, `\"`, `\'` and any other escaped character stand for themselves.
            position -= 1
            var end = position + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            scalars.append(contentsOf: text(position..<end).unicodeScalars)
            position = end
        }
    }

    // MARK: - Arguments and punctuation

    private mutating func scanArgument() throws(ParseFailure) -> Token {
        let start = position
        position += 1
        var spec = ""
        // Length modifiers, then one conversion letter.
        while let byte = peek(), "lhqzjt".utf8.contains(byte) {
            spec.append(Character(Unicode.Scalar(byte)))
            position += 1
        }
        guard let byte = peek(), "@KdDiuUoOxXfFeEgGcCsSp".utf8.contains(byte) else {
            throw error(
                .invalidArgument,
                "'%' must start a format argument such as %@ or %K (a literal % belongs inside quotes)",
                start..<Swift.min(position + 1, bytes.count))
        }
        spec.append(Character(Unicode.Scalar(byte)))
        position += 1
        return Token(kind: .argument(spec), range: SourceRange(start..<position))
    }

    private mutating func scanPunctuation() throws(ParseFailure) -> Punctuation? {
        guard let byte = peek() else { return nil }
        let next = peek(1)
        func take(_ count: Int, _ punctuation: Punctuation) -> Punctuation {
            position += count
            return punctuation
        }
        switch byte {
        case UInt8(ascii: "("): return take(1, .leftParen)
        case UInt8(ascii: ")"): return take(1, .rightParen)
        case UInt8(ascii: "{"): return take(1, .leftBrace)
        case UInt8(ascii: "}"): return take(1, .rightBrace)
        case UInt8(ascii: "["): return take(1, .leftBracket)
        case UInt8(ascii: "]"): return take(1, .rightBracket)
        case UInt8(ascii: ","): return take(1, .comma)
        case UInt8(ascii: "."): return take(1, .dot)
        case UInt8(ascii: "+"): return take(1, .plus)
        case UInt8(ascii: "-"): return take(1, .minus)
        case UInt8(ascii: "*"): return next == UInt8(ascii: "*") ? take(2, .starStar) : take(1, .star)
        case UInt8(ascii: "/"):
            if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
                let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                throw error(
                    .comment, "comments are not allowed in a predicate; remove '\(text(position..<position + 2))…'",
                    position..<end)
            }
            return take(1, .slash)
        case UInt8(ascii: "="):
            switch next {
            case UInt8(ascii: "="): return take(2, .equal)
            case UInt8(ascii: "<"): return take(2, .equalLess)
            case UInt8(ascii: ">"): return take(2, .equalGreater)
            default: return take(1, .assignEqual)
            }
        case UInt8(ascii: "!"): return next == UInt8(ascii: "=") ? take(2, .notEqual) : take(1, .bang)
        case UInt8(ascii: "<"):
            switch next {
            case UInt8(ascii: "="): return take(2, .lessEqual)
            case UInt8(ascii: ">"): return take(2, .lessGreater)
            default: return take(1, .less)
            }
        case UInt8(ascii: ">"): return next == UInt8(ascii: "=") ? take(2, .greaterEqual) : take(1, .greater)
        case UInt8(ascii: "&"): return next == UInt8(ascii: "&") ? take(2, .andAnd) : nil
        case UInt8(ascii: "|"): return next == UInt8(ascii: "|") ? take(2, .orOr) : nil
        case UInt8(ascii: ":"): return next == UInt8(ascii: "=") ? take(2, .colonEqual) : nil
        default: return nil
        }
    }
}
