import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import Shortcuts
import Testing

@testable import ExtHostCommands

/// App Intents run in the app, as on a device: the probe app declares its intents in
/// `Metadata.appintents/extract.actionsdata`; `openAppWhenRun: true` launches it (cold) or reaches
/// it while it runs (warm) with its scene, and its `perform()` runs there; `false` runs `perform()`
/// in a background launch without scenes; no user activity is delivered; a `perform()` that throws
/// is a failure (exit 1) that says what it threw; metadata that is not JSON is bad input (exit 2).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AppIntentRunTests {
    static let metadata = """
        {"version": 1, "actions": {
          "ProbeNoteIntent": {"identifier": "ProbeNoteIntent", "openAppWhenRun": true, "parameters": [
            {"name": "text", "isOptional": false, "valueType": {"primitive": {"wrapper": {"typeIdentifier": 0}}}},
            {"name": "file", "isOptional": true, "valueType": {"primitive": {"wrapper": {"typeIdentifier": 11}}}}]},
          "ProbeBackgroundIntent": {"identifier": "ProbeBackgroundIntent", "openAppWhenRun": false, "parameters": [
            {"name": "text", "isOptional": false, "valueType": {"primitive": {"wrapper": {"typeIdentifier": 0}}}}]},
          "ProbeFailingIntent": {"identifier": "ProbeFailingIntent", "openAppWhenRun": true, "parameters": []},
          "ProbeSaveIntent": {"identifier": "ProbeSaveIntent", "openAppWhenRun": true, "parameters": [
            {"name": "text", "isOptional": false, "valueType": {"primitive": {"wrapper": {"typeIdentifier": 0}}}}]},
          "ProbeCopyIntent": {"identifier": "ProbeCopyIntent", "openAppWhenRun": true, "parameters": [
            {"name": "text", "isOptional": false, "valueType": {"primitive": {"wrapper": {"typeIdentifier": 0}}}}]}
        }}
        """

    /// A device with the probe app and its App Intents metadata.
    static func device() throws -> URL {
        let root = try TestSupport.scratchRoot("app-intents")
        try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate")
        let folder = root.appendingPathComponent("Bundles/Probe.app/Metadata.appintents")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(metadata.utf8).write(to: folder.appendingPathComponent("extract.actionsdata"))
        return root
    }

    /// A shortcut of one action running `type` with `text`, its file parameter the shortcut's input.
    static func shortcut(_ type: String, in root: URL) throws -> URL {
        let steps = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>WFWorkflowTypes</key><array><string>ActionExtension</string></array>
            <key>WFWorkflowActions</key><array><dict>
            <key>WFWorkflowActionIdentifier</key><string>com.example.probe.\(type)</string>
            <key>WFWorkflowActionParameters</key><dict><key>text</key><string>from the shortcut</string>
            <key>file</key><dict><key>Value</key><dict><key>Type</key><string>ExtensionInput</string></dict></dict>
            </dict></dict></array></dict></plist>
            """
        let url = root.appendingPathComponent("\(type).shortcut")
        try Data(steps.utf8).write(to: url)
        return url
    }

    @Test func openAppWhenRunLaunchesTheAppAndPerformRunsThereWithAnIntentFile() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = TestSupport.demoItems.appendingPathComponent("photo.png")
        let (code, out, err) = await TestSupport.run(
            ["shortcut", "run", try Self.shortcut("ProbeNoteIntent", in: root).path, photo.path, "--json"], root: root)
        #expect(code == .success, "\(err)")
        let report = try TestSupport.decode(ShortcutReport.self, out, note: err)
        #expect(report.delivered?.perform == "foreground")
        let app = try #require(report.app)
        #expect(app.start == "cold" && app.delivery.method == .perform && app.delivery.handled, "\(app.delivery)")
        #expect(
            app.delivery.detail.contains("ProbeNoteIntent.perform() returned .result(value: 17)"), "\(app.delivery)")
        let output = app.run?.output ?? ""
        let size = try Data(contentsOf: photo).count
        #expect(
            output.contains(
                "PROBE-APP intent ProbeNoteIntent text=from the shortcut file=photo.png bytes=\(size) type=public.png scenes=1"
            ),
            "\(output)")
        #expect(!output.contains("PROBE-APP scene-continue"), "no user activity reaches the app: \(output)")
    }

    @Test func withoutOpenAppWhenRunPerformRunsInABackgroundLaunchWithoutScenes() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, out, err) = await TestSupport.run(
            ["shortcut", "run", try Self.shortcut("ProbeBackgroundIntent", in: root).path], root: root)
        #expect(code == .success, "\(err)")
        #expect(out.contains("PROBE-APP intent ProbeBackgroundIntent text=from the shortcut"), "\(out)")
        #expect(out.contains("scenes=0"), "\(out)")
        #expect(out.contains("in a background launch without scenes"), "\(out)")
        #expect(out.contains(#"returned .result(dialog: "done")"#), "\(out)")
    }

    @Test func aRunningAppPerformsTheIntentWarm() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let running = try await AppLifeCycleTests.LaunchedApp(root: root)
        let (code, out, err) = await TestSupport.run(
            ["shortcut", "run", try Self.shortcut("ProbeNoteIntent", in: root).path, "--json"], root: root)
        let (_, status) = await running.terminate()
        #expect(code == .success, "\(err)")
        let report = try TestSupport.decode(ShortcutReport.self, out, note: err)
        #expect(report.app?.start == "warm" && report.app?.delivery.method == .perform)
        #expect(status == 0)
        #expect(
            running.output.contains("PROBE-APP intent ProbeNoteIntent text=from the shortcut file=nil"),
            "\(running.output)")
    }

    @Test func aThrowingPerformIsAFailureThatSaysWhatItThrew() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, _, err) = await TestSupport.run(
            ["shortcut", "run", try Self.shortcut("ProbeFailingIntent", in: root).path], root: root)
        #expect(code == .failure)
        #expect(err.contains("ProbeFailingIntent.perform() threw"), "\(err)")
        #expect(err.contains("the probe refuses"), "\(err)")
    }

    @Test func metadataThatIsNotJSONIsBadInput() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("{ not json".utf8).write(
            to: root.appendingPathComponent("Bundles/Probe.app/Metadata.appintents/extract.actionsdata"))
        let (code, _, err) = await TestSupport.run(
            ["shortcut", "run", try Self.shortcut("ProbeNoteIntent", in: root).path], root: root)
        #expect(code == .usage, "\(err)")
        #expect(err.contains("extract.actionsdata: not JSON"), "\(err)")
    }

    /// Copy from the app's own share sheet, in its sandbox: UIKit's Copy writes UIPasteboard.general
    /// through the pasteboard service, so the device's pasteboard holds it, written by the app.
    @Test func copyFromTheAppsOwnSheetReachesTheDevicesPasteboardThroughTheService() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, out, err) = await TestSupport.run(
            ["shortcut", "run", try Self.shortcut("ProbeCopyIntent", in: root).path], root: root)
        #expect(code == .success, "\(err)")
        #expect(
            out.contains(
                "PROBE-APP copy completed=true type=com.apple.UIKit.activity.CopyToPasteboard error=nil "
                    + "pasteboard=from the shortcut"),
            "\(out)\n\(err)")
        let contents = try DevicePasteboard(root: DeviceRoot(url: root)).contents()
        #expect(contents.writer == "com.example.probe" && contents.changeCount == 1)
    }

    /// Save to Files from the app's own sheet, in its sandbox: the host writes into the device's
    /// Files (the app cannot), with the Keep Both name on a second save.
    @Test func saveToFilesFromTheAppsOwnSheetWritesTheDevicesFilesThroughTheHost() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let shortcut = try Self.shortcut("ProbeSaveIntent", in: root)
        for _ in 0..<2 {
            let (code, out, err) = await TestSupport.run(["shortcut", "run", shortcut.path], root: root)
            #expect(code == .success, "\(err)")
            #expect(
                out.contains(
                    "PROBE-APP save completed=true type=com.apple.DocumentManagerUICore.SaveToFiles error=nil"),
                "\(out)\n\(err)")
        }
        let folder = root.appendingPathComponent("Files/On My iPhone")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["Text 2.txt", "Text.txt"])
        #expect(
            try String(contentsOf: folder.appendingPathComponent("Text.txt"), encoding: .utf8) == "from the shortcut")
    }
}
