import Foundation

extension JSONValue {
    /// `value` as JSON, through its `Encodable` conformance: object keys in the order `encode(to:)`
    /// writes them (declaration order for a synthesized conformance), so a report type declares its
    /// JSON once and the output stays stable; a nil optional is written as `null` (not left out),
    /// so every key of the type is always present. A `URL` is its absolute string, `Data` base64, a
    /// `Date` its seconds since 2001 (as `JSONDecoder`'s default strategies read them back).
    /// - Throws: what the value's `encode(to:)` throws.
    public init(encoding value: some Encodable) throws {
        self = try TreeEncoder.box(value, codingPath: [])
    }
}

/// A node being built: containers are references so a nested container writes into its parent.
private enum TreeNode {
    case value(JSONValue)
    case object(ObjectNode)
    case array(ArrayNode)
    /// A value encoded through a child encoder that may not have asked for a container yet.
    case deferred(TreeEncoder)

    var resolved: JSONValue {
        switch self {
        case .value(let value): value
        case .object(let node): .object(node.pairs.map { ($0.0, $0.1.resolved) })
        case .array(let node): .array(node.items.map(\.resolved))
        case .deferred(let encoder): encoder.root?.resolved ?? .object([])
        }
    }
}

private final class ObjectNode {
    var pairs: [(String, TreeNode)] = []

    func set(_ key: String, _ node: TreeNode) {
        if let index = pairs.firstIndex(where: { $0.0 == key }) {
            pairs[index].1 = node
        } else {
            pairs.append((key, node))
        }
    }
}

private final class ArrayNode {
    var items: [TreeNode] = []
}

private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var root: TreeNode?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// A scalar directly, anything else through its own `encode(to:)`.
    static func box(_ value: some Encodable, codingPath: [any CodingKey]) throws -> JSONValue {
        try node(value, codingPath: codingPath).resolved
    }

    static func node(_ value: some Encodable, codingPath: [any CodingKey]) throws -> TreeNode {
        switch value {
        case let value as String: return .value(.string(value))
        case let value as Bool: return .value(.bool(value))
        case let value as Int: return .value(.int(value))
        case let value as Double: return .value(.double(value))
        case let value as Float: return .value(.double(Double(value)))
        case let value as URL: return .value(.string(value.absoluteString))
        case let value as Data: return .value(.string(value.base64EncodedString()))
        case let value as any BinaryInteger:
            if let small = Int(exactly: value) { return .value(.int(small)) }
            if let large = UInt64(exactly: value) { return .value(.unsigned(large)) }
            return .value(.double(Double(value)))
        default:
            let child = TreeEncoder(codingPath: codingPath)
            try value.encode(to: child)
            return child.root ?? .object(ObjectNode())
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectNode
        if case .object(let existing) = root {
            object = existing
        } else {
            object = ObjectNode()
            root = .object(object)
        }
        return KeyedEncodingContainer(KeyedTree<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayNode
        if case .array(let existing) = root {
            array = existing
        } else {
            array = ArrayNode()
            root = .array(array)
        }
        return UnkeyedTree(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueTree(encoder: self) }
}

private struct KeyedTree<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .value(.null)) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        object.set(key.stringValue, try TreeEncoder.node(value, codingPath: codingPath + [key]))
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .value(.bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(key.stringValue, .value(.string(value)))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(key.stringValue, .value(.double(value)))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .value(.int(value))) }

    // A nil optional is written as null, so the key is always present: every `encodeIfPresent`
    // (the protocol's own skip nil).
    private mutating func nullOr(_ value: (some Encodable)?, _ key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: (some Encodable)?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try nullOr(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try nullOr(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ObjectNode()
        object.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedTree<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        object.set(key.stringValue, .array(nested))
        return UnkeyedTree(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        object.set(name, .deferred(encoder))
        return encoder
    }
}

private struct UnkeyedTree: UnkeyedEncodingContainer {
    let array: ArrayNode
    let codingPath: [any CodingKey]
    var count: Int { array.items.count }

    mutating func encodeNil() throws { array.items.append(.value(.null)) }
    mutating func encode(_ value: some Encodable) throws {
        array.items.append(try TreeEncoder.node(value, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ObjectNode()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedTree<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        array.items.append(.array(nested))
        return UnkeyedTree(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath)
        array.items.append(.deferred(encoder))
        return encoder
    }
}

private struct SingleValueTree: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.root = .value(.null) }
    mutating func encode(_ value: some Encodable) throws {
        encoder.root = try TreeEncoder.node(value, codingPath: codingPath)
    }
}
