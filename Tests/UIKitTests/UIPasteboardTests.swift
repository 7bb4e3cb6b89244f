import Foundation
import Testing
import UIKit

/// `UIPasteboard.general` in a process exthost did not start (its own pasteboard, in memory): the
/// setters and getters of the standard types, items and their types, data by type, change counts,
/// expiry. (The device's pasteboard through the host is tested end to end in PasteboardTests.)
@Suite(.serialized)
@MainActor
struct UIPasteboardTests {
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
        ?? Data()

    @Test func stringsURLsAndImagesRoundTripAndEachChangeCounts() throws {
        let pasteboard = UIPasteboard.general
        let start = pasteboard.changeCount
        pasteboard.string = "hello"
        #expect(pasteboard.changeCount == start + 1)
        #expect(pasteboard.string == "hello" && pasteboard.hasStrings && !pasteboard.hasURLs)
        #expect(pasteboard.types == ["public.utf8-plain-text"])

        pasteboard.strings = ["one", "two"]
        #expect(pasteboard.numberOfItems == 2 && pasteboard.strings == ["one", "two"] && pasteboard.string == "one")

        let url = try #require(URL(string: "https://example.com/a"))
        pasteboard.url = url
        #expect(pasteboard.url == url && pasteboard.hasURLs && pasteboard.types == ["public.url"])
        #expect(pasteboard.string == nil, "a URL item holds no text representation")

        let image = try #require(UIImage(data: Self.png))
        pasteboard.image = image
        #expect(pasteboard.hasImages && pasteboard.image?.size == image.size)
        #expect(pasteboard.types == ["public.png"])
        #expect(pasteboard.changeCount == start + 4)
    }

    @Test func itemsDataAndValuesByType() throws {
        let pasteboard = UIPasteboard.general
        pasteboard.setItems([
            ["public.utf8-plain-text": "text", "com.example.card": Data([1, 2, 3])],
            ["public.url": try #require(URL(string: "https://example.com/b"))],
        ])
        #expect(pasteboard.numberOfItems == 2)
        #expect(pasteboard.types(forItemSet: nil) == [["com.example.card", "public.utf8-plain-text"], ["public.url"]])
        #expect(pasteboard.data(forPasteboardType: "com.example.card") == Data([1, 2, 3]))
        #expect(pasteboard.value(forPasteboardType: "public.utf8-plain-text") as? String == "text")
        #expect(pasteboard.contains(pasteboardTypes: ["public.url"]))
        #expect(!pasteboard.contains(pasteboardTypes: ["public.jpeg"]))
        #expect((pasteboard.items[1]["public.url"] as? URL)?.absoluteString == "https://example.com/b")

        pasteboard.setData(Data([9]), forPasteboardType: "com.example.raw")
        #expect(pasteboard.numberOfItems == 1 && pasteboard.data(forPasteboardType: "com.example.raw") == Data([9]))
        #expect(pasteboard.itemProviders.first?.registeredTypeIdentifiers == ["com.example.raw"])
    }

    @Test func itemProvidersAreLoadedIntoItemsOneEach() {
        let pasteboard = UIPasteboard.general
        let text = NSItemProvider(item: "from a provider" as NSString, typeIdentifier: "public.utf8-plain-text")
        let card = NSItemProvider()
        card.registerDataRepresentation(forTypeIdentifier: "com.example.card") { completion in
            completion(Data([7, 7]), nil)
            return nil
        }
        pasteboard.setItemProviders([text, card], localOnly: true, expirationDate: nil)
        #expect(pasteboard.numberOfItems == 2)
        #expect(pasteboard.string == "from a provider")
        #expect(pasteboard.data(forPasteboardType: "com.example.card") == Data([7, 7]))
        pasteboard.itemProviders = [card]
        #expect(pasteboard.types == ["com.example.card"])
    }

    @Test func anExpiredPasteboardReadsAsEmpty() {
        let pasteboard = UIPasteboard.general
        pasteboard.setItems(
            [["public.utf8-plain-text": "soon gone"]], options: [.expirationDate: Date(timeIntervalSinceNow: -1)])
        #expect(pasteboard.numberOfItems == 0 && pasteboard.string == nil && !pasteboard.hasStrings)
    }
}
