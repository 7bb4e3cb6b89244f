import Foundation
import ItemProviders
import Payloads
import Testing
import UniformTypes

/// An `NSExtensionItem` given as an activity item (the manifest's `extensionItem`): it reaches
/// extensions as its own item, after the one iOS makes for the other items; bad shapes are errors
/// naming the line and column.
@Suite struct ActivityExtensionItemTests {
    static func manifest(_ json: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ext-item-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("items.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test func anExtensionItemIsItsOwnItemWithItsTitleTextAndAttachments() throws {
        let url = try Self.manifest(
            """
            {"items": [
              {"text": "Look"},
              {"extensionItem": {"attributedTitle": "Trip", "attributedContentText": "Our trip",
                "attachments": [{"url": "https://example.com/trip"}, {"text": "notes"}]}},
              {"url": "https://example.com/other"}
            ]}
            """)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let items = try ActivityItems.load(contentsOf: url)
        #expect(items.items.count == 3 && items.items[1].itemClass == .extensionItem)
        let payload = try items.payload(for: "com.example.share", registry: .system)
        #expect(payload.items.count == 2)
        #expect(payload.items[0].attachments?.count == 2, "iOS's own item holds the text and the URL")
        #expect(payload.items[0].attributedTitle == nil)
        #expect(payload.items[1].attributedTitle == "Trip" && payload.items[1].attributedContentText == "Our trip")
        #expect(
            payload.descriptions[1].attachments.map { $0.representations.map(\.typeIdentifier) } == [
                ["public.url"], ["public.plain-text"],
            ])

        let only = ActivityItems(items: [
            .extensionItem(ActivityExtensionItem(title: "Alone", attachments: [.text("x")]))
        ])
        let alone = try only.payload(for: nil, registry: .system)
        #expect(alone.items.count == 1 && alone.items[0].attributedTitle == "Alone", "no empty item of iOS's own")
    }

    @Test func badExtensionItemsAreErrorsWithTheirPlace() throws {
        let cases: [(String, String)] = [
            (#"{"items": [{"extensionItem": {"attributedTitle": "T"}}]}"#, "needs attachments"),
            (
                #"{"items": [{"extensionItem": {"attachments": [{"extensionItem": {"attachments": []}}]}}]}"#,
                "an NSExtensionItem is an activity item of its own"
            ),
            (
                #"{"items": [{"itemSource": {"placeholder": {"extensionItem": {"attachments": []}}}}]}"#,
                "an NSExtensionItem is an activity item of its own"
            ),
            (#"{"items": [{"extensionItem": {"attachments": [], "title": "T"}}]}"#, "title"),
        ]
        for (json, message) in cases {
            let url = try Self.manifest(json)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            #expect {
                _ = try ActivityItems.load(contentsOf: url)
            } throws: { error in
                let text = "\(error)"
                return text.contains(message) && text.contains("items.json:1:")
            }
        }
    }
}
