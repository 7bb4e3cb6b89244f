public import Foundation

/// A value read from a document — JSON, an XML or binary property list, an old-style property
/// list — with where it is written, so whoever reads the document can name the file, line and
/// column of a value it refuses. ``read(_:as:)`` is the one entry point.
///
/// Dictionaries keep their members in the order written (a key written twice in a property list
/// keeps both; ``subscript(_:)`` answers with the last). A binary property list has no lines: its
/// values carry line 0.
public indirect enum LocatedValue: Sendable {
    /// JSON `null` (property lists have none).
    case null(Location)
    /// `true` / `false`, `<true/>` / `<false/>`.
    case bool(Bool, Location)
    /// A JSON number, a property list's `<integer>` or `<real>`.
    case number(Double, Location)
    /// A string: JSON, `<string>`, quoted or unquoted old-style.
    case string(String, Location)
    /// A property list's `<date>`.
    case date(Date, Location)
    /// A property list's `<data>`, an old-style `<hex bytes>`.
    case data(Data, Location)
    /// An array, an old-style list.
    case array([LocatedValue], Location)
    /// A JSON object, a `<dict>`, an old-style dictionary: members in the order written.
    case dictionary([(key: String, value: LocatedValue)], Location)

    /// Where a value starts: 1-based line and column (in UTF-8 bytes for JSON and old-style text,
    /// as the XML parser counts for an XML property list); line 0 when the document has no lines.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// 1-based line; 0 in a binary property list.
        public var line: Int
        /// 1-based column.
        public var column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`, or nothing for a value without a line.
        public var description: String { line > 0 ? "\(line):\(column)" : "" }
    }

    /// Where the value starts.
    public var location: Location {
        switch self {
        case .null(let at), .bool(_, let at), .number(_, let at), .string(_, let at), .date(_, let at),
            .data(_, let at), .array(_, let at), .dictionary(_, let at):
            at
        }
    }

    /// The member `key` of a dictionary (the last one written), nil for anything else.
    public subscript(key: String) -> LocatedValue? {
        guard case .dictionary(let members, _) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The string, nil for anything else.
    public var string: String? { if case .string(let value, _) = self { value } else { nil } }
    /// The Boolean, nil for anything else.
    public var bool: Bool? { if case .bool(let value, _) = self { value } else { nil } }
    /// The number, nil for anything else.
    public var number: Double? { if case .number(let value, _) = self { value } else { nil } }
    /// The elements, nil for anything else.
    public var array: [LocatedValue]? { if case .array(let values, _) = self { values } else { nil } }
    /// The members in the order written, nil for anything else.
    public var members: [(key: String, value: LocatedValue)]? {
        if case .dictionary(let members, _) = self { members } else { nil }
    }
    /// Whether this is a dictionary.
    public var isDictionary: Bool { if case .dictionary = self { true } else { false } }

    /// The value as a plain property-list object (`String`, `Double`, `Bool`, `Date`, `Data`,
    /// arrays, `[String: Any]` with the last of a repeated key); JSON `null` becomes `NSNull`.
    public var object: Any {
        switch self {
        case .null: return NSNull()
        case .string(let value, _): return value
        case .number(let value, _): return value
        case .bool(let value, _): return value
        case .date(let value, _): return value
        case .data(let value, _): return value
        case .array(let values, _): return values.map(\.object)
        case .dictionary(let members, _):
            return Dictionary(members.map { ($0.key, $0.value.object) }, uniquingKeysWith: { $1 })
        }
    }
}

/// A document that cannot be read, with the line and column of the first error.
public struct DocumentSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the error is.
    public var location: LocatedValue.Location
    /// What is wrong, in one sentence.
    public var message: String

    /// Creates an error.
    public init(location: LocatedValue.Location, message: String) {
        self.location = location
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(location): \(message)" }
}

/// The formats ``LocatedValue/read(_:as:)`` reads.
public enum DocumentFormat: Sendable, Hashable {
    /// JSON text (RFC 8259: no comments, no trailing commas; a key written twice in one object is
    /// an error; nesting deeper than 128 levels is refused).
    case json
    /// A property list, XML or binary (told apart by the `bplist` magic bytes). XML values carry
    /// their line and column; binary values line 0, with dictionary keys sorted.
    case propertyList
    /// An old-style (OpenStep/NeXT) property list, the format of `project.pbxproj`: strings,
    /// `<hex data>`, `( lists )` and `{ dictionaries; }`, with `//` and `/* */` comments; nesting
    /// deeper than ``LocatedValue/oldStyleMaximumDepth`` levels is refused.
    case oldStylePropertyList
}

extension LocatedValue {
    /// Reads `bytes` in `format`: the one way exthost reads a document into located values.
    ///
    /// Never traps: any input gives a value or an error.
    /// - Throws: ``DocumentSyntaxError`` naming the line and column of the first error.
    public static func read(_ bytes: [UInt8], as format: DocumentFormat) throws(DocumentSyntaxError) -> LocatedValue {
        switch format {
        case .json: try JSONReader.read(bytes)
        case .propertyList: try PropertyListReader.read(Data(bytes))
        case .oldStylePropertyList: try OldStyleReader.read(bytes)
        }
    }
}
