import Foundation

extension PlistValue {
    /// Converts the output of `JSONSerialization.jsonObject(with:)` into a value.
    ///
    /// Dictionaries (`[String: Any]`), arrays, strings, numbers and `NSNull` convert; a number
    /// whose Objective-C type is `c` (how Foundation stores JSON `true`/`false`) becomes `.bool`,
    /// an integral number `.integer`, anything else `.real`.
    /// - Returns: `nil` if some element is of another type (a dictionary with non-string keys, …).
    public init?(json: Any) {
        guard let value = PlistValue.convert(json) else { return nil }
        self = value
    }

    /// Converts the output of `PropertyListSerialization.propertyList(from:…)` into a value.
    ///
    /// Like ``init(json:)``, plus `Date` and `Data`. Anything unrecognised becomes `.null`, so
    /// this never fails; use ``init(json:)`` to detect unsupported elements.
    public init(plist: Any) {
        self = PlistValue.convert(plist, lenient: true) ?? .null
    }

    private static func convert(_ object: Any, lenient: Bool = false) -> PlistValue? {
        switch object {
        case let value as PlistValue: return value
        case let value as String: return .string(value)
        case let value as Bool where !(object is NSNumber): return .bool(value)
        case let number as NSNumber: return convert(number)
        case let value as Int: return .integer(value)
        case let value as Double: return .real(value)
        case let value as Date: return .date(value)
        case let value as Data: return .data(value)
        case is NSNull: return .null
        case let array as [Any]:
            var result: [PlistValue] = []
            result.reserveCapacity(array.count)
            for element in array {
                guard let converted = convert(element, lenient: lenient) else { return nil }
                result.append(converted)
            }
            return .array(result)
        case let dictionary as [String: Any]:
            var result: [String: PlistValue] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let converted = convert(element, lenient: lenient) else { return nil }
                result[key] = converted
            }
            return .dictionary(result)
        default:
            return lenient ? .null : nil
        }
    }

    private static func convert(_ number: NSNumber) -> PlistValue {
        let type = String(cString: number.objCType)
        if type == "c" || type == "B" { return .bool(number.boolValue) }
        if type == "f" || type == "d" {
            let double = number.doubleValue
            return .real(double)
        }
        if type == "Q", number.uint64Value > UInt64(Int.max) { return .real(number.doubleValue) }
        return .integer(number.intValue)
    }
}

extension PlistValue: Codable {
    /// Decodes any JSON or property-list value; JSON `true`/`false` become `.bool`, integral
    /// numbers `.integer`, other numbers `.real`, `null` `.null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Date.self) {
            self = .date(value)
        } else if let value = try? container.decode(Data.self) {
            self = .data(value)
        } else if let value = try? container.decode([PlistValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: PlistValue].self))
        }
    }

    /// Encodes the value as the matching JSON or property-list value (`.null` as nil).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .dictionary(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
