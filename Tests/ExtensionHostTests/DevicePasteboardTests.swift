import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import Testing

/// The device's pasteboard store: change counts, expiry, the service's size limit, bad files.
@Suite struct DevicePasteboardTests {
    static func root() throws -> DeviceRoot {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pasteboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return DeviceRoot(url: url)
    }

    static func text(_ string: String) -> PasteboardItem {
        PasteboardItem(representations: [
            PasteboardRepresentation(type: "public.utf8-plain-text", data: Data(string.utf8))
        ])
    }

    @Test func anEmptyDeviceHasAnEmptyPasteboardAndEachWriteCountsAChange() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root.url) }
        let pasteboard = DevicePasteboard(root: root)
        #expect(try pasteboard.contents() == PasteboardContents())
        try pasteboard.setItems([Self.text("one")], writer: "com.example.a")
        let second = try pasteboard.setItems([Self.text("two"), Self.text("three")], writer: "com.example.b")
        #expect(second.changeCount == 2)
        let read = try DevicePasteboard(root: root).contents()
        #expect(read == second)
        #expect(
            read.items.map { String(decoding: $0.data(for: "public.utf8-plain-text") ?? Data(), as: UTF8.self) } == [
                "two", "three",
            ])
        #expect(read.writer == "com.example.b")
    }

    @Test func theServiceReadsWritesAndRefusesWhatDoesNotFitInAFrame() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root.url) }
        let pasteboard = DevicePasteboard(root: root)
        let wrote = pasteboard.serve(
            PasteboardRequest(requestID: 7, items: [Self.text("hi")]), writer: "com.example.app")
        #expect(wrote.requestID == 7 && wrote.error == nil && wrote.contents?.changeCount == 1)
        let read = pasteboard.serve(PasteboardRequest(requestID: 8), writer: "com.example.app")
        #expect(read.contents?.items == [Self.text("hi")])
        let big = PasteboardItem(representations: [
            PasteboardRepresentation(type: "public.data", data: Data(count: PasteboardRequest.maximumDataSize + 1))
        ])
        let refused = pasteboard.serve(PasteboardRequest(requestID: 9, items: [big]), writer: "com.example.app")
        #expect(refused.contents == nil && refused.error?.contains("at most") == true)
        #expect(try pasteboard.contents().changeCount == 1, "a refused write changes nothing")
        // The reply of the service fits in one frame of the wire.
        let encoded = try JSONEncoder().encode(Message.pasteboardReply(read))
        #expect(encoded.count < WireFormat.maximumPayloadSize)
    }

    @Test func expiredItemsReadAsNone() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root.url) }
        let pasteboard = DevicePasteboard(root: root)
        try pasteboard.setItems(
            [Self.text("gone")], writer: nil, expirationDate: Date(timeIntervalSinceNow: -1), localOnly: true)
        let stored = try pasteboard.contents()
        #expect(stored.items.count == 1 && stored.localOnly == true)
        #expect(stored.visible().items.isEmpty)
        #expect(pasteboard.serve(PasteboardRequest(requestID: 1), writer: nil).contents?.items == [])
    }

    @Test func aFileThatIsNotAPasteboardIsAnErrorNamingIt() throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root.url) }
        let pasteboard = DevicePasteboard(root: root)
        try FileManager.default.createDirectory(at: pasteboard.folder, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: pasteboard.fileURL)
        #expect {
            try pasteboard.contents()
        } throws: { error in
            "\(error)".contains("general.json is not a pasteboard")
        }
        #expect(
            pasteboard.serve(PasteboardRequest(requestID: 1), writer: nil).error?.contains("not a pasteboard") == true)
    }
}

extension DevicePasteboardTests {
    /// Writers at once (each its own lock acquisition, as separate processes are) lose no change.
    @Test func concurrentWritersLoseNoChange() async throws {
        let root = try Self.root()
        defer { try? FileManager.default.removeItem(at: root.url) }
        let pasteboard = DevicePasteboard(root: root)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try pasteboard.setItems([Self.text("\(writer)-\(index)")], writer: "writer \(writer)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let contents = try pasteboard.contents()
        #expect(contents.changeCount == 200)
        #expect(contents.items.count == 1)
    }
}
