import AppGroups
import Foundation
import HostSystem
import Testing

struct ConfinementTests {
    @Test(arguments: ["../x", "/etc/passwd", "a/../../x", "a//b", "a/", ".", "a/./b", "a\u{0}b", ""])
    func refusesPathsThatCouldLeaveTheContainer(text: String) {
        #expect(throws: AppGroupError.self) { try ContainerPath(text) }
    }

    @Test func symbolicLinksPlantedInsideAreNeverFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let container = store.container.url
        try FileManager.default.createSymbolicLink(
            atPath: container.appendingPathComponent("escape").path, withDestinationPath: "/etc")
        try FileManager.default.createSymbolicLink(
            atPath: container.appendingPathComponent("inside").path, withDestinationPath: "Library")
        for path in ["escape/passwd", "escape", "inside/Preferences/x"] {
            let error = try #require(throws: AppGroupError.self) { try store.directory.open(try ContainerPath(path)) }
            #expect(error.code == .escapesContainer, "\(path)")
        }
        // Writing through a link is refused too, and nothing lands outside.
        #expect(throws: AppGroupError.self) {
            try store.commit(name: "x", typeIdentifier: "public.data", bytes: [1], path: try ContainerPath("escape/x"))
        }
        #expect(!FileManager.default.fileExists(atPath: "/etc/x"))
    }

    @Test func anAtomicWriteNeverShowsAPartialFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let path = try ContainerPath("Library/state.bin")
        try store.directory.writeAtomically([UInt8](repeating: 1, count: 1000), to: path, permissions: 0o600)
        let writer = try store.makeEntry(name: "big", typeIdentifier: "public.data")
        try writer.write([UInt8](repeating: 7, count: 100_000))
        // Before commit: the final name does not exist; only a locked temporary does.
        #expect(try store.directory.status(of: writer.path) == nil)
        #expect(try store.entries().isEmpty)
        let entry = try store.commit([writer])[0]
        #expect(try store.directory.readFile(entry.path) == [UInt8](repeating: 7, count: 100_000))
        #expect(try store.directory.status(of: path)?.permissions == 0o600)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: store.container.url.appendingPathComponent("Inbox").path)
        #expect(names.allSatisfy { !$0.hasPrefix(".tmp-") })
    }
}
