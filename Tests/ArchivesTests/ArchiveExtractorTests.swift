import Archives
import Foundation
import Testing

struct ArchiveExtractorTests {
    /// One hostile archive: how to build it, the code it must be refused with, and the entry named.
    struct Hostile: CustomTestStringConvertible, Sendable {
        var name: String
        var format: ArchiveFormat = .tar
        var code: ArchiveError.Code
        var entry: String
        var limits = ExtractionLimits()
        var build: @Sendable (ArchiveWriter) throws -> Void

        var testDescription: String { "\(name) (\(format))" }
    }

    static let hostile: [Hostile] = [
        Hostile(name: "dot-dot entry", code: .unsafePath, entry: "../evil") { writer in
            try writer.addData(Array("ok".utf8), as: "fine.txt")
            try writer.addData(Array("evil".utf8), as: "../evil")
        },
        Hostile(name: "dot-dot entry in zip", format: .zip, code: .unsafePath, entry: "../evil") { writer in
            try writer.addData(Array("evil".utf8), as: "../evil")
        },
        Hostile(name: "dot-dot in the middle", code: .unsafePath, entry: "a/../../evil") { writer in
            try writer.addData(Array("evil".utf8), as: "a/../../evil")
        },
        Hostile(name: "absolute entry", code: .unsafePath, entry: "/etc/evil") { writer in
            try writer.addData(Array("evil".utf8), as: "/etc/evil")
        },
        Hostile(name: "absolute entry in tar.gz", format: .tarGzip, code: .unsafePath, entry: "/etc/evil") { writer in
            try writer.addData(Array("evil".utf8), as: "/etc/evil")
        },
        Hostile(name: "outward symlink then a file through it", code: .escapingLink, entry: "link") { writer in
            try writer.addEntry(ArchiveEntry(path: "link", kind: .symbolicLink, linkTarget: "../../outside"))
            try writer.addData(Array("evil".utf8), as: "link/x")
        },
        Hostile(name: "outward symlink in zip", format: .zip, code: .escapingLink, entry: "link") { writer in
            try writer.addEntry(ArchiveEntry(path: "link", kind: .symbolicLink, linkTarget: "../outside"))
            try writer.addData(Array("evil".utf8), as: "link/x")
        },
        Hostile(name: "absolute symlink", code: .escapingLink, entry: "etc") { writer in
            try writer.addEntry(ArchiveEntry(path: "etc", kind: .symbolicLink, linkTarget: "/etc"))
        },
        Hostile(name: "symlink climbing one level too far", code: .escapingLink, entry: "a/b/up") { writer in
            try writer.addEntry(ArchiveEntry(path: "a/b/up", kind: .symbolicLink, linkTarget: "../../.."))
        },
        Hostile(name: "symlink with dot-dot after a name", code: .escapingLink, entry: "l") { writer in
            try writer.addEntry(ArchiveEntry(path: "sub/x", kind: .symbolicLink, linkTarget: ".."))
            try writer.addEntry(ArchiveEntry(path: "l", kind: .symbolicLink, linkTarget: "sub/x/.."))
        },
        Hostile(name: "file through an inward symlink", code: .traversesLink, entry: "link/x") { writer in
            try writer.addEntry(ArchiveEntry(path: "sub", kind: .directory, permissions: 0o755))
            try writer.addEntry(ArchiveEntry(path: "link", kind: .symbolicLink, linkTarget: "sub"))
            try writer.addData(Array("x".utf8), as: "link/x")
        },
        Hostile(name: "file below a file", code: .traversesLink, entry: "a/b") { writer in
            try writer.addData(Array("a".utf8), as: "a")
            try writer.addData(Array("b".utf8), as: "a/b")
        },
        Hostile(name: "hardlink out with dot-dot", code: .escapingLink, entry: "h") { writer in
            try writer.addEntry(ArchiveEntry(path: "h", kind: .hardLink, linkTarget: "../outside/secret"))
        },
        Hostile(name: "hardlink to an absolute path", code: .escapingLink, entry: "h") { writer in
            try writer.addEntry(ArchiveEntry(path: "h", kind: .hardLink, linkTarget: "/etc/passwd"))
        },
        Hostile(name: "hardlink to a missing entry", code: .escapingLink, entry: "h") { writer in
            try writer.addEntry(ArchiveEntry(path: "h", kind: .hardLink, linkTarget: "never-extracted"))
        },
        Hostile(name: "hardlink to a symlink", code: .escapingLink, entry: "h") { writer in
            try writer.addEntry(ArchiveEntry(path: "sub/up", kind: .symbolicLink, linkTarget: ".."))
            try writer.addEntry(ArchiveEntry(path: "h", kind: .hardLink, linkTarget: "sub/up"))
        },
        Hostile(name: "character device", code: .unsupportedEntryType, entry: "dev/null") { writer in
            try writer.addEntry(ArchiveEntry(path: "dev/null", kind: .characterDevice, permissions: 0o666))
        },
        Hostile(name: "block device", code: .unsupportedEntryType, entry: "sda") { writer in
            try writer.addEntry(ArchiveEntry(path: "sda", kind: .blockDevice, permissions: 0o660))
        },
        Hostile(name: "fifo", code: .unsupportedEntryType, entry: "pipe") { writer in
            try writer.addEntry(ArchiveEntry(path: "pipe", kind: .fifo))
        },
        Hostile(name: "duplicate file", code: .duplicateEntry, entry: "same") { writer in
            try writer.addData(Array("1".utf8), as: "same")
            try writer.addData(Array("2".utf8), as: "same")
        },
        Hostile(
            name: "too many entries", code: .tooManyEntries, entry: "f10",
            limits: ExtractionLimits(maximumEntryCount: 10)
        ) { writer in
            for index in 0..<11 { try writer.addData([UInt8(index)], as: "f\(index)") }
        },
        Hostile(
            name: "total size cap", code: .tooLarge, entry: "second",
            limits: ExtractionLimits(maximumTotalSize: 1 << 20)
        ) { writer in
            try writer.addData(incompressibleBytes(600_000), as: "first")
            try writer.addData(incompressibleBytes(600_000, seed: 7), as: "second")
        },
        Hostile(
            name: "high-ratio bomb", format: .tarGzip, code: .compressionRatio, entry: "zeros",
            limits: ExtractionLimits(maximumCompressionRatio: 200, compressionRatioThreshold: 1 << 20)
        ) { writer in
            try writer.addData([UInt8](repeating: 0, count: 8 << 20), as: "zeros")
        },
        Hostile(
            name: "high-ratio zip bomb", format: .zip, code: .compressionRatio, entry: "zeros",
            limits: ExtractionLimits(maximumCompressionRatio: 200, compressionRatioThreshold: 1 << 20)
        ) { writer in
            try writer.addData([UInt8](repeating: 0, count: 8 << 20), as: "zeros")
        },
    ]

