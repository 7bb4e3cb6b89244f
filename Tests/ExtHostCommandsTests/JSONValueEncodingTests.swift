import Foundation
import Reporting
import Testing

@testable import ExtHostCommands

/// `JSONValue(encoding:)`, the one way a report type becomes `--json` output.
struct JSONValueEncodingTests {
    struct Inner: Codable, Equatable {
        var path: URL
        var sizes: [UInt64]
    }

    struct Report: Codable, Equatable {
        var zebra: String
        var alpha: Int?
        var ratio: Double
        var inner: Inner
        var flags: [Bool]
        var missing: Inner?
    }

    @Test func keysKeepDeclarationOrderAndNilIsNull() throws {
        let report = Report(
            zebra: "z", alpha: nil, ratio: 1.5,
            inner: Inner(path: URL(fileURLWithPath: "/tmp/a b"), sizes: [1, UInt64.max]), flags: [true, false],
            missing: nil)
        let value = try JSONValue(encoding: report)
        let text = value.rendered(pretty: false)
        #expect(
            text
                == #"{"zebra":"z","alpha":null,"ratio":1.5,"inner":{"path":"file:///tmp/a%20b","sizes":[1,18446744073709551615]},"flags":[true,false],"missing":null}"#
        )
        let decoded = try JSONDecoder().decode(Report.self, from: Data(value.rendered().utf8))
        #expect(decoded == report)
    }

    @Test func dataIsBase64AsJSONDecoderExpects() throws {
        struct Blob: Codable, Equatable { var bytes: Data }
        let blob = Blob(bytes: Data([0, 1, 2, 250]))
        let text = try JSONValue(encoding: blob).rendered(pretty: false)
        #expect(text == #"{"bytes":"AAEC+g=="}"#)
        #expect(try JSONDecoder().decode(Blob.self, from: Data(text.utf8)) == blob)
    }

    @Test func aTypeThatEncodesItsParentIntoTheSameContainerMergesTheKeys() throws {
        struct Child: Encodable {
            var own = "mine"
            var parent = Inner(path: URL(fileURLWithPath: "/x"), sizes: [])
            enum Key: String, CodingKey { case own }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(own, forKey: .own)
                try parent.encode(to: encoder)
            }
        }
        #expect(
            try JSONValue(encoding: Child()).rendered(pretty: false) == #"{"own":"mine","path":"file:///x","sizes":[]}"#
        )
    }

    @Test func anOrderedObjectKeepsItsKeysInTheOrderGivenAndDecodesThemSorted() throws {
        let object = OrderedObject([("zeta.plist", [1]), ("alpha.plist", []), ("zeta.plist", [2])])
        #expect(try JSONValue(encoding: object).rendered(pretty: false) == #"{"zeta.plist":[2],"alpha.plist":[]}"#)
        let decoded = try JSONDecoder().decode(
            OrderedObject<[Int]>.self, from: Data(try JSONValue(encoding: object).rendered().utf8))
        #expect(decoded.keys == ["alpha.plist", "zeta.plist"])
        #expect(decoded["zeta.plist"] == [2] && decoded["alpha.plist"] == [] && decoded["beta.plist"] == nil)
    }
}
