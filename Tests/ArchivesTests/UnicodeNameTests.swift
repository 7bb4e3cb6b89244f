import Archives
import Foundation
import Testing

struct UnicodeNameTests {
    @Test(arguments: ArchiveFormat.allCases)
    func nonASCIINamesRoundTrip(format: ArchiveFormat) throws {
        let scratch = try Scratch()
        try scratch.write(Array("crème".utf8), at: "Fotos/café 日本.txt")
        try scratch.symlink("Fotos/lien→", to: "café 日本.txt")
        let archive = scratch.path("names.\(format.fileExtension)")
        let writer = try ArchiveWriter(url: archive)
        try writer.addDirectory(at: scratch.path("Fotos"), as: "Fotos")
        try writer.finish()
        let reader = try ArchiveReader(contentsOf: archive)
        let entries = try reader.listEntries()
        #expect(entries.map(\.path) == ["Fotos/", "Fotos/café 日本.txt", "Fotos/lien→"])
        #expect(entries.last?.linkTarget == "café 日本.txt")
        try ArchiveExtractor().extract(archiveAt: archive, into: scratch.path("out"))
        #expect(try scratch.names(in: "out/Fotos") == ["café 日本.txt", "lien→"])
    }
}
