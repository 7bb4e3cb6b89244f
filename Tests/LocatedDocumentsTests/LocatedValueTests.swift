import Foundation
import LocatedDocuments
import Testing

@Suite struct LocatedValueTests {
    func read(_ text: String, _ format: DocumentFormat) throws(DocumentSyntaxError) -> LocatedValue {
        try LocatedValue.read(Array(text.utf8), as: format)
    }

    @Test func jsonValuesKnowTheirLineAndColumnAndKeepTheirKeyOrder() throws {
        let value = try read("{\n  \"b\": [1, true, null],\n  \"a\": \"x\"\n}", .json)
        #expect(value.members?.map(\.key) == ["b", "a"])
        #expect(value["b"]?.location == .init(line: 2, column: 8))
        #expect(value["b"]?.array?.first?.number == 1)
        #expect(value["b"]?.array?[1].bool == true)
        if case .null(let at)? = value["b"]?.array?.last {
            #expect(at == .init(line: 2, column: 18))
        } else {
            Issue.record("null expected")
        }
        #expect(value["a"]?.string == "x")
        #expect(value["a"]?.location.description == "3:8")
    }

    @Test func anXMLPropertyListsValuesKnowTheirLine() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>name</key>
            \t<string>Notes</string>
            \t<key>count</key>
            \t<integer>3</integer>
            \t<key>on</key>
            \t<true/>
            </dict>
            </plist>
            """
        let value = try read(text, .propertyList)
        #expect(value["name"]?.string == "Notes")
        #expect(value["name"]?.location.line == 5)
        #expect(value["count"]?.number == 3)
        #expect(value["on"]?.bool == true)
        #expect(value.isDictionary)
    }

    @Test func aBinaryPropertyListHasNoLinesAndSortedKeys() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["zeta": 1, "alpha": ["x"]], format: .binary, options: 0)
        let value = try LocatedValue.read([UInt8](data), as: .propertyList)
        #expect(value.members?.map(\.key) == ["alpha", "zeta"])
        #expect(value["alpha"]?.location.line == 0)
        #expect(value["alpha"]?.location.description == "")
        #expect((value.object as? [String: Any])?["zeta"] as? Double == 1)
    }

    @Test func anOldStylePropertyListsValuesKnowTheirPlace() throws {
        let value = try read(
            "// !$*UTF8*$!\n{\n\tname = Notes;\n\tlist = (a, \"b\");\n\tdata = <0aff>;\n}", .oldStylePropertyList)
        #expect(value["name"]?.string == "Notes")
        #expect(value["name"]?.location == .init(line: 3, column: 9))
        #expect(value["list"]?.array?.compactMap(\.string) == ["a", "b"])
        if case .data(let bytes, _)? = value["data"] {
            #expect(bytes == Data([0x0A, 0xFF]))
        } else {
            Issue.record("data expected")
        }
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var format: DocumentFormat
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Bad(text: "{\"a\": 1,\n \"a\": 2}", format: .json, line: 2, column: 2, message: "duplicate key 'a'"),
        Bad(text: "[1, 2", format: .json, line: 1, column: 6, message: "unterminated array"),
        Bad(text: "{ a = b }", format: .oldStylePropertyList, line: 1, column: 9, message: "expected ';'"),
        Bad(
            text: "<plist><dict><key>a</key><integer>x</integer></dict></plist>", format: .propertyList, line: 1,
            column: 46, message: "not a number"),
    ])
    func badInputIsALocatedError(_ bad: Bad) {
        do {
            let value = try read(bad.text, bad.format)
            Issue.record("read \(value)")
        } catch {
            #expect(error.location.line == bad.line, "\(error)")
            #expect(bad.format == .propertyList || error.location.column == bad.column, "\(error)")
            #expect(error.message.contains(bad.message), "\(error)")
            #expect(error.description.hasPrefix("\(error.location): "))
        }
    }

    @Test func bytesThatAreNotUTF8InAnXMLPropertyListAreRefusedAtTheirPlace() {
        let bytes = Array("<plist>\n<string>".utf8) + [0xFF] + Array("</string></plist>".utf8)
        #expect(throws: DocumentSyntaxError(location: .init(line: 2, column: 9), message: "not UTF-8 (byte 0xFF)")) {
            try LocatedValue.read(bytes, as: .propertyList)
        }
    }

    @Test(arguments: [DocumentFormat.json, .oldStylePropertyList])
    func deepNestingIsRefusedNotACrash(_ format: DocumentFormat) {
        #expect(throws: DocumentSyntaxError.self) { try read(String(repeating: "[", count: 100_000), format) }
        #expect(throws: DocumentSyntaxError.self) { try read(String(repeating: "(", count: 100_000), format) }
    }
}
