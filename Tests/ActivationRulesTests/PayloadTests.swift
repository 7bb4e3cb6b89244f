import ActivationRules
import Foundation
import Predicates
import Testing

/// Payloads read from the plist-shaped JSON object a rule is evaluated against.
struct PayloadTests {
    private func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("payload-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func readsItemsAttachmentsTypesAndTheWebpageFlag() throws {
        let url = try write(
            #"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.url"], "fileProviderItem": 1}], "attributedTitle": "Hi"}, {}], "webpage": true}"#
        )
        defer { try? FileManager.default.removeItem(at: url) }
        let payload = try ActivationPayload.load(jsonAt: url)
        #expect(payload.isWebpage)
        #expect(payload.items.count == 2)
        #expect(payload.items[0].attachments?.first?.registeredTypeIdentifiers == ["public.url"])
        #expect(payload.items[0].attachments?.first?.otherKeys == ["fileProviderItem": 1])
        #expect(payload.items[0].otherKeys == ["attributedTitle": "Hi"])
        #expect(payload.items[1].attachments == nil)
        #expect(payload.attachmentCount == 1)
        // The value a rule sees keeps the other keys.
        let rule = ActivationRule(predicate: #"ANY extensionItems.attributedTitle == "Hi""#)
        #expect(rule.activates(payload) == true)
    }

    struct Bad: Sendable, CustomStringConvertible {
        var json: String
        var message: String
        var description: String { message }
    }

    static let bad: [Bad] = [
        Bad(json: "[]", message: "the top level must be an object, not a array"),
        Bad(json: "{}", message: "the payload has no 'extensionItems' array"),
        Bad(json: #"{"extensionItems": [], "items": []}"#, message: "unknown top-level key 'items'"),
        Bad(json: #"{"extensionItems": {}}"#, message: "extensionItems must be an array, not a dictionary"),
        Bad(json: #"{"extensionItems": [1]}"#, message: "extensionItems[0] must be an object, not a number"),
        Bad(
            json: #"{"extensionItems": [{"attachments": {}}]}"#,
            message: "extensionItems[0].attachments must be an array"),
        Bad(
            json: #"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["a", 2]}]}]}"#,
            message: "extensionItems[0].attachments[0].registeredTypeIdentifiers[1] must be a string, not a number"),
        Bad(json: #"{"extensionItems": [], "webpage": "yes"}"#, message: "webpage must be true or false, not a string"),
        Bad(json: #"{"extensionItems": ["#, message: "is not valid JSON"),
    ]

    @Test(arguments: bad) func namesTheBadValue(_ bad: Bad) throws {
        let url = try write(bad.json)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try ActivationPayload.load(jsonAt: url)
        } throws: { error in
            guard let error = error as? ActivationRuleError else { return false }
            return error.code == .invalidPayload && error.message.contains(bad.message)
                && error.message.contains(url.path)
        }
    }

    @Test func aMissingFileIsUnreadable() {
        #expect {
            try ActivationPayload.load(jsonAt: URL(fileURLWithPath: "/nonexistent/payload.json"))
        } throws: { error in
            (error as? ActivationRuleError)?.code == .unreadable
        }
    }
}
