import Foundation
import ItemProviders
import Testing
import UniformTypes

struct RegistrationTests {
    @Test func registrationOrderIsKeptAndDuplicatesIgnored() {
        let provider = ItemProvider()
        provider.registerData("public.heic", "a")
        provider.registerData("public.jpeg", "b")
        provider.registerData("public.heic", "c")
        #expect(provider.registeredTypeIdentifiers == ["public.heic", "public.jpeg"])
    }

    @Test func hiddenRepresentationsAreLeftOutForAnotherTeam() {
        let provider = ItemProvider()
        provider.registerData("public.png", "a", visibility: .ownProcess)
        provider.registerData("public.jpeg", "b", visibility: .team)
        provider.registerData("public.tiff", "c", visibility: .group)
        provider.registerData("public.heic", "d", visibility: .all)
        #expect(provider.registeredTypeIdentifiers == ["public.heic"])
        #expect(!provider.hasItemConformingToTypeIdentifier("public.png"))
        #expect(provider.representations.count == 4)
        provider.consumer = .sameTeam
        #expect(provider.registeredTypeIdentifiers == ["public.jpeg", "public.heic"])
        provider.consumer = .ownProcess
        #expect(provider.registeredTypeIdentifiers == ["public.png", "public.jpeg", "public.tiff", "public.heic"])
    }

    @Test func hiddenRepresentationsCannotBeLoaded() async throws {
        let provider = ItemProvider()
        provider.registerData("public.png", "secret", visibility: .ownProcess)
        let error = await #expect(throws: ItemProviderError.self) {
            try await provider.loadDataRepresentation(for: "public.png")
        }
        #expect(error?.code == .itemUnavailable)
    }

    @Test func openInPlaceFileOptionFiltersFileRepresentations() {
        let provider = ItemProvider()
        provider.registerData("public.plain-text", "x")
        provider.registerFileRepresentation(for: "com.adobe.pdf", openInPlace: true) { _ in nil }
        provider.registerFileRepresentation(for: "public.png") { _ in nil }
        #expect(provider.registeredTypeIdentifiers(fileOptions: []).count == 3)
        #expect(provider.registeredTypeIdentifiers(fileOptions: .openInPlace) == ["com.adobe.pdf"])
        #expect(provider.hasRepresentationConforming(toTypeIdentifier: "public.data", fileOptions: .openInPlace))
        #expect(!provider.hasRepresentationConforming(toTypeIdentifier: "public.image", fileOptions: .openInPlace))
        #expect(provider.representations.map(\.kind) == [.data, .openInPlace, .file])
    }

    @Test(arguments: [
        ("public.png", "public.image", true), ("public.png", "public.data", true), ("public.png", "public.item", true),
        ("public.png", "public.jpeg", false), ("public.image", "public.png", false),
        ("public.file-url", "public.url", true), ("public.url", "public.data", true),
        ("public.url", "public.text", false), ("public.plain-text", "public.text", true),
    ])
    func conformanceRunsFromRegisteredToRequested(registered: String, requested: String, expected: Bool) {
        let provider = ItemProvider()
        provider.registerData(registered, "x")
        #expect(provider.hasItemConformingToTypeIdentifier(requested) == expected)
    }

    @Test func exactTypeWinsThenFirstConforming() {
        let provider = ItemProvider()
        provider.registerData("public.heic", "heic")
        provider.registerData("public.png", "png")
        #expect(provider.representation(answering: "public.png")?.typeIdentifier == "public.png")
        #expect(provider.representation(answering: "PUBLIC.PNG")?.typeIdentifier == "public.png")
        #expect(provider.representation(answering: "public.image")?.typeIdentifier == "public.heic")
        #expect(provider.representation(answering: "public.movie") == nil)
    }

    @Test func contentsOfTypesFromTheExtension() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let pdf = try directory.write("%PDF", to: "Report.pdf")
        let unknown = try directory.write("?", to: "blob.qqqzz")
        let bare = try directory.write("?", to: "README")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("Folder"), withIntermediateDirectories: true)
        #expect(ItemProvider(contentsOf: pdf)?.registeredTypeIdentifiers == ["com.adobe.pdf"])
        #expect(ItemProvider(contentsOf: pdf)?.suggestedName == "Report.pdf")
        #expect(ItemProvider(contentsOf: unknown)?.registeredTypeIdentifiers == ["public.data"])
        #expect(ItemProvider(contentsOf: bare)?.registeredTypeIdentifiers == ["public.data"])
        #expect(
            ItemProvider(contentsOf: directory.url.appendingPathComponent("Folder"))?.registeredTypeIdentifiers == [
                "public.folder"
            ])
        #expect(ItemProvider(contentsOf: directory.url.appendingPathComponent("missing.pdf")) == nil)
        #expect(ItemProvider(contentsOf: pdf)?.representations.first?.kind == .file)
    }

    @Test func textAndURLObjects() {
        let text = ItemProvider(object: "hello")
        #expect(text.registeredTypeIdentifiers == ["public.utf8-plain-text"])
        #expect(text.hasItemConformingToTypeIdentifier("public.plain-text"))
        #expect(text.hasItemConformingToTypeIdentifier("public.text"))
        let web = ItemProvider(object: URL(string: "https://example.com/a")!)
        #expect(web.registeredTypeIdentifiers == ["public.url"])
        let file = ItemProvider(object: URL(fileURLWithPath: "/tmp/a.pdf"))
        #expect(file.registeredTypeIdentifiers == ["public.file-url"])
        #expect(file.hasItemConformingToTypeIdentifier("public.url"))
        #expect(!file.hasItemConformingToTypeIdentifier("public.text"))
    }

    @Test func presentationSizeAndSuggestedName() {
        let provider = ItemProvider()
        #expect(provider.preferredPresentationSize == .zero)
        #expect(provider.suggestedName == nil)
        provider.preferredPresentationSize = PresentationSize(width: 1170, height: 2532)
        #expect(provider.preferredPresentationSize.width == 1170)
    }

    @Test func typeRegistryAnswersConformance() throws {
        let provider = ItemProvider()
        provider.registerData("com.example.card", "x")
        #expect(!provider.hasItemConformingToTypeIdentifier("public.data"))
        provider.typeRegistry = TypeRegistry(
            declarations: TypeRegistry.system.allDeclarations + [
                TypeDeclaration(
                    identifier: "com.example.card", conformsTo: ["public.data"], source: .exported(path: "test"))
            ])
        #expect(provider.hasItemConformingToTypeIdentifier("public.data"))
    }
}
