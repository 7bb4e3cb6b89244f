import AppIntents
import Foundation
import Testing
import UniformTypeIdentifiers

/// App Intents as an app declares them, performed as the app runtime performs them: found by the
/// metadata's type name, parameters set by name (a file as an `IntentFile`), `perform()` awaited;
/// what it returns or throws is the outcome.
struct NoteIntent: AppIntent {
    static let title: LocalizedStringResource = "Make a note"
    static let openAppWhenRun = true

    @Parameter(title: "Text") var text: String
    @Parameter(title: "Count", default: 1) var count: Int
    @Parameter(title: "Link") var link: URL?
    @Parameter(title: "Attachment") var attachment: IntentFile?

    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        let size = attachment?.data.count ?? 0
        return .result(value: "\(text) ×\(count) \(link?.host ?? "-") \(attachment?.filename ?? "-") \(size)")
    }
}

struct FailingIntent: AppIntent {
    static let title: LocalizedStringResource = "Fail"
    struct NotNow: LocalizedError {
        var errorDescription: String? { "not now" }
    }
    @Parameter(title: "Fail", default: true) var fail: Bool

    func perform() async throws -> some IntentResult {
        if fail { throw NotNow() }
        return .result()
    }
}

struct GreetIntent: AppIntent {
    static let title: LocalizedStringResource = "Greet"
    @Parameter(title: "Name") var name: String

    func perform() async throws -> some IntentResult & ReturnsValue<Int> & ProvidesDialog {
        .result(value: name.count, dialog: "Hello, \(name)")
    }
}

@Suite struct AppIntentsTests {
    @Test func aResultWithAValueAndADialogAsApplesSignaturesSpellIt() async {
        let outcome = await AppIntentPerformer.perform(
            typeName: "GreetIntent", mangledTypeName: nil, module: "AppIntentsTests", parameters: [("name", "Ada")])
        #expect(outcome.detail == #"GreetIntent.perform() returned .result(value: 3, dialog: "Hello, Ada")"#)
    }

    @Test func theDefaultsAreApples() {
        #expect(FailingIntent.openAppWhenRun == false)
        #expect(NoteIntent.openAppWhenRun == true)
        #expect(NoteIntent.description == nil)
        #expect(NoteIntent.title.key == "Make a note")
    }

    @Test func anIntentIsFoundByItsMangledNameAndPerformedWithItsParameters() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("note-\(UUID().uuidString).txt")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = await AppIntentPerformer.perform(
            typeName: "NoteIntent", mangledTypeName: _mangledTypeName(NoteIntent.self), module: "Nowhere",
            parameters: [
                ("text", "Buy milk"), ("count", 3.0), ("link", URL(string: "https://example.com/x")),
                ("attachment", IntentFile(fileURL: file, filename: "note.txt", type: .plainText)),
            ])
        #expect(outcome.succeeded, "\(outcome.detail)")
        #expect(outcome.detail == "NoteIntent.perform() returned .result(value: Buy milk ×3 example.com note.txt 5)")
    }

    @Test func byItsModuleQualifiedNameTooAndOptionalParametersMayBeLeftOut() async {
        let outcome = await AppIntentPerformer.perform(
            typeName: "NoteIntent", mangledTypeName: nil, module: "AppIntentsTests", parameters: [("text", "x")])
        #expect(outcome.detail == "NoteIntent.perform() returned .result(value: x ×1 - - 0)", "\(outcome.detail)")
    }

    @Test func aThrowingPerformAnUnknownTypeAndABadParameterAreOutcomesThatSaySo() async {
        let thrown = await AppIntentPerformer.perform(
            typeName: "FailingIntent", mangledTypeName: nil, module: "AppIntentsTests", parameters: [])
        #expect(!thrown.succeeded)
        #expect(thrown.detail.contains("FailingIntent.perform() threw") && thrown.detail.hasSuffix(": not now"))
        let unknown = await AppIntentPerformer.perform(
            typeName: "Missing", mangledTypeName: nil, module: "AppIntentsTests", parameters: [])
        #expect(!unknown.succeeded && unknown.detail.contains("has no AppIntent type Missing"))
        let badName = await AppIntentPerformer.perform(
            typeName: "NoteIntent", mangledTypeName: nil, module: "AppIntentsTests", parameters: [("nope", "x")])
        #expect(!badName.succeeded && badName.detail.contains("has no @Parameter named nope"))
        let badType = await AppIntentPerformer.perform(
            typeName: "NoteIntent", mangledTypeName: nil, module: "AppIntentsTests",
            parameters: [("attachment", "not a file")])
        #expect(!badType.succeeded && badType.detail.contains("does not fit its type"))
        let missing = await AppIntentPerformer.perform(
            typeName: "NoteIntent", mangledTypeName: nil, module: "AppIntentsTests", parameters: [])
        #expect(!missing.succeeded, "a required parameter left out: perform() is not called")
        #expect(missing.detail.contains("no value for its required parameter(s) text"), "\(missing.detail)")
    }

    @Test func anIntentFileCarriesDataFilenameAndType() {
        let file = IntentFile(data: Data([1, 2]), filename: "a.bin", type: .data)
        #expect(file.data == Data([1, 2]) && file.filename == "a.bin" && file.type == .data && file.fileURL == nil)
        #expect(!file.removedOnCompletion)
    }
}