    @Test(arguments: hostile)
    func refusesHostileArchiveAndLeavesNothingBehind(_ hostile: Hostile) throws {
        let scratch = try Scratch()
        try scratch.write(Array("secret".utf8), at: "outside/secret")
        let archive = scratch.path("hostile.\(hostile.format.fileExtension)")
        let writer = try ArchiveWriter(url: archive)
        try hostile.build(writer)
        try writer.finish()
        let before = try snapshot(scratch.url)

        let destination = scratch.path("work/dest")
        try scratch.makeDirectory("work")
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveExtractor(limits: hostile.limits).extract(archiveAt: archive, into: destination)
        }
        #expect(error.code == hostile.code, "\(error)")
        #expect(error.entry == hostile.entry)
        #expect(error.archive == archive.path)
        #expect(error.message.contains(archive.path))
        #expect(error.message.contains("'\(hostile.entry)'"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try scratch.names(in: "work") == [])
        var after = try snapshot(scratch.url)
        after["work"] = nil
        #expect(after == before)
        #expect(!FileManager.default.fileExists(atPath: "/etc/evil"))
    }

    @Test func refusalKeepsAnExistingEmptyDestinationAsItWas() throws {
        let scratch = try Scratch()
        let archive = scratch.path("bad.tar")
        let writer = try ArchiveWriter(url: archive)
        try writer.addData([1], as: "ok")
        try writer.addData([2], as: "../bad")
        try writer.finish()
        let destination = try scratch.makeDirectory("dest")
        #expect(throws: ArchiveError.self) { try ArchiveExtractor().extract(archiveAt: archive, into: destination) }
        #expect(try scratch.names(in: "dest") == [])
        #expect(try scratch.names() == ["bad.tar", "dest"])
    }

    @Test func refusesANonEmptyDestination() throws {
        let scratch = try Scratch()
        let archive = scratch.path("a.zip")
        let writer = try ArchiveWriter(url: archive)
        try writer.addData([1], as: "new")
        try writer.finish()
        try scratch.write([9], at: "dest/keep")
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveExtractor().extract(archiveAt: archive, into: scratch.path("dest"))
        }
        #expect(error.code == .destinationExists)
        #expect(try scratch.names(in: "dest") == ["keep"])
    }

    @Test func extractsIntoAnEmptyDirectoryAndAcceptsInwardLinks() throws {
        let scratch = try Scratch()
        let archive = scratch.path("ok.tar")
        let writer = try ArchiveWriter(url: archive)
        try writer.addEntry(ArchiveEntry(path: "./", kind: .directory, permissions: 0o700))
        try writer.addData(
            Array("data".utf8), as: "./implicit/parent/file.txt", permissions: 0o640, modificationTime: 5)
        try writer.addEntry(ArchiveEntry(path: "implicit/up", kind: .symbolicLink, linkTarget: ".."))
        try writer.addEntry(ArchiveEntry(path: "implicit/parent/sib", kind: .symbolicLink, linkTarget: "file.txt"))
        try writer.addEntry(ArchiveEntry(path: "hard", kind: .hardLink, linkTarget: "implicit/parent/file.txt"))
        try writer.addEntry(ArchiveEntry(path: "implicit", kind: .directory, permissions: 0o750, modificationTime: 3))
        try writer.finish()
        let destination = try scratch.makeDirectory("dest")

        let summary = try ArchiveExtractor().extract(archiveAt: archive, into: destination)
        #expect(summary.fileCount == 1)
        #expect(summary.symbolicLinkCount == 2)
        #expect(summary.hardLinkCount == 1)
        let tree = try snapshot(destination)
        #expect(tree["hard"]?.contents == Data("data".utf8))
        #expect(tree["implicit"] == Node(kind: "dir", permissions: 0o750, modified: 3))
        #expect(tree["implicit/parent"]?.permissions == 0o755)
        #expect(tree["implicit/parent/file.txt"]?.permissions == 0o640)
        #expect(tree["implicit/up"]?.target == "..")
        let linked = try String(contentsOf: destination.appending(path: "implicit/up/hard"), encoding: .utf8)
        #expect(linked == "data")
    }

    @Test func stripsSetuidAndStickyBits() throws {
        let scratch = try Scratch()
        let archive = scratch.path("suid.tar")
        let writer = try ArchiveWriter(url: archive)
        try writer.addData([0], as: "tool", permissions: 0o4755)
        try writer.addEntry(ArchiveEntry(path: "shared", kind: .directory, permissions: 0o1777))
        try writer.finish()
        try ArchiveExtractor().extract(archiveAt: archive, into: scratch.path("dest"))
        let tree = try snapshot(scratch.path("dest"))
        #expect(tree["tool"]?.permissions == 0o755)
        #expect(tree["shared"]?.permissions == 0o777)
    }

    @Test func ratioBelowTheThresholdIsAccepted() throws {
        let scratch = try Scratch()
        let archive = scratch.path("small.tar.gz")
        let writer = try ArchiveWriter(url: archive)
        try writer.addData([UInt8](repeating: 0, count: 1 << 20), as: "zeros")
        try writer.finish()
        let summary = try ArchiveExtractor().extract(archiveAt: archive, into: scratch.path("dest"))
        #expect(summary.totalSize == 1 << 20)
    }

    @Test func corruptArchiveLeavesNothingBehind() throws {
        let scratch = try Scratch()
        let archive = scratch.path("good.tar.gz")
        let writer = try ArchiveWriter(url: archive)
        try writer.addData(Array("first".utf8), as: "first")
        try writer.addData(incompressibleBytes(400_000), as: "second")
        try writer.finish()
        let whole = try Data(contentsOf: archive)
        let cut = try scratch.write(whole.prefix(whole.count - 1000), at: "cut.tar.gz")
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveExtractor().extract(archiveAt: cut, into: scratch.path("dest"))
        }
        #expect(error.code == .unreadableArchive)
        #expect(error.message.contains(cut.path))
        #expect(try scratch.names() == ["cut.tar.gz", "good.tar.gz"])
    }
}

extension ArchiveExtractorTests {
    @Test func bombFromAPipeIsMeasuredAgainstBytesConsumed() throws {
        let scratch = try Scratch()
        let bomb = try ArchiveWriter.withMemoryOutput(format: .tarGzip, maximumSize: 1 << 20) { writer in
            try writer.addData([UInt8](repeating: 0, count: 8 << 20), as: "zeros")
        }
        #expect(bomb.count < 60_000)  // fits in the pipe buffer, so no writer thread is needed
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: bomb)
        try pipe.fileHandleForWriting.close()
        let reader = try ArchiveReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "stdin")
        #expect(reader.archiveSize == nil)
        let limits = ExtractionLimits(maximumCompressionRatio: 200, compressionRatioThreshold: 1 << 20)
        let error = try #require(throws: ArchiveError.self) {
            try ArchiveExtractor(limits: limits).extract(from: reader, into: scratch.path("dest"))
        }
        #expect(error.code == .compressionRatio)
        #expect(error.message.contains("stdin"))
        #expect(try scratch.names() == [])
    }
}
