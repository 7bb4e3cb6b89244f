import Foundation
import Payloads
import Testing

/// Content sniffing for files without a known extension: libmagic's MIME type mapped onto the
/// declared types, and what a file that cannot be read becomes.
struct ContentSnifferTests {
    @Test func mimeTypesMapOntoDeclaredTypesOrTheirFamily() {
        #expect(ContentSniffer.typeIdentifier(forMIMEType: "text/plain") == "public.plain-text")
        #expect(ContentSniffer.typeIdentifier(forMIMEType: "image/png") == "public.png")
        #expect(ContentSniffer.typeIdentifier(forMIMEType: "application/pdf") == "com.adobe.pdf")
        // An undeclared text type is still text; any other undeclared type is plain data.
        #expect(ContentSniffer.typeIdentifier(forMIMEType: "text/x-exthost-notes") == "public.plain-text")
        #expect(ContentSniffer.typeIdentifier(forMIMEType: "application/x-exthost-blob") == "public.data")
    }

    @Test func bytesAreSniffedByTheirMagicNumber() throws {
        #expect(ContentSniffer.mimeType(of: Data("%PDF-1.4\n%%EOF\n".utf8)) == "application/pdf")
        #expect(ContentSniffer.mimeType(of: Data("just words\n".utf8)) == "text/plain")
        let folder = try Folder()
        defer { folder.remove() }
        let pdf = try folder.write("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n", to: "no-extension")
        #expect(ContentSniffer.typeIdentifier(ofFileAt: pdf) == "com.adobe.pdf")
    }

    /// Many files sniffed at once, on every core, type exactly as one by one — in order, with the
    /// unreadable ones as data.
    @Test func manyFilesAreSniffedAtOnceAsOneByOne() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let contents = [
            "%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n", "plain words\n", "\u{89}PNG\r\n\u{1A}\n", "GIF89a....",
        ]
        var urls: [URL] = []
        for index in 0..<(ContentSniffer.parallelThreshold * 3 + 5) {
            urls.append(try folder.write(contents[index % contents.count], to: "file-\(index)"))
        }
        urls.insert(URL(fileURLWithPath: "/nonexistent-exthost/\(UUID().uuidString)"), at: 7)
        let atOnce = ContentSniffer.typeIdentifiers(ofFilesAt: urls)
        #expect(atOnce == urls.map { ContentSniffer.typeIdentifier(ofFileAt: $0) })
        #expect(atOnce[0] == "com.adobe.pdf" && atOnce[1] == "public.plain-text" && atOnce[7] == "public.data")
        #expect(ContentSniffer.typeIdentifiers(ofFilesAt: []).isEmpty)
    }

    @Test func aFileThatCannotBeReadIsData() {
        let missing = URL(fileURLWithPath: "/nonexistent-exthost/\(UUID().uuidString)")
        #expect(ContentSniffer.mimeType(ofFileAt: missing) == nil)
        #expect(ContentSniffer.typeIdentifier(ofFileAt: missing) == "public.data")
    }

    @Test func errorsReadLikeACompilers() {
        struct Cause: Error, CustomStringConvertible { var description: String { "disk full" } }
        #expect(
            PayloadError(source: "share.json", line: 3, column: 7, "expected a string").description
                == "share.json:3:7: expected a string")
        #expect(PayloadError(source: "share.json", line: 3, "bad").description == "share.json:3: bad")
        #expect(
            PayloadError(source: "items", "cannot read", cause: Cause()).description
                == "items: cannot read (disk full)")
    }
}
