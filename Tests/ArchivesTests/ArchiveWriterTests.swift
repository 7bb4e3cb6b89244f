import Archives
import Foundation
import Testing

struct ArchiveWriterTests {
    /// A tree with nested directories, an empty file, odd modes, a read-only directory with
    /// contents, inward symbolic links (one dangling), and optionally a 20 MiB file.
    private func makeTree(in scratch: Scratch, large: Bool) throws -> URL {
        try scratch.write(Array("hello\n".utf8), at: "tree/hello.txt")
        try scratch.write([], at: "tree/empty", permissions: 0o600)
        try scratch.write(Array("#!/bin/sh\necho hi\n".utf8), at: "tree/bin/run.sh", permissions: 0o755)
        try scratch.write(incompressibleBytes(70_000), at: "tree/a/b/c/deep.bin", permissions: 0o640)
        try scratch.write(Array("ro".utf8), at: "tree/locked/inside.txt", permissions: 0o444)
        try scratch.makeDirectory("tree/a/empty-dir")
        if large {
            try scratch.write(incompressibleBytes(20 << 20, seed: 42), at: "tree/big.bin")
        }
        try scratch.symlink("tree/link-to-hello", to: "hello.txt")
        try scratch.symlink("tree/a/b/up", to: "../../bin")
        try scratch.symlink("tree/dangling", to: "missing/file")
        try scratch.setDirectory("tree/a/b/c", permissions: 0o750, modified: 1_500_000_000)
        try scratch.setDirectory("tree/a/b", permissions: 0o755, modified: 1_500_000_100)
        try scratch.setDirectory("tree/a/empty-dir", permissions: 0o700, modified: 1_500_000_200)
        try scratch.setDirectory("tree/a", permissions: 0o755, modified: 1_500_000_300)
        try scratch.setDirectory("tree/bin", permissions: 0o755, modified: 1_500_000_400)
        try scratch.setDirectory("tree/locked", permissions: 0o555, modified: 1_500_000_500)
        return scratch.path("tree")
    }

    @Test(arguments: ArchiveFormat.allCases)
    func directoryRoundTripsByteForByte(format: ArchiveFormat) throws {
        let scratch = try Scratch()
        let tree = try makeTree(in: scratch, large: true)
        let archive = scratch.path("out.\(format.fileExtension)")
        let writer = try ArchiveWriter(url: archive)
        #expect(writer.format == format)
        try writer.addDirectory(at: tree)
        try writer.finish()

        let summary = try ArchiveExtractor().extract(archiveAt: archive, into: scratch.path("extracted"))
        let original = try snapshot(tree)
        let extracted = try snapshot(scratch.path("extracted"))
        #expect(extracted.keys.sorted() == original.keys.sorted())
        for (path, node) in original {
            #expect(extracted[path] == node, "\(path)")
        }
        #expect(summary.fileCount == 6)
        #expect(summary.symbolicLinkCount == 3)
        let expectedSize: Int64 = 6 + 18 + 70_000 + 2 + (20 << 20)
        #expect(summary.totalSize == expectedSize)
    }

    @Test func writesEntriesInSortedOrderWithThePrefix() throws {
        let scratch = try Scratch()
        try scratch.write([1], at: "d/b")
        try scratch.write([2], at: "d/a/z")
        try scratch.write([3], at: "d/C")
        try scratch.write([4], at: "d/a.txt")
        let archive = scratch.path("x.tar")
        let writer = try ArchiveWriter(url: archive)
        try writer.addDirectory(at: scratch.path("d"), as: "Top/")
        try writer.finish()
        let reader = try ArchiveReader(contentsOf: archive)
        let paths = try reader.listEntries().map(\.path)
        #expect(paths == ["Top/", "Top/C", "Top/a/", "Top/a/z", "Top/a.txt", "Top/b"])
    }

