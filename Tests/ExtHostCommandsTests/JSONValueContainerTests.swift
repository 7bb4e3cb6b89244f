import Foundation
import Testing

@testable import ExtHostCommands

/// `JSONValue(encoding:)` for the container shapes hand-written `encode(to:)` methods use: nested
/// containers in both directions, super encoders, optional integers of every width, and an
/// unkeyed container asked for twice.
struct JSONValueContainerTests {
    enum Key: String, CodingKey { case list, small, wide, none, ratio, base }

    struct Shapes: Encodable {
        func encode(to encoder: any Encoder) throws {
            #expect(encoder.userInfo.isEmpty)
            var container = encoder.container(keyedBy: Key.self)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encodeNil()
            try list.encode(1)
            var inner = list.nestedContainer(keyedBy: Key.self)
            try inner.encode("x", forKey: .base)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode(true)
            var single = list.superEncoder().singleValueContainer()
            try single.encode("from super")
            #expect(list.count == 5)
            try container.encodeIfPresent(Int8(-3), forKey: .small)
            try container.encodeIfPresent(UInt64.max, forKey: .wide)
            try container.encodeIfPresent(nil as UInt16?, forKey: .none)
            try container.encodeIfPresent(Float(0.5), forKey: .ratio)
            var parent = container.superEncoder().container(keyedBy: Key.self)
            try parent.encode("parent", forKey: .base)
            var named = container.superEncoder(forKey: .base).unkeyedContainer()
            try named.encode(2)
        }
    }

    @Test func nestedAndSuperContainersLandWhereTheyWereAskedFor() throws {
        #expect(
            try JSONValue(encoding: Shapes()).rendered(pretty: false)
                == #"{"list":[null,1,{"base":"x"},[true],"from super"],"small":-3,"wide":18446744073709551615,"#
                + #""none":null,"ratio":0.5,"super":{"base":"parent"},"base":[2]}"#)
    }

    @Test func everyOptionalIntegerWidthIsANumberOrNull() throws {
        struct Widths: Encodable {
            var present: Bool
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encodeIfPresent(present ? Int16(-16) : nil, forKey: .small)
                try container.encodeIfPresent(present ? Int32(-32) : nil, forKey: .wide)
                try container.encodeIfPresent(present ? UInt(1) : nil, forKey: .none)
                try container.encodeIfPresent(present ? UInt8(8) : nil, forKey: .ratio)
                try container.encodeIfPresent(present ? UInt32(32) : nil, forKey: .base)
                try container.encodeIfPresent(present ? UInt16(16) : nil, forKey: .list)
            }
        }
        #expect(
            try JSONValue(encoding: Widths(present: true)).rendered(pretty: false)
                == #"{"small":-16,"wide":-32,"none":1,"ratio":8,"base":32,"list":16}"#)
        #expect(
            try JSONValue(encoding: Widths(present: false)).rendered(pretty: false)
                == #"{"small":null,"wide":null,"none":null,"ratio":null,"base":null,"list":null}"#)
    }

    /// A type (or its parent) that asks for the unkeyed container again appends to the same array.
    @Test func anUnkeyedContainerAskedForTwiceIsOneArray() throws {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var first = encoder.unkeyedContainer()
                try first.encode(1)
                var second = encoder.unkeyedContainer()
                try second.encode(2)
            }
        }
        #expect(try JSONValue(encoding: Twice()).rendered(pretty: false) == "[1,2]")
        #expect(JSONValue.optional(nil) == .null && JSONValue.optional("a") == .string("a"))
        #expect(JSONValue.strings(["a", "b"]).rendered(pretty: false) == #"["a","b"]"#)
    }
}
