public import FoundationEssentials

/// The plist-shaped value a predicate is evaluated against, and the value of every expression.
///
/// Integers and reals are kept apart (`.integer(1)` and `.real(1.0)` are different cases, so
/// `==` on the enum distinguishes them) but the evaluator compares numbers by value, as
/// `NSNumber` does: `1 == 1.0` and `TRUE == 1` hold in a predicate.
///
/// Not the same type as `AppGroups.DefaultsValue` or the command line's `JSONValue`, on purpose:
/// a predicate's operand needs ``null`` (a missing key, `NULL` in the predicate) and compares
/// dictionaries by value; a defaults suite's value has no null (a property list has none, so a
/// suite is never asked to store one); a `--json` document keeps its keys in the order written and
/// has unsigned numbers but no dates or data. One tree would give each of them cases it must not
/// have.
public enum PlistValue: Sendable, Hashable {
    /// A dictionary with string keys.
    case dictionary([String: PlistValue])
    /// An ordered array.
    case array([PlistValue])
    /// A string.
    case string(String)
    /// An integer number.
    case integer(Int)
    /// A floating-point number.
    case real(Double)
    /// A Boolean; in comparisons it counts as the number 1 or 0.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// No value: a missing key, JSON `null`, `NULL`/`NIL` in a predicate.
    case null

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The numeric value of an integer, real or Boolean, else `nil`.
    public var number: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A short name of the case, for error messages (`"string"`, `"array"`, …).
    public var typeName: String {
        switch self {
        case .dictionary: return "dictionary"
        case .array: return "array"
        case .string: return "string"
        case .integer, .real: return "number"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .null: return "nil"
        }
    }
}

extension PlistValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// `.string(value)`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.integer(value)`.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// `.real(value)`.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// `.bool(value)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.array(elements)`.
    public init(arrayLiteral elements: PlistValue...) { self = .array(elements) }
    /// `.dictionary(...)`; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension PlistValue: CustomStringConvertible {
    /// A compact, predicate-literal-like rendering: `"text"`, `3`, `{1, 2}`, `{"k": 1}`, `nil`.
    public var description: String {
        switch self {
        case .dictionary(let dictionary):
            let body = dictionary.keys.sorted().map { key in
                "\(PredicatePrinter.quote(key)): \(dictionary[key]?.description ?? "nil")"
            }
            return "{" + body.joined(separator: ", ") + "}"
        case .array(let array): return "{" + array.map(\.description).joined(separator: ", ") + "}"
        case .string(let string): return PredicatePrinter.quote(string)
        case .integer(let value): return String(value)
        case .real(let value): return PredicatePrinter.format(value)
        case .bool(let value): return value ? "YES" : "NO"
        case .date(let date): return "date(\(date.timeIntervalSince1970))"
        case .data(let data): return "data(\(data.count) bytes)"
        case .null: return "nil"
        }
    }
}
