import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import Shortcuts
import Testing

/// Shortcuts as a library: reading a shortcut and an app's intents, and running a shortcut's steps
/// with the delivery to the app replaced by a recorder (no process starts).
@Suite
struct ShortcutTests {
    static let demo = TestSupport.packageRoot.appendingPathComponent("Containers")
    static let shortcut = demo.appendingPathComponent("Shortcuts/Open in CardDrop.shortcut")

    /// A runner on `root` whose deliveries are recorded, each answered as delivered cold.
    static func runner(on root: URL, recording delivered: Locked<[(String, UserActivityDescription)]>)
        -> ShortcutRunner
    {
        ShortcutRunner(root: DeviceRoot(url: root)) { bundle, activity in
            delivered.withLock { $0.append((bundle, activity)) }
            let json =
                #"{"bundleIdentifier": "\#(bundle)", "start": "cold", "pid": 0, "delivery": "#
                + #"{"method": "userActivities", "handled": true, "detail": "recorded", "urls": []}}"#
            return try JSONDecoder().decode(AppOpenReport.self, from: Data(json.utf8))
        }
    }

    @Test func theDemoShortcutIsInTheSheetAndTakesTextAndImagesNotPDFs() throws {
        let shortcut = try Shortcut.load(contentsOf: Self.shortcut)
        #expect(shortcut.name == "Open in CardDrop")
        #expect(shortcut.showsInShareSheet)
        #expect(shortcut.accepts([.text("hello")]))
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        #expect(shortcut.accepts([.image(name: "photo.png", data: png, typeIdentifier: "public.png")]))
        #expect(!shortcut.accepts([.pdf(URL(fileURLWithPath: "/menu.pdf"))]))
    }

    @Test func textRunsTheTextIntentOfTheAppThatDeclaresIt() async throws {
        let root = try TestSupport.scratchRoot("shortcuts")
        defer { try? FileManager.default.removeItem(at: root) }
        let delivered = Locked<[(String, UserActivityDescription)]>([])
        let shortcut = try Shortcut.load(contentsOf: Self.shortcut)
        let input: [ContentItem] = [.text("hello card")]
        let report = try await Self.runner(on: root, recording: delivered).run(shortcut, input: input)
        #expect(report.delivered?.activityType == "OpenTextIntent")
        #expect(report.delivered?.parameters.first?.value == "hello card")
        let sent = delivered.withLock { $0 }
        #expect(sent.map(\.0) == ["com.example.carddrop"])
        #expect(sent.first?.1.intentClassName == "OpenTextIntent")
        #expect(report.steps.first?.received.first?.contains("hello card") == true, "\(report.steps)")
    }

    @Test func withNothingSharedSelectPhotosPicksFromTheLibrary() async throws {
        let root = try TestSupport.scratchRoot("shortcuts")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(
            at: Self.demo.appendingPathComponent("Media"), to: root.appendingPathComponent("Media"))
        let delivered = Locked<[(String, UserActivityDescription)]>([])
        let shortcut = try Shortcut.load(contentsOf: Self.shortcut)
        let report = try await Self.runner(on: root, recording: delivered).run(shortcut, input: [])
        #expect(report.steps.contains { $0.note?.contains("chose IMG_0001.png from the Photos library") == true })
        #expect(report.delivered?.parameters.first?.filename == "IMG_0001.png")
        let emptyLibrary = try TestSupport.scratchRoot("shortcuts")
        defer { try? FileManager.default.removeItem(at: emptyLibrary) }
        await #expect(throws: ShortcutError.self) {
            try await Self.runner(on: emptyLibrary, recording: delivered).run(shortcut, input: [])
        }
    }

    @Test func anUnknownActionIsRefusedAtItsLine() throws {
        let root = try TestSupport.scratchRoot("shortcuts")
        defer { try? FileManager.default.removeItem(at: root) }
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
        let error = try #require(throws: ShortcutError.self) { try Shortcut.load(contentsOf: bad) }
        #expect(error.line == 4 && error.isBadInput, "\(error)")
        #expect(error.message.contains("unknown action is.workflow.actions.teleport"), "\(error)")
    }

    @Test func theAppsIntentDefinitionDeclaresTheTwoIntents() throws {
        let intents = try IntentCatalog.intents(ofAppAt: Self.demo.appendingPathComponent("Bundles/CardDrop.app"))
        #expect(Set(intents.map(\.className)).isSuperset(of: ["OpenTextIntent", "OpenImageIntent"]), "\(intents)")
    }
}
