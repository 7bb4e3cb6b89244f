import Archives
import Foundation
import Testing

struct ZipDirectoryTests {
    @Test func zipsAFolderUnderItsOwnName() throws {
        let scratch = try Scratch()
        try scratch.write(Array("one".utf8), at: "Folder/one.txt")
        try scratch.write(Array("two".utf8), at: "Folder/sub/two.txt")
        let zip = scratch.path("Folder.zip")
        try ArchiveWriter.zipDirectory(at: scratch.path("Folder"), to: zip)
        let reader = try ArchiveReader(contentsOf: zip)
        #expect(
            try reader.listEntries().map(\.path) == ["Folder/", "Folder/one.txt", "Folder/sub/", "Folder/sub/two.txt"])
        #expect(reader.formatName?.contains("ZIP") == true)
    }

    @Test func zipsIntoMemoryThatMatchesTheFile() throws {
        let scratch = try Scratch()
        try scratch.write(incompressibleBytes(10_000), at: "F/data.bin")
        let data = try ArchiveWriter.zipDirectory(at: scratch.path("F"), maximumSize: 1 << 20)
        try ArchiveWriter.zipDirectory(at: scratch.path("F"), to: scratch.path("F.zip"))
        #expect(data == (try Data(contentsOf: scratch.path("F.zip"))))
        let extracted = try ArchiveExtractor().extract(
            from: ArchiveReader(bytes: data, name: "memory.zip"), into: scratch.path("out"))
        #expect(extracted.totalSize == 10_000)
    }

    @Test func refusesToGrowPastTheMemoryLimit() throws {
        let scratch = try Scratch()
        try scratch.write(incompressibleBytes(200_000), at: "F/data.bin")
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveWriter.zipDirectory(at: scratch.path("F"), maximumSize: 64 * 1024)
        }
        #expect(error.code == .outputTooLarge)
        #expect(error.message.contains("65536"))
    }
}
