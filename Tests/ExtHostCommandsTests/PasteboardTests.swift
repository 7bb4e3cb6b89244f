import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import Testing

@testable import ExtHostCommands

/// The device's pasteboard end to end: an app's `UIPasteboard.general` reads what Copy put there
/// and writes through exthost's host (its sandbox does not reach the file); `exthost pasteboard
/// show` prints it.
@Suite(.timeLimit(.minutes(3)))
struct PasteboardTests {
    @Test func anAppReadsWhatCopyPutThereAndWritesThroughTheService() async throws {
        let root = try TestSupport.scratchRoot("pasteboard")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(
            on: root, sceneDelegate: "FullSceneDelegate", ["ProbePasteboard": "from the app"])
        let manifest = root.appendingPathComponent("items.json")
        try Data(#"{"items": [{"url": "https://example.com/copied"}]}"#.utf8).write(to: manifest)
        let (copied, _, copyErr) = await TestSupport.run(
            ["sheet", "--activity-items", manifest.path, "--perform", "com.apple.UIKit.activity.CopyToPasteboard"],
            root: root)
        #expect(copied == .success, "\(copyErr)")

        let (code, out, err) = await TestSupport.run(["app", "run", "com.example.probe"], root: root)
        #expect(code == .success, "\(err)")
        #expect(
            out.contains("PROBE-APP pasteboard before count=1 items=1 string=nil url=https://example.com/copied"),
            "\(out)\n\(err)")
        #expect(
            out.contains("PROBE-APP pasteboard after count=2 string=from the app types=public.utf8-plain-text"),
            "\(out)\n\(err)")

        let contents = try DevicePasteboard(root: DeviceRoot(url: root)).contents()
        #expect(contents.changeCount == 2 && contents.writer == "com.example.probe")

        let (shown, json, showErr) = await TestSupport.run(["pasteboard", "show", "--json"], root: root)
        #expect(shown == .success, "\(showErr)")
        let report = try TestSupport.decode(PasteboardCommand.Report.self, json)
        #expect(report.changeCount == 2 && report.writer == "com.example.probe")
        #expect(report.items.first?.first?.text == "from the app")
        let (_, text, _) = await TestSupport.run(["pasteboard", "show"], root: root)
        #expect(text.contains("change count 2, 1 item, written by com.example.probe"), "\(text)")
        #expect(text.contains("public.utf8-plain-text: \"from the app\""), "\(text)")
    }

    @Test func aPasteboardFileThatIsNotOneIsAFailureNamingIt() async throws {
        let root = try TestSupport.scratchRoot("pasteboard-bad")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Pasteboard")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{".utf8).write(to: folder.appendingPathComponent("general.json"))
        let (code, _, err) = await TestSupport.run(["pasteboard", "show"], root: root)
        #expect(code != .success)
        #expect(err.contains("general.json is not a pasteboard"), "\(err)")
    }
}

extension PasteboardTests {
    /// An extension's `UIPasteboard.general` asks its host: it reads what is on the device's
    /// pasteboard and its write lands there (with its bundle identifier as the writer), though its
    /// sandbox grants it nothing of the device root.
    @Test func anExtensionReadsAndWritesTheDevicesPasteboardThroughItsHost() async throws {
        let (root, rule, appex) = try FidelityTests.device("pasteboard")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        try DevicePasteboard(root: device).setItems(
            [
                PasteboardItem(representations: [
                    PasteboardRepresentation(type: "public.utf8-plain-text", data: Data("copied before".utf8))
                ])
            ], writer: "com.example.sharer")
        let items = root.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: items.appendingPathComponent("note.txt"))
        let (code, report, lines) = try await FidelityTests.share(
            [items.path], root: root, rule: rule, asExtension: appex, arguments: ["pasteboard"])
        #expect(code == .success, "\(report.log)")
        #expect(lines.contains("PROBE pasteboard before count=1 string=copied before"), "\(lines)")
        #expect(lines.contains("PROBE pasteboard after count=2 string=from the extension"), "\(lines)")
        let contents = try DevicePasteboard(root: device).contents()
        #expect(contents.changeCount == 2 && contents.writer == "com.example.carddrop.Share")
    }
}
