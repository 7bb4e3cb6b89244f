import Foundation
import Testing
import UniformTypeIdentifiers

/// The `UTType` forms of `NSItemProvider` (iOS 14 and 16): registering and loading by content type.
struct ItemProviderContentTypeTests {
    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("exthost-uti-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func loadData(_ provider: NSItemProvider, _ type: UTType) async -> (Data?, (any Error)?) {
        await withCheckedContinuation { continuation in
            provider.loadDataRepresentation(for: type) { data, error in continuation.resume(returning: (data, error)) }
        }
    }

    /// The file the completion saw (read inside it: a copy is deleted when it returns) and whether
    /// it was in place.
    func loadFile(_ provider: NSItemProvider, _ type: UTType, openInPlace: Bool) async
        -> (url: URL?, contents: Data?, inPlace: Bool, error: (any Error)?)
    {
        await withCheckedContinuation { continuation in
            provider.loadFileRepresentation(for: type, openInPlace: openInPlace) { url, inPlace, error in
                var contents: Data?
                if let url {
                    let scoped = url.startAccessingSecurityScopedResource()
                    contents = try? Data(contentsOf: url)
                    if scoped { url.stopAccessingSecurityScopedResource() }
                }
                continuation.resume(returning: (url, contents, inPlace, error))
            }
        }
    }

    @Test func fileProviderTypesItsFileFromTheExtension() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("Picture.png")
        let unknown = folder.appendingPathComponent("Blob.qqq7")
        try Data([0x89, 0x50]).write(to: png)
        try Data([1]).write(to: unknown)

        let typed = NSItemProvider(contentsOf: png, contentType: nil)
        #expect(typed.registeredContentTypes == [.png])
        #expect(typed.suggestedName == "Picture.png")
        #expect(typed.registeredContentTypesForOpenInPlace.isEmpty)
        #expect(typed.registeredContentTypes(conformingTo: .image) == [.png])
        #expect(typed.registeredContentTypes(conformingTo: .text).isEmpty)

        // An extension no type declares is registered as plain data, not as a dynamic type.
        #expect(NSItemProvider(contentsOf: unknown, contentType: nil).registeredContentTypes == [.data])
        let inPlace = NSItemProvider(contentsOf: png, contentType: .image, openInPlace: true)
        #expect(inPlace.registeredContentTypes == [.image])
        #expect(inPlace.registeredContentTypesForOpenInPlace == [.image])
    }

    @Test func dataRepresentationRegisteredAndLoadedByType() async throws {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { completion in
            completion(Data("hello".utf8), nil)
            return nil
        }
        #expect(provider.registeredContentTypes == [.utf8PlainText])
        let (data, error) = await loadData(provider, .plainText)
        #expect(error == nil)
        #expect(data == Data("hello".utf8))
        let (missing, missingError) = await loadData(provider, .jpeg)
        #expect(missing == nil && missingError != nil)
    }

    @Test func fileRepresentationLoadedAsACopyOrInPlace() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("Doc.pdf")
        try Data("%PDF-1.4".utf8).write(to: original)
        let provider = NSItemProvider()
        provider.registerFileRepresentation(for: .pdf, openInPlace: true) { completion in
            completion(original, false, nil)
            return nil
        }
        #expect(provider.registeredContentTypesForOpenInPlace == [.pdf])

        let copy = await loadFile(provider, .pdf, openInPlace: false)
        #expect(copy.error == nil && !copy.inPlace)
        #expect(copy.url != nil && copy.url?.standardizedFileURL != original.standardizedFileURL)
        #expect(copy.contents == Data("%PDF-1.4".utf8))

        let opened = await loadFile(provider, .pdf, openInPlace: true)
        #expect(opened.error == nil && opened.inPlace)
        #expect(opened.url?.standardizedFileURL == original.standardizedFileURL)
        #expect(opened.contents == Data("%PDF-1.4".utf8))
        #expect(FileManager.default.fileExists(atPath: original.path), "loading in place must not move the original")
    }
}
