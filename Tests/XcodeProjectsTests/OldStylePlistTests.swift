import Foundation
import Testing
import XcodeProjects

@Suite struct OldStylePlistTests {
    func parse(_ text: String) throws(OldStylePlistError) -> OldStylePlist {
        try OldStylePlist.parse(Data(text.utf8), file: "p.pbxproj")
    }

    @Test func readsDictionariesListsStringsAndDataWithTheirPlaces() throws {
        let value = try parse(
            """
            // !$*UTF8*$!
            {
            \tname = Notes; /* a comment */
            \tquoted = "a \\"b\\"\\n\\U00e9";
            \tlist = (one, "two", );
            \tdata = <0aFF 10>;
            \tpath = Shared/Note-Store_1.swift;
            }
            """)
        #expect(value["name"]?.string == "Notes")
        #expect(value["name"]?.location == .init(line: 3, column: 9))
        #expect(value["quoted"]?.string == "a \"b\"\né")
        #expect(value["list"]?.array?.compactMap(\.string) == ["one", "two"])
        #expect(value["list"]?.location.line == 5)
        if case .data(let data, _) = value["data"] {
            #expect(data == Data([0x0A, 0xFF, 0x10]))
        } else {
            Issue.record("data expected")
        }
        #expect(value["path"]?.string == "Shared/Note-Store_1.swift")
    }

    @Test func aKeyWrittenTwiceKeepsTheLastValue() throws {
        #expect(try parse("{ a = 1; a = 2; }")["a"]?.string == "2")
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Bad(text: "{\n\ta = b;\n\tc = (d, e", line: 3, column: 11, message: "the list opened at 3:6 is not closed"),
        Bad(text: "{ a = b }", line: 1, column: 9, message: "expected ';' after the value of 'a', found '}'"),
        Bad(text: "{ a b; }", line: 1, column: 5, message: "expected '=' after the key 'a', found 'b'"),
        Bad(text: "{ a = \"open; }", line: 1, column: 7, message: "unterminated string"),
        Bad(text: "{ a = /* never closed }", line: 1, column: 7, message: "unterminated comment"),
        Bad(text: "{ a = <0g>; }", line: 1, column: 9, message: "'g' is not a hex digit"),
        Bad(text: "{ a = <0>; }", line: 1, column: 9, message: "odd number of hex digits"),
        Bad(text: "{ a = b; } }", line: 1, column: 12, message: "after the property list's end"),
        Bad(text: "", line: 1, column: 1, message: "empty file"),
        Bad(text: "{ (x) = y; }", line: 1, column: 3, message: "a dictionary key must be a string"),
        Bad(text: "( a b )", line: 1, column: 5, message: "expected ',' or ')' in the list, found 'b'"),
        Bad(text: "{ a = ; }", line: 1, column: 7, message: "unexpected ';'"),
    ])
    func badInputIsALocatedError(_ bad: Bad) {
        do {
            _ = try parse(bad.text)
            Issue.record("parsed \(bad.text)")
        } catch {
            #expect(error.location.line == bad.line && error.location.column == bad.column, "\(error)")
            #expect(error.message.contains(bad.message), "\(error)")
            #expect(error.description.hasPrefix("p.pbxproj:\(bad.line):\(bad.column): "))
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let text = String(repeating: "(", count: 100_000)
        #expect(throws: OldStylePlistError.self) { try parse(text) }
    }

    @Test func everyPrefixOfARealProjectAndRandomBytesGiveAValueOrAnError() throws {
        let project = try Data(contentsOf: Fixtures.xcode15.appendingPathComponent("Notes.xcodeproj/project.pbxproj"))
        // Every truncation of the project is an error (the root dictionary is never closed), never a trap.
        for length in stride(from: 0, to: project.count - 2, by: 97) {
            #expect(throws: OldStylePlistError.self) { try OldStylePlist.parse(project.prefix(length), file: "t") }
        }
        var generator = SplitMix(seed: 25)
        let alphabet = Array("{}()<>=;,\"\\/*ab01 \n\tU".utf8)
        for _ in 0..<2000 {
            let bytes = (0..<Int(generator.next() % 40)).map { _ in
                generator.next() % 5 == 0
                    ? UInt8(truncatingIfNeeded: generator.next())
                    : alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            _ = try? OldStylePlist.parse(Data(bytes), file: "r")
        }
    }
}

/// A small deterministic generator for the fuzz loop.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The fixture projects written for these tests.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    static let xcode15 = directory.appendingPathComponent("Xcode15")
    static let xcode16 = directory.appendingPathComponent("Xcode16")
    static let crossPlatform = directory.appendingPathComponent("CrossPlatform")
    static let localPackage = directory.appendingPathComponent("LocalPackage")

    /// A copy of fixture `name` in a fresh temporary folder (tests change projects only there).
    static func copy(_ source: URL) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcodeprojects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }
}
