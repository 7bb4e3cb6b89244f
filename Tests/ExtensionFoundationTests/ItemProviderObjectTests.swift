import ExtensionFoundation
import Foundation
import Testing

/// `NSItemProvider`'s object and legacy registrations as Apple documents them: objects that write
/// themselves (`NSItemProviderWriting`), classes that read themselves (`NSItemProviderReading`),
/// the legacy `registerItem` handler, items of no class it can coerce, and the provider's own
/// properties.
struct ItemProviderObjectTests {
    /// A class of the app's own that writes itself as JSON and reads itself back.
    final class Card: NSObject, NSItemProviderWriting, NSItemProviderReading, @unchecked Sendable {
        let name: String
        init(name: String) { self.name = name }

        static var writableTypeIdentifiersForItemProvider: [String] { ["com.example.card", "public.plain-text"] }
        func loadData(
            withTypeIdentifier typeIdentifier: String,
            forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
        ) -> Progress? {
            completionHandler(Data((typeIdentifier == "public.plain-text" ? name : #"{"name":"\#(name)"}"#).utf8), nil)
            return nil
        }

        static var readableTypeIdentifiersForItemProvider: [String] { ["com.example.card"] }
        static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: String],
                let name = object["name"]
            else { throw CocoaError(.propertyListReadCorrupt) }
            return Self(name: name)
        }
        required init(name: String, _: Void = ()) { self.name = name }
    }

    func data(_ provider: NSItemProvider, _ type: String) async -> (Data?, NSError?) {
        await withCheckedContinuation { continuation in
            provider.loadDataRepresentation(forTypeIdentifier: type) { data, error in
                continuation.resume(returning: (data, error.map { $0 as NSError }))
            }
        }
    }

    func object(_ provider: NSItemProvider, _ type: any NSItemProviderReading.Type) async
        -> (name: String?, error: NSError?)
    {
        await withCheckedContinuation { continuation in
            provider.loadObject(ofClass: type) { object, error in
                continuation.resume(returning: ((object as? Card)?.name, error.map { $0 as NSError }))
            }
        }
    }

    @Test func anObjectWritesEachOfItsTypesAndAClassReadsItBack() async throws {
        let provider = NSItemProvider(object: Card(name: "Alice"))
        #expect(provider.registeredTypeIdentifiers == ["com.example.card", "public.plain-text"])
        #expect(await data(provider, "public.plain-text").0 == Data("Alice".utf8))
        #expect(provider.canLoadObject(ofClass: Card.self))
        let loaded = await object(provider, Card.self)
        #expect(loaded.name == "Alice" && loaded.error == nil)
        #expect(provider.canLoadObject(ofClass: String.self))
    }

    @Test func aClassNothingAnswersFailsWithItemUnavailable() async throws {
        let provider = NSItemProvider(item: "just text" as NSString, typeIdentifier: "public.plain-text")
        #expect(!provider.canLoadObject(ofClass: Card.self))
        let loaded = await object(provider, Card.self)
        #expect(loaded.name == nil)
        #expect(loaded.error?.domain == NSItemProviderErrorDomain)
        #expect(loaded.error?.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
        // Data that does not read as the class: the class's error reaches the handler.
        let bad = NSItemProvider()
        bad.registerDataRepresentation(forTypeIdentifier: "com.example.card") { completion in
            completion(Data("not json".utf8), nil)
            return nil
        }
        let unreadable = await object(bad, Card.self)
        #expect(unreadable.name == nil && unreadable.error != nil)
    }

    /// The legacy handler gives the item; its data is the item's bytes (a string's UTF-8, a URL's
    /// absolute string), and an error it reports reaches the loader.
    @Test func theLegacyLoadHandlerAnswersDataLoads() async throws {
        let provider = NSItemProvider()
        provider.registerItem(forTypeIdentifier: "public.url") { completion, _, _ in
            completion?(URL(string: "https://example.com/x") as Any, nil)
        }
        provider.registerItem(forTypeIdentifier: "public.plain-text") { completion, _, _ in
            completion?(NSAttributedString(string: "styled"), nil)
        }
        provider.registerItem(forTypeIdentifier: "com.example.failing") { completion, _, _ in
            completion?(nil, CocoaError(.fileReadNoPermission))
        }
        #expect(await data(provider, "public.url").0 == Data("https://example.com/x".utf8))
        #expect(await data(provider, "public.plain-text").0 == Data("styled".utf8))
        let (none, error) = await data(provider, "com.example.failing")
        #expect(none == nil && error?.code == CocoaError.fileReadNoPermission.rawValue)
    }

