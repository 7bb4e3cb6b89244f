import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import Payloads
import ShareSheet
import Shortcuts
import Testing

@testable import ExtHostCommands

/// Shortcuts into the main app: the demo shortcut "Open in CardDrop" (the article's script: text,
/// else images, else a photo picked from the library) runs an intent of CardDrop's intent
/// definition, which reaches the app's process as an `NSUserActivity`, cold or warm.
@Suite(.timeLimit(.minutes(3)))
struct ShortcutTests {
    static let demo = TestSupport.packageRoot.appendingPathComponent("Containers")
    static let shortcut = demo.appendingPathComponent("Shortcuts/Open in CardDrop.shortcut")

    /// A scratch device with the demo bundles, the demo shortcut in its library and a Photos library.
    static func device() throws -> URL {
        let root = try TestSupport.scratchRoot("shortcut")
        for folder in ["Shortcuts", "Media"] {
            try FileManager.default.copyItem(
                at: demo.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        return root
    }

    /// `exthost shortcut run SHORTCUT ARGUMENTS --json`: its exit code and report.
    static func run(_ arguments: [String], root: URL) async throws -> (ExitCode, ShortcutReport) {
        let (code, out, err) = await TestSupport.run(
            ["shortcut", "run", shortcut.path] + arguments + ["--json"], root: root)
        return (code, try TestSupport.decode(ShortcutReport.self, out, note: err))
    }

    static func received(_ root: URL, _ name: String) throws -> Data {
        let identity = try BundleIdentity.load(bundle: root.appendingPathComponent("Bundles/CardDrop.app"))
        let container = try DeviceRoot(url: root).dataContainer(for: identity).url
        return try Data(contentsOf: container.appendingPathComponent("Documents/Received/\(name)"))
    }

    @Test func textImageAndNothingEachDeliverTheRightIntent() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }

        let (textCode, text) = try await Self.run(["--text", "hello card"], root: root)
        #expect(textCode == .success)
        let delivered = try #require(text.delivered)
        #expect(delivered.activityType == "OpenTextIntent")
        #expect(delivered.parameters.first?.value == "hello card")
        let app = try #require(text.app)
        #expect(app.start == "cold")
        #expect(app.delivery.method == .userActivities)
        #expect(try Self.received(root, "text.txt") == Data("hello card".utf8))

        let photo = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems/photo.png")
        let (imageCode, image) = try await Self.run([photo.path], root: root)
        #expect(imageCode == .success)
        let imageIntent = try #require(image.delivered)
        #expect(imageIntent.activityType == "OpenImageIntent")
        let file = try #require(imageIntent.parameters.first)
        #expect(file.kind == "file" && file.filename == "photo.png")
        #expect(file.typeIdentifier == "public.png")
        #expect(try Self.received(root, "photo.png") == Data(contentsOf: photo))

        let (fallbackCode, fallback) = try await Self.run([], root: root)
        #expect(fallbackCode == .success)
        #expect(
            fallback.steps.contains { $0.note?.contains("chose IMG_0001.png from the Photos library") == true })
        let picked = try #require(fallback.delivered?.parameters)
        #expect(picked.first?.filename == "IMG_0001.png")
        #expect(try Self.received(root, "IMG_0001.png") == Data(contentsOf: photo))
    }

    @Test func aRunningAppGetsTheActivityInSceneContinue() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let running = try await AppLifeCycleTests.LaunchedApp(root: root, bundle: "com.example.carddrop")
        let (code, report) = try await Self.run(["--text", "warm"], root: root)
        #expect(code == .success)
        let app = try #require(report.app)
        #expect(app.start == "warm")
        #expect(app.delivery.method == .sceneContinue)
        let (_, status) = await running.terminate()
        #expect(status == 0)
        #expect(running.output.contains("received intent OpenTextIntent: text=\"warm\""), "\(running.output)")
    }

    @Test func aUsersAppReceivesItsIntentClassAndWithoutTheMethodTheActivityIsLost() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let definition = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>INIntents</key><array><dict>
            <key>INIntentName</key><string>ProbeText</string>
            <key>INIntentParameters</key><array><dict><key>INIntentParameterName</key><string>text</string>
            <key>INIntentParameterType</key><string>String</string></dict></array>
            </dict></array></dict></plist>
            """
        let steps = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>WFWorkflowTypes</key><array><string>ActionExtension</string></array>
            <key>WFWorkflowActions</key><array><dict>
            <key>WFWorkflowActionIdentifier</key><string>com.example.probe.ProbeTextIntent</string>
            </dict></array></dict></plist>
            """
        let shortcut = root.appendingPathComponent("probe.shortcut")
        try Data(steps.utf8).write(to: shortcut)
        for (delegate, expected) in [
            ("FullSceneDelegate", .userActivities), (nil, .applicationContinue), ("ColdOnlySceneDelegate", .lost),
        ] as [(String?, AppDelivery.Method)] {
            try? FileManager.default.removeItem(at: root.appendingPathComponent("Bundles/Probe.app"))
            try TestSupport.installProbeApp(on: root, sceneDelegate: delegate)
            let lproj = root.appendingPathComponent("Bundles/Probe.app/Base.lproj")
            try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data(definition.utf8).write(to: lproj.appendingPathComponent("Probe.intentdefinition"))
            if expected == .lost {
                // Cold it is delivered; warm, an app without scene(_:continue:) does not handle it.
                let running = try await AppLifeCycleTests.LaunchedApp(root: root)
                let (code, out, _) = await TestSupport.run(
                    ["shortcut", "run", shortcut.path, "--text", "x", "--json"], root: root)
                #expect(code == .failure)
                #expect(out.contains("does not implement scene(_:continue:)"), "\(out)")
                _ = await running.terminate()
                continue
            }
            let (code, out, err) = await TestSupport.run(
                ["shortcut", "run", shortcut.path, "--text", "typed text", "--json"], root: root)
            #expect(code == .success, "\(err)")
            let report = try TestSupport.decode(ShortcutReport.self, out, note: err)
            let app = try #require(report.app)
            #expect(app.delivery.method == expected, "\(delegate ?? "no scenes")")
            // A user activity carries no source application: null in the report.
            #expect(app.sourceApplication == nil && out.contains(#""sourceApplication": null"#), "\(out)")
            let output = app.run?.output ?? ""
            #expect(output.contains("ProbeTextIntent ProbeTextIntent text=typed text"), "\(output)")
        }
    }

    @Test func malformedDefinitionsAndShortcutsNameTheirLine() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let definition = root.appendingPathComponent("Bundles/CardDrop.app/Base.lproj/CardDrop.intentdefinition")
        var text = try String(contentsOf: definition, encoding: .utf8)
        text = text.replacingOccurrences(of: "<string>File</string>", with: "<string>Picture</string>")
        try Data(text.utf8).write(to: definition)
        let (code, _, err) = await TestSupport.run(
            ["shortcut", "intents", root.appendingPathComponent("Bundles/CardDrop.app").path])
        #expect(code == .usage)
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("<string>Picture</string>") }.map {
            $0 + 1
        }
        #expect(err.contains("CardDrop.intentdefinition:\(line ?? -1):"), "\(err)")
        #expect(err.contains("unknown INIntentParameterType 'Picture'"), "\(err)")

        let bad = root.appendingPathComponent("bad.shortcut")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>WFWorkflowActions</key><array>
            <dict><key>WFWorkflowActionIdentifier</key><string>is.workflow.actions.count</string></dict>
            <dict><key>WFWorkflowActionIdentifier</key><string>is.workflow.actions.teleport</string></dict>
            </array></dict></plist>
            """.utf8
        ).write(to: bad)
        let (badCode, _, badErr) = await TestSupport.run(["shortcut", "run", bad.path], root: root)
        #expect(badCode == .usage)
        #expect(badErr.contains("bad.shortcut:4:"), "\(badErr)")
        #expect(badErr.contains("unknown action is.workflow.actions.teleport"), "\(badErr)")

        try Data("<plist version=\"1.0\"><dict><key>WFWorkflowActions</key><array>\n<dict>".utf8).write(to: bad)
        let (brokenCode, _, brokenErr) = await TestSupport.run(["shortcut", "run", bad.path], root: root)
        #expect(brokenCode == .usage)
        #expect(brokenErr.contains("bad.shortcut:2:"), "\(brokenErr)")
    }
}
