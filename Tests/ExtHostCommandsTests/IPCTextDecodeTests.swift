import ExtHostTestSupport
import ExtensionIPC
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost ipc decode` as text: one line a frame with its offset, a message's body as JSON and a
/// data chunk's request, offset and size; a path that is a folder or missing is refused by name.
struct IPCTextDecodeTests {
    @Test func eachFrameIsOneLine() async throws {
        let bye = try FrameEncoder.encode(.message(.bye(Bye(reason: "done"))))
        let chunk = try FrameEncoder.encode(.data(DataChunk(requestID: 7, offset: 4096, bytes: [1, 2, 3])))
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("ipc-\(UUID().uuidString).bin")
        try Data(bye + chunk).write(to: capture)
        defer { try? FileManager.default.removeItem(at: capture) }

        let (code, out, err) = await TestSupport.run(["ipc", "decode", capture.path])
        #expect(code == .success, "\(err)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(out)")
        #expect(lines.first?.hasPrefix("#1 @0 message bye {") == true && lines.first?.contains(#""done""#) == true)
        #expect(lines.dropFirst().first == "#2 @\(bye.count) data request 7 offset 4096, 3 bytes")
        #expect(lines.last == "2 frames, \(bye.count + chunk.count) bytes")
    }

    @Test func aFolderOrAMissingFileIsRefused() async {
        let folder = FileManager.default.temporaryDirectory.path
        let (folderCode, _, folderError) = await TestSupport.run(["ipc", "decode", folder])
        #expect(folderCode == .usage && folderError.contains("\(folder): not a regular file"), "\(folderError)")
        let missing = "/nonexistent-exthost/capture.bin"
        let (missingCode, _, missingError) = await TestSupport.run(["ipc", "decode", missing])
        #expect(missingCode == .usage && missingError.contains("\(missing): cannot read: "), "\(missingError)")
    }
}
