import Foundation
import LinkPresentation
import Testing

/// `LPLinkMetadata` as an item source fills it: empty at first, every property settable later (the
/// sheet reads the same object each time it is presented).
struct LinkPresentationTests {
    @Test func metadataStartsEmptyAndKeepsWhatIsSetLater() throws {
        let metadata = LPLinkMetadata()
        #expect(metadata.originalURL == nil && metadata.url == nil && metadata.title == nil)
        #expect(metadata.iconProvider == nil && metadata.imageProvider == nil)
        let link = try #require(URL(string: "https://example.com/article"))
        metadata.originalURL = link
        metadata.title = "The Article"
        metadata.iconProvider = NSItemProvider(item: Data([1]) as NSData, typeIdentifier: "public.png")
        #expect(metadata.originalURL == link && metadata.title == "The Article")
        #expect(metadata.iconProvider?.registeredTypeIdentifiers == ["public.png"])
    }
}
