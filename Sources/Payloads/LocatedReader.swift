import LocatedDocuments

/// Reading a JSON document whose every error names its line and column (`share.json`, activity
/// items): the typed accessors the readers of those files share, over the located values of the
/// one document reader (``LocatedDocuments/LocatedValue/read(_:as:)``).
struct LocatedReader {
    /// The file, for messages.
    let source: String

    /// Parses `bytes`, or throws the syntax error at its place.
    func parse(_ bytes: [UInt8]) throws -> LocatedValue {
        do {
            return try LocatedValue.read(bytes, as: .json)
        } catch {
            throw PayloadError(source: source, line: error.location.line, column: error.location.column, error.message)
        }
    }

    func fail(_ value: LocatedValue, _ message: String) -> PayloadError {
        PayloadError(source: source, line: value.location.line, column: value.location.column, message)
    }

    func object(_ value: LocatedValue, _ what: String, allowed: [String]) throws -> [String: LocatedValue] {
        guard case .dictionary(let members, _) = value else {
            throw fail(value, "\(what) must be an object, not a \(value.typeName)")
        }
        var result: [String: LocatedValue] = [:]
        for (key, member) in members {
            guard allowed.contains(key) else {
                throw fail(
                    member, "unknown key '\(key)' in \(what); allowed: \(allowed.joined(separator: ", "))")
            }
            result[key] = member
        }
        return result
    }

    func string(_ value: LocatedValue?, _ what: String) throws -> String? {
        guard let value else { return nil }
        if case .null = value { return nil }
        guard case .string(let text, _) = value else { throw fail(value, "\(what) must be a string") }
        return text
    }

    func array(_ value: LocatedValue?, _ what: String, parent: LocatedValue, allowingEmpty: Bool = false) throws
        -> [LocatedValue]
    {
        guard let value else { throw fail(parent, "\(what) is missing") }
        guard case .array(let values, _) = value else { throw fail(value, "\(what) must be an array") }
        guard allowingEmpty || !values.isEmpty else { throw fail(value, "\(what) must not be empty") }
        return values
    }

    func integer(_ value: LocatedValue?, _ what: String) throws -> Int? {
        guard let value else { return nil }
        guard case .number(let number, _) = value, number == number.rounded(), abs(number) < 1e9 else {
            throw fail(value, "\(what) must be a whole number")
        }
        return Int(number)
    }
}

extension LocatedValue {
    /// The JSON name of the value's kind, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "object"
        }
    }
}
