import Foundation
import ItemProviders
import Testing

struct LegacyTests {
    @Test func loadItemReturnsTheOriginalObject() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let file = try directory.write("%PDF", to: "a.pdf")
        let fromFile = try #require(ItemProvider(contentsOf: file))
        #expect(try await fromFile.loadItem(forTypeIdentifier: "com.adobe.pdf") as? URL == file)
        let web = URL(string: "https://example.com/page")!
        #expect(try await ItemProvider(object: web).loadItem(forTypeIdentifier: "public.url") as? URL == web)
        #expect(
            try await ItemProvider(object: "hello").loadItem(forTypeIdentifier: "public.text") as? String == "hello")
        let legacy = ItemProvider(item: "selected text", typeIdentifier: "public.plain-text")
        #expect(try await legacy.loadItem(forTypeIdentifier: "public.plain-text") as? String == "selected text")
    }

    @Test func binaryRegistrationsAppearAsData() async throws {
        let provider = ItemProvider()
        provider.registerData("public.png", "PNG")
        let item = try await provider.loadItem(forTypeIdentifier: "public.image")
        #expect(item as? Data == Data("PNG".utf8))
    }

    @Test func coercionsOnlyWhenAsked() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let file = try directory.write("contents", to: "a.txt")
        let provider = try #require(ItemProvider(contentsOf: file))
        let options: [String: any Sendable] = [ItemProvider.expectedValueClassKey: ExpectedValueClass.data]
        let data = try await provider.loadItem(forTypeIdentifier: "public.text", options: options)
        #expect(data as? Data == Data("contents".utf8))
        let text = ItemProvider(object: "x")
        let error = await #expect(throws: ItemProviderError.self) {
            try await text.loadItem(
                forTypeIdentifier: "public.text", options: [ItemProvider.expectedValueClassKey: ExpectedValueClass.url])
        }
        #expect(error?.code == .unavailableCoercion)
        #expect(error?.code.rawValue == -1200)
    }

    @Test func unreadableURLFailsTheCoercionWithUnexpectedValueClass() async throws {
        let directory = try TestDirectory()
        let file = try directory.write("gone", to: "gone.txt")
        let provider = try #require(ItemProvider(contentsOf: file))
        directory.remove()
        let error = await #expect(throws: ItemProviderError.self) {
            try await provider.loadItem(
                forTypeIdentifier: "public.text", options: [ItemProvider.expectedValueClassKey: ExpectedValueClass.data]
            )
        }
        #expect(error?.code.rawValue == -1100)
    }
}
