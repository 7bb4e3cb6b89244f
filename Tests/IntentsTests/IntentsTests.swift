import Foundation
import Intents
import Testing

/// What an app receives for a Shortcuts intent: the intent's parameters, a file parameter's bytes,
/// and the interaction an activity carries.
struct IntentsTests {
    final class OpenTextIntent: INIntent {
        var text: String? { value(forKey: "text") as? String }
    }

    @Test func anIntentSubclassReadsItsParametersFromTheValues() {
        let intent = OpenTextIntent()
        intent.parameterValues["text"] = "hello card"
        #expect(intent.text == "hello card")
        #expect(intent.value(forKey: "missing") == nil)
        #expect(intent.identifier != nil && intent.identifier != OpenTextIntent().identifier)
    }

    @Test func aFileParameterGivesItsBytesFromMemoryOrFromDisk() throws {
        let inMemory = INFile(data: Data("abc".utf8), filename: "a.txt", typeIdentifier: "public.plain-text")
        #expect(inMemory.data == Data("abc".utf8) && inMemory.fileURL == nil)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intents-\(UUID().uuidString).txt")
        try Data("on disk".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let onDisk = INFile(fileURL: url, filename: nil, typeIdentifier: nil)
        #expect(onDisk.filename == url.lastPathComponent)
        #expect(onDisk.data == Data("on disk".utf8))
        try FileManager.default.removeItem(at: url)
        #expect(onDisk.data.isEmpty, "an unreadable file gives empty data")
    }

    @Test func anActivityCarriesItsInteraction() {
        let activity = NSUserActivity(activityType: "OpenTextIntent")
        #expect(activity.interaction == nil)
        let intent = INIntent()
        activity.interactionObject = INInteraction(intent: intent, response: nil)
        #expect(activity.interaction?.intent === intent)
        #expect(activity.interaction?.intentResponse == nil)
    }
}
