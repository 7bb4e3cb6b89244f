import Foundation
import Glibc
import HostSystem
import Testing

/// The calls an archive needs beyond opening and reading: link targets, hard links, times, file
/// kinds beyond file/directory/link, and removing a whole tree.
struct LinksTimesAndTreesTests {
    private func scratch() throws -> (URL, FileDescriptor) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return (url, try FileDescriptor.open(url.path, .directory))
    }

    private func makeFile(_ name: String, in directory: FileDescriptor, _ text: String = "x") throws {
        let file = try FileDescriptor.open(name, relativeTo: directory, [.writeOnly, .create, .exclusiveCreate])
        try file.writeAll(Array(text.utf8))
        try file.close()
    }

    @Test func readsALinkTargetOfAnyLengthWithoutFollowingIt() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try dir.makeSymbolicLink("short", pointingTo: "../elsewhere/x")
        // Longer than the first 256-byte buffer: read again with more room.
        let long = (0..<120).map { "d\($0)" }.joined(separator: "/")
        #expect(long.utf8.count > 256)
        try dir.makeSymbolicLink("long", pointingTo: long)
        try dir.makeSymbolicLink("unicode", pointingTo: "Ünïcødé/名前")
        #expect(try dir.linkTarget(ofEntry: "short") == "../elsewhere/x")
        #expect(try dir.linkTarget(ofEntry: "long") == long)
        #expect(try dir.linkTarget(ofEntry: "unicode") == "Ünïcødé/名前")
        try makeFile("plain", in: dir)
        #expect(throws: Errno.invalidArgument) { try dir.linkTarget(ofEntry: "plain") }
        #expect(throws: Errno.noSuchFileOrDirectory) { try dir.linkTarget(ofEntry: "missing") }
    }

    @Test func makesAHardLinkAcrossDirectoriesWithoutFollowingALink() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try dir.makeDirectory("a")
        try dir.makeDirectory("b")
        let a = try FileDescriptor.open("a", relativeTo: dir, [.readOnly, .directory])
        defer { try? a.close() }
        let b = try FileDescriptor.open("b", relativeTo: dir, [.readOnly, .directory])
        defer { try? b.close() }
        try makeFile("original", in: a, "shared")
        try b.makeHardLink("copy", to: "original", in: a)
        try a.makeHardLink("same-directory", to: "original")
        let original = try a.status(ofEntry: "original")
        #expect(try b.status(ofEntry: "copy").inode == original.inode)
        #expect(try a.status(ofEntry: "same-directory").inode == original.inode)
        #expect(try String(decoding: FileDescriptor.open("copy", relativeTo: b).readAll(), as: UTF8.self) == "shared")
        #expect(throws: Errno.fileExists) { try b.makeHardLink("copy", to: "original", in: a) }
        #expect(throws: Errno.noSuchFileOrDirectory) { try b.makeHardLink("other", to: "missing", in: a) }
        // A symbolic link is linked itself: the new name is a link too, not the file it points at.
        try a.makeSymbolicLink("link", pointingTo: "original")
        try b.makeHardLink("link-copy", to: "link", in: a)
        #expect(try b.status(ofEntry: "link-copy").kind == .symbolicLink)
        #expect(try b.linkTarget(ofEntry: "link-copy") == "original")
    }

    @Test func setsTheModificationTimeOfADescriptorAndOfALinkItself() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try makeFile("file", in: dir)
        let file = try FileDescriptor.open("file", relativeTo: dir, .readOnly)
        defer { try? file.close() }
        try file.setModificationTime(1_000_000_000)
        #expect(try file.status().modificationTimeSeconds == 1_000_000_000)
        #expect(try file.status().modificationTime == 1_000_000_000)
        try file.setModificationTime(-86_400)  // before 1970
        #expect(try file.status().modificationTimeSeconds == -86_400)

        try makeFile("target", in: dir)
        try dir.makeSymbolicLink("link", pointingTo: "target")
        let targetBefore = try dir.status(ofEntry: "target").modificationTimeSeconds
        try dir.setModificationTime(1_234_567_890, ofEntry: "link")
        #expect(try dir.status(ofEntry: "link").modificationTimeSeconds == 1_234_567_890)
        #expect(try dir.status(ofEntry: "target").modificationTimeSeconds == targetBefore)
        try dir.setModificationTime(42, ofEntry: "target")
        #expect(try dir.status(ofEntry: "target").modificationTimeSeconds == 42)
        #expect(throws: Errno.noSuchFileOrDirectory) { try dir.setModificationTime(42, ofEntry: "missing") }
    }

    @Test func tellsDevicesFifosAndSocketsApart() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        #expect(mkfifo(url.appendingPathComponent("pipe").path, 0o600) == 0)
        let listener = try UnixSocketListener(path: url.appendingPathComponent("socket").path)
        defer { listener.close() }
        #expect(try dir.status(ofEntry: "pipe").kind == .fifo)
        #expect(try dir.status(ofEntry: "socket").kind == .socket)
        let kinds = Dictionary(uniqueKeysWithValues: try dir.directoryEntries().map { ($0.name, $0.kind) })
        #expect(kinds["pipe"] == .fifo || kinds["pipe"] == .some(nil))
        #expect(kinds["socket"] == .socket || kinds["socket"] == .some(nil))

        let devices = try FileDescriptor.open("/dev", .directory)
        defer { try? devices.close() }
        #expect(try devices.status(ofEntry: "null").kind == .characterDevice)
        let null = try FileDescriptor.open("/dev/null", .readOnly)
        defer { try? null.close() }
        #expect(try null.status().kind == .characterDevice)
        // Whatever the directory says of a device, fstatat agrees (block devices only where /dev has any).
        for entry in try devices.directoryEntries() {
            guard let kind = entry.kind, kind == .characterDevice || kind == .blockDevice else { continue }
            #expect(try devices.status(ofEntry: entry.name).kind == kind, "\(entry.name)")
        }
    }

    @Test func removesATreeWithoutFollowingLinksOrStoppingAtModes() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try dir.makeDirectory("keep")
        let keep = try FileDescriptor.open("keep", relativeTo: dir, .directory)
        try makeFile("precious", in: keep)
        try keep.close()
        try dir.makeDirectory("tree")
        let tree = try FileDescriptor.open("tree", relativeTo: dir, .directory)
        try makeFile("file", in: tree)
        try tree.makeSymbolicLink("outside", pointingTo: "../keep")
        try tree.makeSymbolicLink("dangling", pointingTo: "nowhere")
        try tree.makeDirectory("deep")
        let deep = try FileDescriptor.open("deep", relativeTo: tree, .directory)
        try deep.makeDirectory("er")
        try makeFile("inner", in: deep)
        #expect(mkfifo(url.appendingPathComponent("tree/deep/pipe").path, 0o600) == 0)
        try deep.setPermissions(0o500)  // no write permission: removeTree opens it up first
        try deep.close()
        try tree.setPermissions(0o555)
        try tree.close()

        try dir.removeTree("tree")
        #expect(throws: Errno.noSuchFileOrDirectory) { try dir.status(ofEntry: "tree") }
        // The link to `keep` was removed, not followed.
        #expect(try dir.status(ofEntry: "keep").kind == .directory)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("keep/precious").path))

        try makeFile("single", in: dir)
        try dir.removeTree("single")
        try dir.makeSymbolicLink("link", pointingTo: "keep")
        try dir.removeTree("link")
        #expect(try dir.directoryEntries().map(\.name) == ["keep"])
        #expect(throws: Errno.noSuchFileOrDirectory) { try dir.removeTree("missing") }
    }

    @Test func startingWritebackWorksOnAFileAndIsRefusedOnAPipe() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        let file = try FileDescriptor.open("dirty", relativeTo: dir, [.readWrite, .create, .exclusiveCreate])
        defer { try? file.close() }
        try file.writeAll([UInt8](repeating: 7, count: 1 << 20))
        try file.startWriteback()
        try file.sync()
        #expect(try file.status().size == 1 << 20)
        let (reader, writer) = try FileDescriptor.pipe()
        defer { try? reader.close(); try? writer.close() }
        #expect(throws: Errno(rawValue: ESPIPE)) { try writer.startWriteback() }
    }

    @Test func theStatusOfAPathFollowsALinkOnlyWhenAsked() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try makeFile("file", in: dir, "hello")
        try dir.makeSymbolicLink("link", pointingTo: "file")
        let link = url.appendingPathComponent("link").path
        #expect(try FileDescriptor.status(ofPath: link).kind == .regular)
        #expect(try FileDescriptor.status(ofPath: link).size == 5)
        #expect(try FileDescriptor.status(ofPath: link, followingLinks: false).kind == .symbolicLink)
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try FileDescriptor.status(ofPath: url.appendingPathComponent("missing").path)
        }
    }
}
