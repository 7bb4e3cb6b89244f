/// A predicate that could not be parsed, with the place where parsing stopped.
///
/// `description` reads `line:column: <code>: <message>`; ``render(source:)`` adds the source line
/// and a caret under the offending text.
public struct PredicateSyntaxError: Error, Sendable, CustomStringConvertible {
    /// What kind of syntax error this is, stable for tests and for tools that filter diagnostics.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The kebab-case name of the code, e.g. `typographic-quote`.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The source is empty or only whitespace.
        public static let emptyInput = Code("empty-input")
        /// The source is longer than ``ParserLimits/maxInputBytes``.
        public static let inputTooLong = Code("input-too-long")
        /// Parentheses, braces, `NOT`s or operators nest deeper than ``ParserLimits/maxDepth``.
        public static let nestingTooDeep = Code("nesting-too-deep")
        /// A character that cannot start any token.
        public static let unknownCharacter = Code("unknown-character")
        /// A typographic quote (“ ” ‘ ’) used where a string delimiter was meant.
        public static let typographicQuote = Code("typographic-quote")
        /// A `//` or `/*` comment; the predicate language has none.
        public static let comment = Code("comment")
        /// A string literal with no closing quote.
        public static let unterminatedString = Code("unterminated-string")
        /// A malformed escape sequence in a string literal.
        public static let invalidEscape = Code("invalid-escape")
        /// A malformed numeric literal.
        public static let invalidNumber = Code("invalid-number")
        /// A `%` that does not start a format argument (`%@`, `%K`, `%d`, …).
        public static let invalidArgument = Code("invalid-argument")
        /// A `$`, `@` or `#` with no name after it.
        public static let missingName = Code("missing-name")
        /// The input ended where more was expected (for example after a trailing operator).
        public static let unexpectedEnd = Code("unexpected-end")
        /// A token that does not fit the grammar at this place.
        public static let unexpectedToken = Code("unexpected-token")
        /// A `(` (or `{`, `[`) that is never closed.
        public static let unclosedParenthesis = Code("unclosed-parenthesis")
        /// A `)` (or `}`, `]`) with no matching opener.
        public static let unmatchedParenthesis = Code("unmatched-parenthesis")
        /// An expression where a predicate (a comparison) is needed, or the reverse.
        public static let expectedPredicate = Code("expected-predicate")
        /// A predicate where an expression is needed.
        public static let expectedExpression = Code("expected-expression")
        /// An unknown letter in a `[cd]` option block.
        public static let invalidOption = Code("invalid-option")
        /// A malformed `SUBQUERY(collection, $variable, predicate)`.
        public static let invalidSubquery = Code("invalid-subquery")

        /// The raw name.
        public var description: String { rawValue }
    }

    /// What kind of error.
    public var code: Code
    /// What went wrong and, where possible, how to fix it.
    public var message: String
    /// The offending source text, in UTF-8 bytes.
    public var range: SourceRange
    /// The 1-based line of the range's start.
    public var line: Int
    /// The 1-based column (in characters) of the range's start.
    public var column: Int
    /// An underlying error; always `nil` for syntax errors, present for the common error shape.
    public var cause: (any Error & Sendable)?

    /// Creates a located error; the line and column are computed from `source`.
    public init(_ code: Code, _ message: String, range: SourceRange, source: String) {
        self.code = code
        self.message = message
        self.range = range
        let location = range.location(in: source)
        self.line = location.line
        self.column = location.column
        self.cause = nil
    }

    /// `line:column: code: message`.
    public var description: String { "\(line):\(column): \(code): \(message)" }

    /// The error followed by the offending source line and a caret line under the range.
    ///
    /// - Parameter source: the same text that was parsed.
    /// - Returns: three lines: `description`, the source line, and `^~~~` under the range.
    public func render(source: String) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return description }
        let text = String(lines[line - 1]).replacingTabs()
        let prefix = String(repeating: " ", count: Swift.max(0, column - 1))
        // Length of the underline in characters, clipped to the line.
        let startOffset = range.utf8.lowerBound
        let endOffset = Swift.max(range.utf8.upperBound, startOffset + 1)
        let utf8 = Array(source.utf8)
        let clippedEnd = Swift.min(endOffset, utf8.count)
        var width = 1
        if startOffset < clippedEnd {
            let slice = utf8[startOffset..<clippedEnd]
            let lineOnly = slice.prefix { $0 != UInt8(ascii: "\n") }
            width = Swift.max(1, String(decoding: lineOnly, as: UTF8.self).count)
        }
        let marker = "^" + String(repeating: "~", count: width - 1)
        return "\(description)\n    \(text)\n    \(prefix)\(marker)"
    }
}

extension String {
    /// Tabs become single spaces so the caret stays aligned with the column count.
    fileprivate func replacingTabs() -> String {
        String(map { $0 == "\t" ? " " : $0 })
    }
}
