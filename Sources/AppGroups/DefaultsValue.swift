public import Foundation

/// A property-list value stored in a shared defaults suite.
///
/// Not `Predicates.PlistValue` (which has a null) nor the command line's `JSONValue` (ordered
/// keys, no dates or data): a suite stores exactly what a property list can hold; see
/// `PlistValue` for why the three stay apart.
public enum DefaultsValue: Sendable, Hashable, CustomStringConvertible {
    /// `<string>`.
    case string(String)
    /// `<integer>`.
    case integer(Int)
    /// `<real>`.
    case real(Double)
    /// `<true/>` / `<false/>`.
    case bool(Bool)
    /// `<date>`.
    case date(Date)
    /// `<data>`.
    case data(Data)
    /// `<array>`.
    case array([DefaultsValue])
    /// `<dict>`.
    case dictionary([String: DefaultsValue])

    /// Converts a Foundation property-list object; nil for anything that is not one.
    public init?(propertyList object: Any) {
        switch object {
        case let value as String: self = .string(value)
        case let value as Bool where type(of: object) == Bool.self: self = .bool(value)
        case let value as Int: self = .integer(value)
        case let value as Double: self = .real(value)
        case let value as Date: self = .date(value)
        case let value as Data: self = .data(value)
        case let value as [Any]:
            var items: [DefaultsValue] = []
            for item in value {
                guard let converted = DefaultsValue(propertyList: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let value as [String: Any]:
            var items: [String: DefaultsValue] = [:]
            for (key, item) in value {
                guard let converted = DefaultsValue(propertyList: item) else { return nil }
                items[key] = converted
            }
            self = .dictionary(items)
        default: return nil
        }
    }

    /// The Foundation property-list object.
    public var propertyList: Any {
        switch self {
        case .string(let value): value
        case .integer(let value): value
        case .real(let value): value
        case .bool(let value): value
        case .date(let value): value
        case .data(let value): value
        case .array(let values): values.map(\.propertyList)
        case .dictionary(let values): values.mapValues(\.propertyList)
        }
    }

    /// Parses command-line text as `type` (`string`, `int`, `real`, `bool`, `date` ISO 8601,
    /// `data` hex), or guesses (bool, int, real, else string) when `type` is nil.
    /// - Throws: ``AppGroupError`` `.invalidIdentifier` naming the text and the type.
    public static func parse(_ text: String, as type: String?) throws -> DefaultsValue {
        func bad() -> AppGroupError {
            AppGroupError(.invalidIdentifier, "'\(text)' is not a valid \(type ?? "value")")
        }
        switch type {
        case nil:
            if text == "true" || text == "YES" { return .bool(true) }
            if text == "false" || text == "NO" { return .bool(false) }
            if let value = Int(text) { return .integer(value) }
            if let value = Double(text), value.isFinite { return .real(value) }
            return .string(text)
        case "string": return .string(text)
        case "int", "integer": guard let value = Int(text) else { throw bad() }; return .integer(value)
        case "real", "float", "double":
            guard let value = Double(text), value.isFinite else { throw bad() }
            return .real(value)
        case "bool":
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw bad()
            }
        case "date":
            guard let value = ISO8601DateFormatter().date(from: text) else { throw bad() }
            return .date(value)
        case "data":
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { throw bad() }
            var bytes: [UInt8] = []
            var index = 0
            while index < digits.count {
                guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                    throw bad()
                }
                bytes.append(byte)
                index += 2
            }
            return .data(Data(bytes))
        default:
            throw AppGroupError(
                .invalidIdentifier, "unknown type '\(type ?? "")'; use string, int, real, bool, date or data")
        }
    }

    /// A short rendering (strings unquoted, data as hex).
    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .date(let value): value.formatted(.iso8601)
        case .data(let value): value.map { String(format: "%02x", $0) }.joined()
        case .array(let values): "(" + values.map(\.description).joined(separator: ", ") + ")"
        case .dictionary(let values):
            "{" + values.keys.sorted().map { "\($0) = \(values[$0]?.description ?? "")" }.joined(separator: "; ") + "}"
        }
    }
}
