import Foundation
import Payloads
import Testing
import UniformTypes

/// The activity-items manifest (`exthost share --activity-items`, `exthost sheet`): every item kind
/// its documentation shows, the item source's per-activity answers, and bad manifests refused with
/// file:line:column.
struct ActivityItemsManifestTests {
    static let documented = """
        {
          "items": [
            { "text": "Look at this" },
            { "attributedText": "Bold words" },
            { "url": "https://example.com/page" },
            { "file": "menu.pdf" },
            { "image": "photo.png" },
            { "data": { "text": "{\\"name\\": \\"Alice\\"}" } },
            { "data": { "base64": "AAEC" } },
            { "data": { "file": "cards/alice.card" } },
            { "itemSource": {
                "placeholder": { "url": "" },
                "item": { "data": { "file": "cards/alice.card" } },
                "itemForActivityType": {
                  "com.apple.UIKit.activity.Message": null,
                  "com.apple.UIKit.activity.Mail": { "text": "a card for mail" } },
                "dataTypeIdentifier": "com.example.carddrop.card",
                "subject": "A card", "thumbnail": true,
                "linkMetadata": { "url": "https://example.com", "title": "Example", "icon": true,
                                  "originalURL": "https://example.com/o", "laterTitle": "Later" } } }
          ],
          "excludedActivityTypes": ["com.apple.UIKit.activity.Print"],
          "applicationActivities": [
            { "type": "com.example.favorite", "title": "Favorite", "category": "action", "accepts": ["url"] },
            { "type": "com.example.send", "title": "Send", "category": "share", "accepts": ["string", "file-url"] } ]
        }
        """

    func folder(manifest: String) throws -> (Folder, URL) {
        let folder = try Folder()
        try folder.write("%PDF-1.4\n%%EOF\n", to: "menu.pdf")
        try folder.write(Data([0x89, 0x50, 0x4E, 0x47]), to: "photo.png")
        try folder.write("BEGIN:VCARD\r\nEND:VCARD\r\n", to: "cards/alice.card")
        return (folder, try folder.write(manifest, to: "items.json"))
    }

    @Test func everyDocumentedKindIsRead() throws {
        let (folder, manifest) = try folder(manifest: Self.documented)
        defer { folder.remove() }
        let items = try ActivityItems.load(contentsOf: manifest)
        let base = folder.url.standardizedFileURL
        #expect(items.items.count == 9)
        #expect(items.items[0] == .text("Look at this"))
        #expect(items.items[1] == .attributedText("Bold words"))
        #expect(items.items[2] == .url(try #require(URL(string: "https://example.com/page"))))
        #expect(items.items[3] == .file(base.appendingPathComponent("menu.pdf")))
        #expect(items.items[4] == .image(Data([0x89, 0x50, 0x4E, 0x47]), typeIdentifier: "public.png"))
        #expect(items.items[5] == .data(Data(#"{"name": "Alice"}"#.utf8), typeIdentifier: nil))
        #expect(items.items[6] == .data(Data([0, 1, 2]), typeIdentifier: nil))
        let card = Data("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8)
        #expect(items.items[7] == .data(card, typeIdentifier: nil))
        #expect(
            items.items.map(\.itemClass) == [
                .string, .attributedString, .url, .fileURL, .image, .data, .data, .data, .url,
            ])

        guard case .source(let source) = items.items[8] else {
            Issue.record("the last item is not an item source: \(items.items[8])")
            return
        }
        #expect(source.placeholder == .url(try #require(URL(string: "about:blank"))))
        #expect(source.item == .data(card, typeIdentifier: nil))
        #expect(source.item(for: nil) == source.item)
        #expect(source.item(for: "com.apple.UIKit.activity.AirDrop") == source.item)
        #expect(source.item(for: "com.apple.UIKit.activity.Message") == nil)
        #expect(source.item(for: "com.apple.UIKit.activity.Mail") == .text("a card for mail"))
        #expect(source.dataTypeIdentifier == "com.example.carddrop.card" && source.subject == "A card")
        #expect(source.hasThumbnail)
        let metadata = try #require(source.linkMetadata)
        #expect(metadata.url?.absoluteString == "https://example.com" && metadata.title == "Example")
        #expect(metadata.originalURL?.absoluteString == "https://example.com/o" && metadata.laterTitle == "Later")
        #expect(metadata.hasIcon && !metadata.hasImage)

        #expect(items.excludedActivityTypes == ["com.apple.UIKit.activity.Print"])
        #expect(items.applicationActivities.map(\.type) == ["com.example.favorite", "com.example.send"])
        #expect(items.applicationActivities.map(\.isShare) == [false, true])
        #expect(items.applicationActivities[1].accepts == [.string, .fileURL])
    }

