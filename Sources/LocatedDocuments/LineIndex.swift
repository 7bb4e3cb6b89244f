/// Where each line of a document starts: turns a byte offset into the 1-based line and column an
/// error message names. The rule files' scanner and the storyboard reader both locate with it.
public struct LineIndex: Sendable {
    /// What a column counts.
    public enum ColumnUnit: Sendable {
        /// Characters (grapheme clusters), as the rule files' messages count them.
        case characters
        /// Unicode scalars, as the storyboard reader's messages count them.
        case unicodeScalars
    }

    private let bytes: [UInt8]
    private let starts: [Int]

    /// The index of the lines of `bytes` (a line ends after each `\n`).
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.starts = starts
    }

    /// The 1-based line and column of byte `offset` (clamped to the document).
    public func location(of offset: Int, counting unit: ColumnUnit) -> (line: Int, column: Int) {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = starts[low]
        let text = String(decoding: bytes[start..<min(max(offset, start), bytes.count)], as: UTF8.self)
        let column = unit == .characters ? text.count : text.unicodeScalars.count
        return (low + 1, column + 1)
    }
}
