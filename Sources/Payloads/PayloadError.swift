/// Why a payload could not be built: names the file, and the line and column for `share.json`.
public struct PayloadError: Error, Sendable, CustomStringConvertible {
    /// The file or folder the payload was built from (or the preset name).
    public var source: String
    /// The 1-based line in `share.json`, when the problem is located there.
    public var line: Int?
    /// The 1-based column in `share.json`.
    public var column: Int?
    /// What went wrong and, where possible, how to fix it.
    public var message: String
    /// The underlying failure (an archive error, an I/O error, …).
    public var cause: (any Error)?

    /// An error about `source`, optionally located.
    public init(source: String, line: Int? = nil, column: Int? = nil, _ message: String, cause: (any Error)? = nil) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        self.cause = cause
    }

    /// `source:line:column: message` (as compilers print), plus the cause when known.
    public var description: String {
        var text = source
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": \(message)"
        if let cause { text += " (\(cause))" }
        return text
    }
}
