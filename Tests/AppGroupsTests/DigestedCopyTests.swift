import AppGroups
import Foundation
import HostSystem
import Testing

/// `DigestedCopies`: a copy hashed while it is made, whose digest the commit of the moved file uses
/// instead of reading it again — only while the file is exactly the copy.
struct DigestedCopyTests {
    /// 16 MiB and a tail (more than two copy chunks, and not a multiple of the hash buffer), with no
    /// repeating pattern a wrong offset could hide behind.
    static let bytes: [UInt8] = {
        var generator = SplitMix(seed: 0x5eed)
        return (0..<(16 << 20) + 12_345).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }()

    /// A file of `bytes` in `scratch`, and an empty file beside it to copy into, both open.
    static func files(in scratch: Scratch, _ bytes: [UInt8]) throws -> (FileDescriptor, FileDescriptor, URL) {
        let source = scratch.url.appendingPathComponent("original.bin")
        try Data(bytes).write(to: source)
        let copy = scratch.url.appendingPathComponent("copy.bin")
        let input = try FileDescriptor.open(source.path)
        let output = try FileDescriptor.open(copy.path, [.readWrite, .create, .exclusiveCreate], permissions: 0o600)
        return (input, output, copy)
    }

    /// The extension's group store in `scratch`, and a copy of ``bytes`` made by exthost's loader
    /// (its digest recorded), still open for writing.
    static func recordedCopy(in scratch: Scratch) throws -> (AppGroupStore, FileDescriptor, URL) {
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let (input, output, copy) = try files(in: scratch, bytes)
        try DigestedCopies.copyRecordingDigest(from: input, to: output)
        try input.close()
        return (store, output, copy)
    }

    @Test func theCopyHoldsTheBytesAndItsSummaryIsTheirDigest() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for count in [0, 100, DigestedCopies.chunkSize, Self.bytes.count] {
            let bytes = Array(Self.bytes[0..<count])
            let (input, output, copy) = try Self.files(in: scratch, bytes)
            let summary = try DigestedCopies.copy(from: input, to: output)
            try input.close()
            try output.close()
            #expect(summary.size == Int64(count) && summary.sha256 == SHA256.hex(of: bytes), "\(count) bytes")
            #expect(try Data(contentsOf: copy) == Data(bytes), "\(count) bytes")
            try FileManager.default.removeItem(at: copy)
        }
    }

    @Test func aBigCopyMovedIntoTheGroupIsCommittedWithItsDigestWithoutBeingReadAgain() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, output, copy) = try Self.recordedCopy(in: scratch)
        try output.close()

        let writer = try #require(
            try store.makeEntry(name: "copy.bin", typeIdentifier: "public.data", movingFileAt: copy))
        let entry = try #require(try store.commit([writer]).first)
        #expect(!writer.wasHashedAtCommit)
        #expect(entry.size == Int64(Self.bytes.count) && entry.sha256 == SHA256.hex(of: Self.bytes))
        #expect(try store.entries().map(\.sha256) == [SHA256.hex(of: Self.bytes)])
        #expect(try store.verify().isClean)
    }

    @Test func aCopyChangedBeforeItIsMovedIsHashedAgainAndTheJournalHoldsWhatWasCommitted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, output, copy) = try Self.recordedCopy(in: scratch)
        // The extension's code rewrites one byte in place (same size) and puts the modification
        // time back: only the status-change time, which it cannot set, still tells.
        let before = try output.status()
        var changed = Self.bytes
        changed[4096] ^= 0xff
        try output.seek(offset: 4096)
        try output.writeAll([changed[4096]])
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: before.modificationTime)], ofItemAtPath: copy.path)
        try output.close()

        let writer = try #require(
            try store.makeEntry(name: "copy.bin", typeIdentifier: "public.data", movingFileAt: copy))
        let entry = try #require(try store.commit([writer]).first)
        #expect(writer.wasHashedAtCommit)
        #expect(entry.sha256 == SHA256.hex(of: changed) && entry.sha256 != SHA256.hex(of: Self.bytes))
        #expect(try store.verify().isClean)
    }

    @Test func aCopyChangedAfterItIsMovedIsHashedAgainAtCommit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (store, output, copy) = try Self.recordedCopy(in: scratch)
        let writer = try #require(
            try store.makeEntry(name: "copy.bin", typeIdentifier: "public.data", movingFileAt: copy))
        // A descriptor opened before the move still writes the file now staged in the group.
        try output.seek(offset: 0, fromEnd: true)
        try output.writeAll([1, 2, 3] as [UInt8])
        try output.close()

        let entry = try #require(try store.commit([writer]).first)
        #expect(writer.wasHashedAtCommit)
        #expect(entry.size == Int64(Self.bytes.count + 3) && entry.sha256 == SHA256.hex(of: Self.bytes + [1, 2, 3]))
        #expect(try store.verify().isClean)
    }

    @Test func aFileTheLoaderDidNotCopyIsHashedAtCommit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        // Same inode as a recorded copy is impossible to arrange; a file written another way has no
        // record at all.
        let file = scratch.url.appendingPathComponent("written.bin")
        try Data(Self.bytes[0..<1000]).write(to: file)
        let writer = try #require(
            try store.makeEntry(name: "written.bin", typeIdentifier: "public.data", movingFileAt: file))
        let entry = try #require(try store.commit([writer]).first)
        #expect(writer.wasHashedAtCommit && entry.sha256 == SHA256.hex(of: Self.bytes[0..<1000]))
    }
}

/// A small deterministic generator (SplitMix64) for test bytes.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
