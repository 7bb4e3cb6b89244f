import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

// Property lists read into located values (``DocumentFormat/propertyList``): XML through
// XMLParser with each element's line and column, binary through PropertyListSerialization.

/// Reads an XML property list with the line and column of every value, or a binary one without.
enum PropertyListReader {
    typealias Location = LocatedValue.Location

    /// Parses `data`: an XML plist with locations, a binary one without.
    /// - Throws: ``DocumentSyntaxError`` with the line and column of an XML error.
    static func read(_ data: Data) throws(DocumentSyntaxError) -> LocatedValue {
        if data.starts(with: Array("bplist".utf8)) {
            guard let object = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
                throw DocumentSyntaxError(
                    location: Location(line: 0, column: 0), message: "not a readable binary property list")
            }
            return located(object)
        }
        // FoundationXML traps on a name or processing instruction that is not UTF-8 (it force-unwraps
        // the decoded string), so such bytes are refused here, where they can be located.
        if let bad = firstInvalidUTF8(data) {
            throw DocumentSyntaxError(
                location: Location(line: bad.line, column: bad.column),
                message: "not UTF-8 (byte 0x\(String(bad.byte, radix: 16, uppercase: true)))")
        }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        let ok = parser.parse()
        if let error = builder.error { throw error }
        guard ok, let root = builder.root else {
            throw DocumentSyntaxError(
                location: Location(line: parser.lineNumber, column: parser.columnNumber),
                message: "not a property list: \(parser.parserError.map { "\($0.localizedDescription)" } ?? "no value")"
            )
        }
        return root
    }

    /// The line and column (1-based) of the first byte of `data` that does not begin or continue a
    /// well-formed UTF-8 sequence (overlong forms, surrogates and values past U+10FFFF included),
    /// and that byte; nil when all of it is UTF-8.
    static func firstInvalidUTF8(_ data: Data) -> (line: Int, column: Int, byte: UInt8)? {
        let bytes = [UInt8](data)
        var line = 1
        var column = 1
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return (line, column, lead)
            }
            for offset in 1..<max(1, length) {
                guard index + offset < bytes.count else { return (line, column, lead) }
                let next = bytes[index + offset]
                let range = offset == 1 ? low...high : 0x80...0xBF
                guard range.contains(next) else { return (line, column, lead) }
            }
            if lead == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    private static func located(_ object: Any) -> LocatedValue {
        let none = Location(line: 0, column: 0)
        switch object {
        case let value as String: return .string(value, none)
        case let value as Bool where type(of: object) == Bool.self: return .bool(value, none)
        case let value as NSNumber: return .number(value.doubleValue, none)
        case let value as Date: return .date(value, none)
        case let value as Data: return .data(value, none)
        case let values as [Any]: return .array(values.map(located), none)
        case let members as [String: Any]:
            return .dictionary(members.keys.sorted().map { ($0, located(members[$0] ?? "")) }, none)
        default: return .string("\(object)", none)
        }
    }

    /// Builds the tree from XMLParser's events.
    private final class Builder: NSObject, XMLParserDelegate {
        enum Frame {
            case array([LocatedValue], Location)
            case dictionary([(key: String, value: LocatedValue)], Location, pendingKey: String?)
        }
        var stack: [Frame] = []
        var root: LocatedValue?
        var text = ""
        var start = Location(line: 0, column: 0)
        var error: DocumentSyntaxError?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let here = Location(line: parser.lineNumber, column: max(1, parser.columnNumber - elementName.count - 1))
            text = ""
            start = here
            switch elementName {
            case "array": stack.append(.array([], here))
            case "dict": stack.append(.dictionary([], here, pendingKey: nil))
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            let value: LocatedValue?
            switch elementName {
            case "plist": return
            case "key":
                guard case .dictionary(let members, let location, _)? = stack.last else {
                    return fail(parser, "<key> outside a <dict>")
                }
                stack[stack.count - 1] = .dictionary(members, location, pendingKey: text)
                return
            case "string": value = .string(text, start)
            case "integer", "real":
                guard let number = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    return fail(parser, "<\(elementName)> holds '\(text)', not a number")
                }
                value = .number(number, start)
            case "true": value = .bool(true, start)
            case "false": value = .bool(false, start)
            case "date": value = .date(ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0), start)
            case "data":
                value = .data(Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data(), start)
            case "array":
                guard case .array(let values, let location)? = stack.popLast() else { return }
                value = .array(values, location)
            case "dict":
                guard case .dictionary(let members, let location, _)? = stack.popLast() else { return }
                value = .dictionary(members, location)
            default:
                return fail(parser, "unknown element <\(elementName)>")
            }
            guard let value else { return }
            switch stack.last {
            case .array(var values, let location)?:
                values.append(value)
                stack[stack.count - 1] = .array(values, location)
            case .dictionary(var members, let location, let key)?:
                guard let key else { return fail(parser, "a value without its <key>") }
                members.append((key, value))
                stack[stack.count - 1] = .dictionary(members, location, pendingKey: nil)
            case nil:
                root = value
            }
        }

        private func fail(_ parser: XMLParser, _ message: String) {
            if error == nil {
                error = DocumentSyntaxError(
                    location: Location(line: parser.lineNumber, column: parser.columnNumber), message: message)
            }
            parser.abortParsing()
        }
    }
}
