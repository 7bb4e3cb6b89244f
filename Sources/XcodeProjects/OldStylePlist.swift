public import Foundation
@_exported public import LocatedDocuments

/// Where something is written: a file and a 1-based line and column.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column (in UTF-8 bytes).
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A value of an old-style (OpenStep/NeXT) property list — the format of `project.pbxproj` —
/// with where each value starts: the located value ``LocatedDocuments/LocatedValue`` reads (the one
/// reader of JSON, XML, binary and old-style property lists), so a bad project names its file,
/// line and column.
public typealias OldStylePlist = LocatedValue

/// A syntax error in an old-style property list, with its place.
public struct OldStylePlistError: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    public var description: String { "\(location): \(message)" }
}

extension LocatedValue {
    /// Parses `data`, the contents of `file` (named in locations), as an old-style property list
    /// (``LocatedDocuments/DocumentFormat/oldStylePropertyList``): one value, optionally after
    /// the `// !$*UTF8*$!` comment Xcode writes, then only whitespace and comments. Never traps:
    /// any input gives a value or an error.
    /// - Throws: ``OldStylePlistError`` naming the file, line and column of the first error.
    public static func parse(_ data: Data, file: String) throws(OldStylePlistError) -> OldStylePlist {
        do {
            return try read([UInt8](data), as: .oldStylePropertyList)
        } catch {
            throw OldStylePlistError(location: error.location.in(file), message: error.message)
        }
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .date: "a date"
        case .data: "data"
        case .array: "a list"
        case .dictionary: "a dictionary"
        }
    }
}

extension LocatedValue.Location {
    /// This place in `file`.
    public func `in`(_ file: String) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
}
