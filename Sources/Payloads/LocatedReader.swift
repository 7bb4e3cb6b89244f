/// Reading a JSON document whose every error names its line and column (`share.json`, activity
/// items): the typed accessors the readers of those files share.
struct LocatedReader {
    /// The file, for messages.
    let source: String

    /// Parses `bytes`, or throws the syntax error at its place.
    func parse(_ bytes: [UInt8]) throws -> LocatedJSON {
        do {
            return try LocatedJSON.parse(bytes)
        } catch {
            throw PayloadError(source: source, line: error.location.line, column: error.location.column, error.message)
        }
    }

    func fail(_ value: LocatedJSON, _ message: String) -> PayloadError {
        PayloadError(source: source, line: value.location.line, column: value.location.column, message)
    }

    func object(_ value: LocatedJSON, _ what: String, allowed: [String]) throws -> [String: LocatedJSON] {
        guard case .object(let members, _) = value else {
            throw fail(value, "\(what) must be an object, not a \(value.typeName)")
        }
        var result: [String: LocatedJSON] = [:]
        for (key, member) in members {
            guard allowed.contains(key) else {
                throw fail(
                    member, "unknown key '\(key)' in \(what); allowed: \(allowed.joined(separator: ", "))")
            }
            result[key] = member
        }
        return result
    }

    func string(_ value: LocatedJSON?, _ what: String) throws -> String? {
        guard let value else { return nil }
        if case .null = value { return nil }
        guard case .string(let text, _) = value else { throw fail(value, "\(what) must be a string") }
        return text
    }

    func array(_ value: LocatedJSON?, _ what: String, parent: LocatedJSON, allowingEmpty: Bool = false) throws
        -> [LocatedJSON]
    {
        guard let value else { throw fail(parent, "\(what) is missing") }
        guard case .array(let values, _) = value else { throw fail(value, "\(what) must be an array") }
        guard allowingEmpty || !values.isEmpty else { throw fail(value, "\(what) must not be empty") }
        return values
    }

    func integer(_ value: LocatedJSON?, _ what: String) throws -> Int? {
        guard let value else { return nil }
        guard case .number(let number, _) = value, number == number.rounded(), abs(number) < 1e9 else {
            throw fail(value, "\(what) must be a whole number")
        }
        return Int(number)
    }
}