    /// What the extension receives: one attachment per item, typed as iOS types them, the item
    /// source answering for the activity picked (nothing for Messages, whose entry is null).
    @Test func thePayloadTypesEachItemAsIOSDoes() throws {
        let (folder, manifest) = try folder(manifest: Self.documented)
        defer { folder.remove() }
        let items = try ActivityItems.load(contentsOf: manifest)
        func types(_ activity: String?) throws -> [[String]] {
            let payload = try items.payload(for: activity, registry: .system)
            return payload.descriptions[0].attachments.map { $0.representations.map(\.typeIdentifier) }
        }
        let airDrop = try types("com.apple.UIKit.activity.AirDrop")
        #expect(airDrop.count == 9)
        #expect(airDrop[0] == ["public.plain-text"] && airDrop[1] == ["public.plain-text"])
        #expect(airDrop[2] == ["public.url"])
        #expect(airDrop[3] == ["com.adobe.pdf", "public.file-url"])
        #expect(airDrop[4] == ["public.image"])
        #expect(airDrop[5] == ["public.data"])
        #expect(airDrop[8] == ["com.example.carddrop.card"], "the source's dataTypeIdentifier types its data")
        #expect(try types("com.apple.UIKit.activity.Message").count == 8)
        #expect(try types("com.apple.UIKit.activity.Mail")[8] == ["public.plain-text"])
        #expect(try types(nil)[8] == ["public.url"], "before a pick, the placeholder")
        #expect(try items.payload(for: nil, registry: .system).descriptions[0].contentText == "A card")

        let missing = ActivityItems(items: [.file(folder.url.appendingPathComponent("gone.pdf"))])
        let error = #expect(throws: PayloadError.self) { try missing.payload(for: nil, registry: .system) }
        #expect(error?.message.contains("no such file") == true)
    }

    /// Each bad manifest is refused with its line and column and a message naming the problem.
    @Test(arguments: [
        (#"{"items": [{"text": "a", "url": "b"}]}"#, 1, "exactly one of"),
        (#"{"items": [{"url": "http://exa mple.com"}]}"#, 1, "url must be a URL"),
        (#"{"items": [{"file": "../escape.pdf"}]}"#, 1, "must be a path inside the folder"),
        (#"{"items": [{"file": "/etc/passwd"}]}"#, 1, "must be a path inside the folder"),
        (#"{"items": [{"image": "nothing.png"}]}"#, 1, "no file 'nothing.png'"),
        (#"{"items": [{"data": {"base64": "***"}}]}"#, 1, "data.base64 is not base64"),
        (#"{"items": [{"data": {"text": "a", "base64": "AA=="}}]}"#, 1, "data has exactly one of"),
        (#"{"items": [{"itemSource": {"item": {"text": "a"}}}]}"#, 1, "needs a placeholder"),
        (#"{"items": [{"itemSource": {"placeholder": {"itemSource": {}}}}]}"#, 1, "cannot be an item source itself"),
        (
            #"{"items": [{"itemSource": {"placeholder": {"text": ""}, "itemForActivityType": []}}]}"#, 1,
            "itemForActivityType must map"
        ),
        (
            #"{"items": [{"itemSource": {"placeholder": {"text": ""}, "thumbnail": "yes"}}]}"#, 1,
            "thumbnail must be true or false"
        ),
        (
            #"{"items": [{"itemSource": {"placeholder": {"text": ""}, "linkMetadata": {"icon": 1}}}]}"#, 1,
            "icon must be true or false"
        ),
        (#"{"items": [{"text": "a"}],\#n "applicationActivities": {}}"#, 2, "applicationActivities must be an array"),
        (#"{"items": [{"text": "a"}], "applicationActivities": [{"type": "t"}]}"#, 1, "needs a type and a title"),
        (
            #"{"items": [{"text": "a"}], "applicationActivities": [{"type": "t", "title": "T", "category": "x"}]}"#, 1,
            "category is action or share"
        ),
        (
            #"{"items": [{"text": "a"}], "applicationActivities": [{"type": "t", "title": "T", "accepts": ["pdf"]}]}"#,
            1,
            "not 'pdf'"
        ),
        (#"{"items": [{"text": "a"}], "excludedActivityTypes": "print"}"#, 1, "must be an array of strings"),
    ])
    func aBadManifestIsRefusedWithItsPlace(manifest: String, line: Int, message: String) throws {
        let (folder, url) = try folder(manifest: manifest)
        defer { folder.remove() }
        let error = #expect(throws: PayloadError.self) { try ActivityItems.load(contentsOf: url) }
        #expect(error?.source == url.path)
        #expect(error?.line == line)
        #expect(error?.column != nil)
        #expect(error?.message.contains(message) == true, "\(error.map { "\($0)" } ?? "no error")")
    }

    @Test func aMissingManifestNamesItself() {
        let url = URL(fileURLWithPath: "/nonexistent-exthost/items.json")
        let error = #expect(throws: PayloadError.self) { try ActivityItems.load(contentsOf: url) }
        #expect(error?.source == url.path && error?.line == nil && error?.cause != nil)
    }
}
