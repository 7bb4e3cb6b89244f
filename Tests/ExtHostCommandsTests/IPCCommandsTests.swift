import ExtHostTestSupport
import ExtensionIPC
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost ipc decode` of a well-formed capture (the malformed ones are in BadInputSuiteTests).
struct IPCCommandsTests {
    @Test func decodeJSONListsEveryFrameWithItsOffset() async throws {
        let bye = try FrameEncoder.encode(.message(.bye(Bye(reason: "done"))))
        let chunk = try FrameEncoder.encode(.data(DataChunk(requestID: 7, offset: 4096, bytes: [1, 2, 3])))
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("ipc-\(UUID().uuidString).bin")
        try Data(bye + chunk).write(to: capture)
        defer { try? FileManager.default.removeItem(at: capture) }

        let (code, out, err) = await TestSupport.run(["ipc", "decode", capture.path, "--json"])
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(CaptureReport.self, from: Data(out.utf8))
        #expect(report.file == capture.path)
        #expect(
            report.frames == [
                .init(offset: 0, kind: "message", type: "bye"),
                .init(offset: bye.count, kind: "data", requestID: "7", chunkOffset: "4096", bytes: 3),
            ])
        // A message frame has no chunk fields and a data frame no type: present, as null.
        #expect(out.contains(#""requestID": null"#) && out.contains(#""type": null"#))
    }
}