    /// An item of a class with no data form cannot be coerced to data (Apple's
    /// `NSItemProviderErrorCode.unavailableCoercionError`).
    @Test func anItemOfNoDataClassIsAnUnavailableCoercion() async throws {
        let provider = NSItemProvider(item: NSObject(), typeIdentifier: "com.example.thing")
        let (none, error) = await data(provider, "com.example.thing")
        #expect(none == nil)
        #expect(error?.domain == NSItemProviderErrorDomain)
        #expect(error?.code == NSItemProvider.ErrorCode.unavailableCoercionError.rawValue)
    }

    @Test func theProvidersOwnProperties() {
        let provider = NSItemProvider()
        provider.registerFileRepresentation(forTypeIdentifier: "com.adobe.pdf", fileOptions: [.openInPlace]) {
            completion in
            completion(URL(fileURLWithPath: "/tmp/x.pdf"), false, nil)
            return nil
        }
        provider.registerDataRepresentation(forTypeIdentifier: "public.plain-text") { completion in
            completion(Data(), nil)
            return nil
        }
        #expect(provider.registeredTypeIdentifiers(fileOptions: [.openInPlace]) == ["com.adobe.pdf"])
        #expect(provider.registeredTypeIdentifiers(fileOptions: []) == ["com.adobe.pdf", "public.plain-text"])
        provider.suggestedName = "Menu"
        #expect(provider.suggestedName == "Menu")
        provider.preferredPresentationSize = CGSize(width: 320, height: 240)
        #expect(provider.preferredPresentationSize == CGSize(width: 320, height: 240))
        #expect(provider.description.hasPrefix("<NSItemProvider: "))
        #expect(provider.description.hasSuffix("{types = (\n    \"com.adobe.pdf\",\n    \"public.plain-text\"\n)}"))
    }

    /// URL, String and Data code themselves as NSURL, NSString and NSData do (so an item cast from
    /// `any NSSecureCoding` round-trips through an archive).
    @Test func valueTypesCodeAsTheirFoundationClasses() throws {
        func roundTrip<T: NSSecureCoding>(_ value: T, _ decode: (NSCoder) -> T?) throws -> T? {
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            value.encode(with: archiver)
            archiver.finishEncoding()
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            unarchiver.requiresSecureCoding = false
            return decode(unarchiver)
        }
        #expect(URL.supportsSecureCoding && String.supportsSecureCoding && Data.supportsSecureCoding)
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(try roundTrip(url, URL.init(coder:)) == url)
        #expect(try roundTrip("héllo", String.init(coder:)) == "héllo")
        #expect(try roundTrip(Data([0, 1, 255]), Data.init(coder:)) == Data([0, 1, 255]))
    }

    @Test func foundationClassesReadAndWriteTheirData() async throws {
        #expect(NSData.readableTypeIdentifiersForItemProvider == ["public.data"])
        #expect(NSData.writableTypeIdentifiersForItemProvider == ["public.data"])
        let read = try NSData.object(withItemProviderData: Data([7, 8]), typeIdentifier: "public.data")
        #expect(Data(referencing: read) == Data([7, 8]))
        #expect(throws: (any Error).self) {
            try NSString.object(withItemProviderData: Data([0xFF, 0xFE, 0xFD]), typeIdentifier: "public.plain-text")
        }
        #expect(throws: (any Error).self) {
            try NSURL.object(withItemProviderData: Data(), typeIdentifier: "public.url")
        }
        for object in [NSURL(string: "https://example.com") as Any, NSString(string: "text"), NSData(data: Data([3]))] {
            guard let writer = object as? any NSItemProviderWriting else {
                Issue.record("\(type(of: object)) does not write itself")
                continue
            }
            let provider = NSItemProvider(object: writer)
            let first = try #require(provider.registeredTypeIdentifiers.first)
            #expect(await data(provider, first).0?.isEmpty == false, "\(first)")
        }
    }
}
