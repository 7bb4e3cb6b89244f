/// A JSON object whose keys are data (rule paths, bundle identifiers), not field names: a report
/// property of this type is encoded as `{key: value, …}` with the keys in the order given, and
/// decoded with them sorted by name (a decoder does not keep an object's key order). A key given
/// twice is written once, with its last value.
public struct OrderedObject<Value: Codable>: Codable {
    /// One key and its value.
    public struct Member {
        public var key: String
        public var value: Value
    }

    /// The members in output order.
    public var members: [Member]

    /// An object with these keys and values, in this order.
    public init(_ pairs: some Sequence<(String, Value)>) {
        members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    /// The dictionary's pairs, sorted by key.
    public init(sorting dictionary: [String: Value]) {
        self.init(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value of `key`, if the object has it.
    public subscript(key: String) -> Value? { members.last { $0.key == key }?.value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        members = try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
            Member(key: $0.stringValue, value: try container.decode(Value.self, forKey: $0))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for member in members { try container.encode(member.value, forKey: Key(member.key)) }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }
}

extension OrderedObject: Sendable where Value: Sendable {}
extension OrderedObject: Equatable where Value: Equatable {}
extension OrderedObject.Member: Sendable where Value: Sendable {}
extension OrderedObject.Member: Equatable where Value: Equatable {}
