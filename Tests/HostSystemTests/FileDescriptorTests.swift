import Foundation
import HostSystem
import Testing

struct FileDescriptorTests {
    @Test func writesReadsAndReportsStatus() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let directory = try FileDescriptor.open(dir.path, .directory)
        defer { try? directory.close() }
        let file = try FileDescriptor.open("a.txt", relativeTo: directory, [.readWrite, .create, .exclusiveCreate])
        try file.writeAll(Array("hello".utf8))
        try file.sync()
        try file.seek(offset: 0)
        #expect(try file.readAll() == Array("hello".utf8))
        #expect(try file.status().size == 5)
        #expect(try file.status().kind == .regular)
        try file.close()
    }

    @Test func refusesToCreateTwiceAndToFollowALink() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x").path
        try FileDescriptor.open(path, [.writeOnly, .create]).close()
        #expect(throws: Errno.fileExists) { try FileDescriptor.open(path, [.writeOnly, .create, .exclusiveCreate]) }
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("l").path, withDestinationPath: path)
        #expect(throws: Errno.tooManySymbolicLinks) {
            try FileDescriptor.open(dir.appendingPathComponent("l").path, [.readOnly, .noFollow])
        }
    }

    @Test func errnoHasTheCLibraryMessage() {
        #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
    }
}
