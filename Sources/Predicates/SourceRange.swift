/// A span of predicate source text, as UTF-8 byte offsets.
///
/// Every token and every AST node records one. Two ranges are always compared by value, but
/// AST nodes leave their range out of `==` so that a re-parsed canonical print equals the original.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 byte offsets covered, relative to the start of the source.
    public var utf8: Range<Int>

    /// Creates a range over the given UTF-8 byte offsets.
    public init(_ utf8: Range<Int>) {
        self.utf8 = utf8
    }

    /// An empty range at offset 0, used for nodes built in code rather than parsed.
    public static let synthesized = SourceRange(0..<0)

    /// The smallest range covering both `self` and `other`.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(
            Swift.min(utf8.lowerBound, other.utf8.lowerBound)..<Swift.max(utf8.upperBound, other.utf8.upperBound))
    }

    /// `start..<end` in UTF-8 bytes.
    public var description: String { "\(utf8.lowerBound)..<\(utf8.upperBound)" }

    /// The 1-based line and column of the range's start in `source`.
    ///
    /// The column counts characters (grapheme clusters) from the start of the line, so it matches
    /// what an editor shows.
    public func location(in source: String) -> SourceLocation {
        SourceLocation(offset: utf8.lowerBound, in: source)
    }
}

/// A 1-based line and column in predicate source text.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in characters.
    public var column: Int

    /// Creates a location from a line and a column, both 1-based.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Computes the line and column of a UTF-8 byte offset in `source`.
    ///
    /// Offsets past the end are clamped to the end of the source.
    public init(offset: Int, in source: String) {
        let utf8 = source.utf8
        let clamped = Swift.max(0, Swift.min(offset, utf8.count))
        var line = 1
        var lineStart = utf8.startIndex
        var index = utf8.startIndex
        var position = 0
        while position < clamped, index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
            position += 1
        }
        // Count characters between the line start and the offset; an offset inside a
        // multi-byte character counts as that character.
        let lineSlice = Substring(source.utf8[lineStart..<index])
        self.line = line
        self.column = lineSlice.count + 1
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