    @Test(arguments: ArchiveFormat.allCases)
    func sameTreeGivesTheSameArchive(format: ArchiveFormat) throws {
        let scratch = try Scratch()
        let tree = try makeTree(in: scratch, large: false)
        var outputs: [Data] = []
        for index in 0..<2 {
            let archive = scratch.path("out\(index).\(format.fileExtension)")
            let writer = try ArchiveWriter(url: archive)
            try writer.addDirectory(at: tree)
            try writer.finish()
            outputs.append(try Data(contentsOf: archive))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func addsFilesFromPathDescriptorAndMemory() throws {
        let scratch = try Scratch()
        let source = try scratch.write(
            incompressibleBytes(200_000), at: "src.bin", permissions: 0o600, modified: 1_234_567_890)
        let archive = scratch.path("mixed.tar.gz")
        let writer = try ArchiveWriter(url: archive)
        try writer.addFile(at: source, as: "from-path.bin")
        let handle = try FileHandle(forReadingFrom: source)
        try writer.addFile(
            fileDescriptor: handle.fileDescriptor, as: "from-fd.bin", permissions: 0o640, modificationTime: 7)
        try handle.close()
        try writer.addData(Data("memo".utf8), as: "notes/memo.txt", permissions: 0o600, modificationTime: 99)
        try writer.finish()

        let reader = try ArchiveReader(contentsOf: archive)
        let entries = try reader.listEntries()
        #expect(
            entries == [
                ArchiveEntry(
                    path: "from-path.bin", kind: .file, size: 200_000, permissions: 0o600,
                    modificationTime: 1_234_567_890),
                ArchiveEntry(path: "from-fd.bin", kind: .file, size: 200_000, permissions: 0o640, modificationTime: 7),
                ArchiveEntry(path: "notes/memo.txt", kind: .file, size: 4, permissions: 0o600, modificationTime: 99),
            ])
    }

    @Test func finishedFileAppearsOnlyAfterFinish() throws {
        let scratch = try Scratch()
        let archive = scratch.path("late.zip")
        let writer = try ArchiveWriter(url: archive)
        try writer.addData([1, 2, 3], as: "x")
        #expect(!FileManager.default.fileExists(atPath: archive.path))
        try writer.finish()
        #expect(FileManager.default.fileExists(atPath: archive.path))
        #expect(try scratch.names() == ["late.zip"])
    }

    @Test func abandonedWriterLeavesNoFile() throws {
        let scratch = try Scratch()
        do {
            let writer = try ArchiveWriter(url: scratch.path("gone.tar"))
            try writer.addData([1], as: "x")
        }
        #expect(try scratch.names() == [])
    }

    @Test func refusesAnUnknownFileName() throws {
        let scratch = try Scratch()
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveWriter(url: scratch.path("out.rar"))
        }
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("out.rar"))
    }

    @Test(arguments: [
        ("a.tar", ArchiveFormat.tar), ("a.TAR.GZ", .tarGzip), ("a.tgz", .tarGzip), ("dir/a.zip", .zip),
    ])
    func picksTheFormatFromTheFileName(name: String, format: ArchiveFormat) {
        #expect(ArchiveFormat(fileName: name) == format)
    }

    @Test func refusesAFifoInsideATree() throws {
        let scratch = try Scratch()
        try scratch.write([1], at: "t/a")
        #expect(mkfifo(scratch.path("t/pipe").path, 0o644) == 0)
        let writer = try ArchiveWriter(url: scratch.path("t.tar"))
        let error = try #require(throws: ArchiveError.self) { try writer.addDirectory(at: scratch.path("t")) }
        #expect(error.code == .unsupportedEntryType)
        #expect(error.entry == "pipe")
    }

    @Test func writesToACallerOwnedDescriptor() throws {
        let scratch = try Scratch()
        let target = scratch.path("fd.zip")
        #expect(FileManager.default.createFile(atPath: target.path, contents: nil))
        let handle = try FileHandle(forWritingTo: target)
        let writer = try ArchiveWriter(fileDescriptor: handle.fileDescriptor, format: .zip)
        try writer.addData(Data("via fd".utf8), as: "f.txt")
        try writer.finish()
        try handle.close()
        let reader = try ArchiveReader(contentsOf: target)
        #expect(try reader.listEntries().map(\.path) == ["f.txt"])
    }
}
