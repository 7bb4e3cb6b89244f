import Foundation
import HostSystem
import Testing

struct DirectoryTests {
    private func scratch() throws -> (URL, FileDescriptor) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return (url, try FileDescriptor.open(url.path, .directory))
    }

    @Test func createsRenamesExchangesAndListsThroughADirectoryDescriptor() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try dir.makeDirectory("sub")
        #expect(throws: Errno.fileExists) { try dir.makeDirectory("sub") }
        for (name, text) in [("a", "A"), ("b", "B")] {
            let fd = try FileDescriptor.open(name, relativeTo: dir, [.writeOnly, .create])
            try fd.writeAll(Array(text.utf8))
            try fd.close()
        }
        #expect(throws: Errno.fileExists) { try dir.rename("a", to: "b", flags: .noReplace) }
        try dir.rename("a", to: "b", flags: .exchange)
        #expect(try String(decoding: FileDescriptor.open("a", relativeTo: dir).readAll(), as: UTF8.self) == "B")
        try dir.makeSymbolicLink("link", pointingTo: "/etc")
        #expect(try dir.status(ofEntry: "link").kind == .symbolicLink)
        #expect(try dir.status(ofEntry: "link", followingLinks: true).kind == .directory)
        let names = try dir.directoryEntries().map(\.name).sorted()
        #expect(names == ["a", "b", "link", "sub"])
        #expect(try dir.directoryEntries().map(\.name).sorted() == names)  // the descriptor stays usable
        try dir.removeFile("link")
        try dir.removeDirectory("sub")
        try dir.sync()
        #expect(throws: Errno.noSuchFileOrDirectory) { try dir.status(ofEntry: "sub") }
    }

    @Test(arguments: [BeneathResolution.automatic, .componentWalk])
    func openBeneathRefusesEscapesAndEveryLink(resolution: BeneathResolution) throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        try dir.makeDirectory("in")
        try FileDescriptor.open("in/file", relativeTo: dir, [.writeOnly, .create]).close()
        try dir.makeSymbolicLink("out", pointingTo: "/etc")
        try dir.makeSymbolicLink("inner", pointingTo: "in")
        let ok = try FileDescriptor.open(beneath: "in/file", relativeTo: dir, resolution: resolution)
        try ok.close()
        #expect(throws: Errno.crossDevice) {
            try FileDescriptor.open(beneath: "../x", relativeTo: dir, resolution: resolution)
        }
        #expect(throws: Errno.crossDevice) {
            try FileDescriptor.open(beneath: "/etc/passwd", relativeTo: dir, resolution: resolution)
        }
        #expect(throws: Errno.tooManySymbolicLinks) {
            try FileDescriptor.open(beneath: "out/passwd", relativeTo: dir, resolution: resolution)
        }
        #expect(throws: Errno.tooManySymbolicLinks) {
            try FileDescriptor.open(beneath: "inner/file", relativeTo: dir, resolution: resolution)
        }
        #expect(throws: Errno.tooManySymbolicLinks) {
            try FileDescriptor.open(beneath: "out", relativeTo: dir, resolution: resolution)
        }
    }

    @Test(arguments: [CopyMethod.clone, .copyFileRange, .readWrite])
    func copiesEveryByteWhicheverMethodStarts(method: CopyMethod) throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let source = try FileDescriptor.open("src", relativeTo: dir, [.readWrite, .create])
        try source.writeAll(bytes)
        try source.seek(offset: 0)
        let target = try FileDescriptor.open("dst", relativeTo: dir, [.readWrite, .create])
        let used = try target.copyContents(from: source, startingWith: method, bufferSize: 4096)
        #expect(used >= method)
        try target.seek(offset: 0)
        #expect(try target.readAll() == bytes)
        try source.close()
        try target.close()
    }

    @Test func anExclusiveLockExcludesAnotherOpenFileDescription() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        let first = try FileDescriptor.open("lock", relativeTo: dir, [.readWrite, .create])
        let second = try FileDescriptor.open("lock", relativeTo: dir, [.readWrite])
        #expect(try first.lock(.shared, wait: false))
        #expect(try second.lock(.shared, wait: false))
        #expect(try second.lock(.exclusive, wait: false) == false)
        try first.unlock()
        #expect(try second.lock(.exclusive, wait: false))
        #expect(try first.lock(.shared, wait: false) == false)
        try first.close()
        try second.close()
    }

    @Test func inotifyReportsAWriteAndTimesOutWhenQuiet() throws {
        let (url, dir) = try scratch()
        defer { try? dir.close(); try? FileManager.default.removeItem(at: url) }
        let file = url.appendingPathComponent("bell")
        try FileDescriptor.open(file.path, [.writeOnly, .create]).close()
        let inotify = try Inotify()
        defer { try? inotify.close() }
        try inotify.addWatch(file.path, for: [.modify, .closeWrite])
        #expect(try inotify.waitForEvents(timeout: 0.05).isEmpty)
        let writer = try FileDescriptor.open(file.path, [.writeOnly])
        try writer.writeAll(Array("x".utf8))
        try writer.close()
        let events = try inotify.waitForEvents(timeout: 2)
        #expect(events.contains { $0.events.contains(.closeWrite) || $0.events.contains(.modify) })
    }
}
