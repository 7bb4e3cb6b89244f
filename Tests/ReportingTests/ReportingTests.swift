import Foundation
import Reporting
import Testing

@Suite struct CodedErrorTests {
    struct Code: CodedErrorCode {
        let description: String
    }
    /// A code whose errors read as it chooses.
    struct Worded: CodedErrorCode {
        var description: String { "worded" }
        static func describe(_ error: CodedError<Self>) -> String { "Error Code=\(error.code) \"\(error.message)\"" }
    }
    struct Cause: Error, CustomStringConvertible {
        let description: String
    }

    @Test func describesItselfAsCodeMessageAndCauseOnOneLine() {
        let error = CodedError(
            Code(description: "not found"), "no such group 'group.x'", cause: Cause(description: "ENOENT"))
        #expect(error.description == "not found: no such group 'group.x' (cause: ENOENT)")
        #expect(CodedError(Code(description: "corrupt"), "bad journal").description == "corrupt: bad journal")
    }

    @Test func aCodeTypeMayWordItsErrorsItself() {
        #expect(CodedError(Worded(), "no coercion").description == "Error Code=worded \"no coercion\"")
    }

    @Test func twoModulesCodesMakeTwoErrorTypesACatchTellsApart() {
        struct OtherCode: CodedErrorCode { var description: String { "other" } }
        let thrown: any Error = CodedError(OtherCode(), "from the other module")
        #expect(!(thrown is CodedError<Code>))
        #expect((thrown as? CodedError<OtherCode>)?.message == "from the other module")
    }
}

@Suite struct DiagnosticTests {
    struct Case: Sendable, CustomStringConvertible {
        let diagnostic: Diagnostic
        let text: String
        var description: String { text }
    }

    @Test(arguments: [
        Case(
            diagnostic: Diagnostic(.error, "comment", "no comments", file: "r.plist", line: 3, column: 7),
            text: "r.plist:3:7: error: no comments [comment]"),
        Case(
            diagnostic: Diagnostic(.warning, "unknown-key", "misspelt", line: 2),
            text: "2: warning: misspelt [unknown-key]"),
        Case(
            diagnostic: Diagnostic(.note, nil, "redundant declaration", file: "/b/Info.plist", subject: "com.x"),
            text: "/b/Info.plist: note: redundant declaration"),
        Case(diagnostic: Diagnostic(.error, nil, "alone"), text: "error: alone"),
    ])
    func describesItselfAsPlaceSeverityMessageAndCode(_ example: Case) {
        #expect(example.diagnostic.description == example.text)
    }

    @Test func rendersTheExcerptUnderTheDescription() {
        let diagnostic = Diagnostic(.error, "comment", "no comments", line: 1, column: 3, excerpt: "a // b\n  ^")
        #expect(diagnostic.rendered == "1:3: error: no comments [comment]\na // b\n  ^")
        #expect(Diagnostic(.note, nil, "x").rendered == "note: x")
    }

    @Test func severitiesOrderByHowSeriousTheyAre() {
        #expect(Diagnostic.Severity.note < .warning)
        #expect(Diagnostic.Severity.warning < .error)
        #expect([Diagnostic(.note, nil, "a"), Diagnostic(.error, nil, "b")].containsError)
        #expect(![Diagnostic(.warning, nil, "a")].containsError)
    }

    @Test func encodesSeverityCodeMessageAndPlaceInThatOrderAndDecodesThem() throws {
        let diagnostic = Diagnostic(
            .warning, "value-type", "a string", file: "r.plist", line: 4, column: 2, excerpt: "x")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(diagnostic), as: UTF8.self)
        #expect(
            json
                == #"{"code":"value-type","column":2,"file":"r.plist","line":4,"message":"a string","severity":"warning"}"#
        )
        let decoded = try JSONDecoder().decode(Diagnostic.self, from: Data(json.utf8))
        #expect(decoded == Diagnostic(.warning, "value-type", "a string", file: "r.plist", line: 4, column: 2))
    }
}
