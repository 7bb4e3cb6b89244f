import Foundation
import ItemProviders
import LocatedDocuments

/// Property-list values in a manifest: any plist value written as JSON, and the dictionary Safari
/// hands an extension that declares `NSExtensionJavaScriptPreprocessingFile`.
extension LocatedReader {
    /// The key Safari puts a page script's results under (`NSExtensionJavaScriptPreprocessingResultsKey`).
    static let javaScriptResultsKey = "NSExtensionJavaScriptPreprocessingResultsKey"

    /// The property-list value `value` writes: an object is a dictionary, an array an array, a
    /// string a string, `true`/`false` a boolean, a whole number (within ±2⁶³) an integer, any other
    /// number a real; `{"$date": "2025-03-05T14:30:00Z"}` is a date and `{"$data": "BASE64"}` data.
    /// - Throws: ``PayloadError`` naming the line and column of a value a property list cannot
    ///   hold (`null`), a malformed date or base64 text.
    func propertyList(_ value: LocatedValue) throws -> Any {
        switch value {
        case .null:
            throw fail(value, "null is not a property-list value (a property list has no null; leave the key out)")
        case .bool(let flag, _):
            return flag
        case .number(let number, _):
            if number == number.rounded(), abs(number) < 9.2e18 { return Int64(number) }
            return number
        case .string(let text, _):
            return text
        case .date(let date, _):
            return date
        case .data(let data, _):
            return data
        case .array(let values, _):
            return try values.map { try propertyList($0) }
        case .dictionary(let members, _):
            if members.count == 1, let (key, member) = members.first, key == "$date" || key == "$data" {
                guard case .string(let text, _) = member else {
                    throw fail(member, "\(key) must be a string (\(key == "$date" ? "ISO 8601" : "base64"))")
                }
                if key == "$data" {
                    guard let data = Data(base64Encoded: text) else { throw fail(member, "$data is not base64") }
                    return data
                }
                guard let date = ISO8601DateFormatter().date(from: text) else {
                    throw fail(member, "$date must be an ISO 8601 date-time such as 2025-03-05T14:30:00Z")
                }
                return date
            }
            var dictionary: [String: Any] = [:]
            for (key, member) in members {
                guard dictionary[key] == nil else { throw fail(member, "the key '\(key)' appears twice") }
                dictionary[key] = try propertyList(member)
            }
            return dictionary
        }
    }

    /// A property-list object for a representation: `value` encoded, or Safari's results
    /// dictionary (`{NSExtensionJavaScriptPreprocessingResultsKey: value}`) when `javaScriptResults`.
    func propertyListObject(_ value: LocatedValue, javaScriptResults: Bool) throws -> PropertyListObject {
        var plist = try propertyList(value)
        if javaScriptResults {
            guard plist is [String: Any] else {
                throw fail(
                    value,
                    "javaScriptPreprocessingResults must be an object: what the page's script passed to completionFunction"
                )
            }
            plist = [Self.javaScriptResultsKey: plist]
        }
        do {
            return try PropertyListObject(encoding: plist)
        } catch {
            throw fail(value, "cannot encode this value as a property list: \(error)")
        }
    }
}
