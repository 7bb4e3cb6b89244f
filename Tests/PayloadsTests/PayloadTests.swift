import ActivationRules
import Archives
import Foundation
import ItemProviders
import Payloads
import Predicates
import Testing

/// A throwaway folder.
struct Folder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("payloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ bytes: Data, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file)
        return file
    }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL { try write(Data(text.utf8), to: name) }

    /// The shared demo folder: text, a link, a webloc, a folder, a PDF, an extension-less PDF, a hidden file.
    func fillWithDemo() throws {
        try write("Meeting notes", to: "a-notes.txt")
        try write("[InternetShortcut]\nURL=https://example.com/article\n", to: "b-link.url")
        let webloc = try PropertyListSerialization.data(
            fromPropertyList: ["URL": "https://example.org/"], format: .xml, options: 0)
        try write(webloc, to: "c-site.webloc")
        try write("one", to: "d-Trip/one.txt")
        try write("%PDF-1.4\n%%EOF\n", to: "e-report.pdf")
        try write("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n", to: "f-scan")
        try write("ignored", to: ".DS_Store")
    }
}

struct FolderPayloadTests {
    /// As the Files app shares them: each file a file representation of the type its extension names.
    static let demoTypes = [
        ["public.plain-text"], ["com.microsoft.internet-shortcut"], ["com.apple.web-internet-location"],
        ["public.folder"], ["com.adobe.pdf"], ["com.adobe.pdf"],
    ]

    @Test func folderBecomesOneItemWithSortedAttachments() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.fillWithDemo()
        let payload = try Payload.load(folder.url)
        #expect(payload.items.count == 1)
        let attachments = try #require(payload.items.first?.attachments)
        #expect(attachments.map(\.registeredTypeIdentifiers) == Self.demoTypes)
        #expect(
            attachments.map(\.suggestedName) == [
                "a-notes.txt", "b-link.url", "c-site.webloc", "d-Trip", "e-report.pdf", "f-scan",
            ])
        // loadItem gives each file's URL, as for any file the Files app shares.
        let note = try #require(try await attachments[0].loadItem(forTypeIdentifier: "public.text") as? URL)
        #expect(note.isFileURL && note.lastPathComponent == "a-notes.txt")
        #expect(try Data(contentsOf: note) == Data("Meeting notes".utf8))
        #expect(attachments[1].representation(answering: "public.data")?.kind == .file)
        #expect(attachments[3].representation(answering: "public.folder")?.kind == .file)
        #expect(payload.descriptions.first?.attachments[4].representations.first?.byteCount == 15)
        #expect(!payload.isWebpage)
    }

    @Test func textThatIsNotUTF8IsSharedLikeAnyFile() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        // "café" in Latin-1: not UTF-8, and the Files app shares it all the same.
        try folder.write(Data([0x63, 0x61, 0x66, 0xE9, 0x0A]), to: "latin1.txt")
        let payload = try Payload.load(folder.url)
        let provider = try #require(payload.items.first?.attachments?.first)
        #expect(provider.registeredTypeIdentifiers == ["public.plain-text"])
        let data = try await provider.loadDataRepresentation(for: "public.plain-text")
        #expect(data == Data([0x63, 0x61, 0x66, 0xE9, 0x0A]))
    }

    @Test func singleFileIsOneAttachment() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = try folder.write("%PDF-1.4\n", to: "Invoice.pdf")
        let payload = try Payload.load(file)
        #expect(payload.items.first?.attachments?.map(\.registeredTypeIdentifiers) == [["com.adobe.pdf"]])
        #expect(payload.source == file.path)
    }

    @Test(arguments: [ArchiveFormat.zip, .tar, .tarGzip])
    func archivesReadLikeFolders(format: ArchiveFormat) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let content = folder.url.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Folder(existing: content).fillWithDemo()
        let archive = folder.url.appendingPathComponent("share.\(format.fileExtension)")
        let writer = try ArchiveWriter(url: archive, format: format)
        try writer.addDirectory(at: content)
        try writer.finish()
        let payload = try Payload.load(archive)
        #expect(payload.items.first?.attachments?.map(\.registeredTypeIdentifiers) == Self.demoTypes)
        let extracted = try #require(payload.extractedDirectory)
        #expect(FileManager.default.fileExists(atPath: extracted.appendingPathComponent("e-report.pdf").path))
        payload.removeExtractedFiles()
        #expect(!FileManager.default.fileExists(atPath: extracted.path))
    }

    @Test func hostileArchivesAreRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let archive = folder.url.appendingPathComponent("evil.zip")
        let writer = try ArchiveWriter(url: archive, format: .zip)
        try writer.addData(Array("x".utf8), as: "../escape.txt")
        try writer.finish()
        let error = #expect(throws: PayloadError.self) { try Payload.load(archive) }
        #expect(error?.source == archive.path)
    }

    @Test func missingPathIsNamed() {
        let error = #expect(throws: PayloadError.self) { try Payload.load(URL(fileURLWithPath: "/nonexistent/x")) }
        #expect(error?.description.hasPrefix("/nonexistent/x: ") == true)
    }

    @Test func extensionlessFilesAreSniffed() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let png = try folder.write(
            Data(
                base64Encoded:
                    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
                ?? Data(), to: "picture")
        let text = try folder.write("just words\n", to: "words")
        #expect(ContentSniffer.mimeType(ofFileAt: png) == "image/png")
        #expect(ContentSniffer.typeIdentifier(ofFileAt: png) == "public.png")
        #expect(ContentSniffer.typeIdentifier(ofFileAt: text) == "public.plain-text")
    }

    @Test func activationPayloadCarriesTheVisibleTypes() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.fillWithDemo()
        let activation = try Payload.load(folder.url).activationPayload()
        #expect(activation.items.first?.attachments?.map(\.registeredTypeIdentifiers) == Self.demoTypes)
    }
}

extension Folder {
    init(existing url: URL) { self.url = url }
}
