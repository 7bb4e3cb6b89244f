import Archives
import Foundation
import Testing

struct ArchiveReaderTests {
    private func sampleArchive(_ format: ArchiveFormat, in scratch: Scratch) throws -> URL {
        let archive = scratch.path("sample.\(format.fileExtension)")
        let writer = try ArchiveWriter(url: archive)
        try writer.addEntry(ArchiveEntry(path: "docs", kind: .directory, permissions: 0o750, modificationTime: 10))
        try writer.addData(Array("text".utf8), as: "docs/a.txt", permissions: 0o644, modificationTime: 20)
        try writer.addEntry(
            ArchiveEntry(
                path: "docs/link", kind: .symbolicLink, permissions: 0o777, linkTarget: "a.txt", modificationTime: 30))
        try writer.addData(incompressibleBytes(300_000), as: "big.bin", permissions: 0o600, modificationTime: 40)
        try writer.finish()
        return archive
    }

    @Test(arguments: ArchiveFormat.allCases)
    func listsPathKindSizeModeAndLinkTarget(format: ArchiveFormat) throws {
        let scratch = try Scratch()
        let reader = try ArchiveReader(contentsOf: try sampleArchive(format, in: scratch))
        let entries = try reader.listEntries()
        try reader.finish()
        #expect(entries.map(\.path) == ["docs/", "docs/a.txt", "docs/link", "big.bin"])
        #expect(entries.map(\.kind) == [.directory, .file, .symbolicLink, .file])
        #expect(entries[1].size == 4)
        #expect(entries[3].size == 300_000)
        #expect(entries.map(\.permissions) == [0o750, 0o644, 0o777, 0o600])
        #expect(entries[2].linkTarget == "a.txt")
        #expect(entries.map(\.modificationTime) == [10, 20, 30, 40])
    }

    @Test(arguments: ArchiveFormat.allCases)
    func streamsDataInBoundedChunks(format: ArchiveFormat) throws {
        let scratch = try Scratch()
        let reader = try ArchiveReader(contentsOf: try sampleArchive(format, in: scratch))
        var largestChunk = 0
        var collected: [String: [UInt8]] = [:]
        while let entry = try reader.nextEntry() {
            var bytes: [UInt8] = []
            try reader.readData { chunk in
                largestChunk = max(largestChunk, chunk.count)
                bytes.append(contentsOf: chunk)
            }
            collected[entry.path] = bytes
        }
        #expect(largestChunk <= ArchiveReader.chunkSize)
        #expect(collected["docs/a.txt"] == Array("text".utf8))
        #expect(collected["big.bin"] == incompressibleBytes(300_000))
        #expect(reader.formatName != nil)
    }

    @Test func readsFromMemoryAndFromADescriptor() throws {
        let scratch = try Scratch()
        let archive = try sampleArchive(.tarGzip, in: scratch)
        let bytes = try Data(contentsOf: archive)
        let fromMemory = try ArchiveReader(bytes: bytes, name: "upload.tgz")
        #expect(try fromMemory.listEntries().count == 4)
        #expect(fromMemory.archiveSize == Int64(bytes.count))
        let handle = try FileHandle(forReadingFrom: archive)
        defer { try? handle.close() }
        let fromDescriptor = try ArchiveReader(fileDescriptor: handle.fileDescriptor)
        #expect(try fromDescriptor.listEntries().count == 4)
        #expect(fromDescriptor.archiveName == "fd \(handle.fileDescriptor)")
    }

    @Test func refusesBytesThatAreNotAnArchive() throws {
        let scratch = try Scratch()
        let junk = try scratch.write(Array("this is just a text file, not an archive\n".utf8), at: "junk.tar")
        let error = try #require(throws: ArchiveError.self) {
            let reader = try ArchiveReader(contentsOf: junk)
            _ = try reader.listEntries()
        }
        #expect(error.code == .unreadableArchive)
        #expect(error.message.contains(junk.path))
        #expect(error.cause is LibarchiveFailure)
    }

    @Test(arguments: ArchiveFormat.allCases)
    func truncatedArchiveFailsCleanly(format: ArchiveFormat) throws {
        let scratch = try Scratch()
        let whole = try Data(contentsOf: try sampleArchive(format, in: scratch))
        let cut = try scratch.write(whole.prefix(whole.count / 2), at: "cut.\(format.fileExtension)")
        let error = try #require(throws: ArchiveError.self) {
            let reader = try ArchiveReader(contentsOf: cut)
            while try reader.nextEntry() != nil {
                try reader.readData { _ in }
            }
        }
        #expect(error.code == .unreadableArchive)
        #expect(error.archive == cut.path)
    }

    @Test func missingArchiveIsAnIOError() throws {
        let scratch = try Scratch()
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveReader(contentsOf: scratch.path("nope.zip"))
        }
        #expect(error.code == .io)
        #expect(error.message.contains("nope.zip"))
    }

    @Test func readingAfterFinishIsAnError() throws {
        let scratch = try Scratch()
        let reader = try ArchiveReader(contentsOf: try sampleArchive(.tar, in: scratch))
        try reader.finish()
        try reader.finish()
        #expect(throws: ArchiveError.self) { try reader.nextEntry() }
    }
}

extension ArchiveReaderTests {
    /// `Tests/ArchivesTests/Fixtures`, found from this file's path.
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    @Test(arguments: ["hello.tar.xz", "hello.tar.bz2", "hello.tar.zst"])
    func detectsOtherCompressions(fixture: String) throws {
        let reader = try ArchiveReader(contentsOf: Self.fixtures.appending(path: fixture))
        let entry = try #require(try reader.nextEntry())
        var bytes: [UInt8] = []
        try reader.readData { bytes.append(contentsOf: $0) }
        #expect(entry.path == "hello.txt")
        #expect(bytes == Array("compressed hello\n".utf8))
        #expect(try reader.nextEntry() == nil)
    }
}
