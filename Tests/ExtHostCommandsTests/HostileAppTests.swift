import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import Testing

@testable import ExtHostCommands

/// A hostile app (`exthost-hostile-app`, C) installed as an app and started every way an app
/// starts — `exthost app run`, Open With cold, AirDrop's receiver handing it a file, a Shortcuts
/// intent — tries to leave its sandbox: the device root and what is in it, another group's
/// container, /tmp, the home folder, ptrace of its parent, a symbolic link planted in its own
/// container, other apps' Run sockets. Each attempt's outcome is printed; none may succeed.
@Suite(.serialized)
struct HostileAppTests {
    static let identifier = "com.example.hostile"

    /// The escapes every start must try and see refused.
    static let expected = [
        "list-device-root", "list-installed-bundles", "read-other-apps-bundle", "list-other-apps-containers",
        "list-group-containers", "write-device-root", "list-other-group", "write-other-group", "write-tmp",
        "list-tmp", "list-home", "write-home", "ptrace-parent", "read-through-planted-symlink",
        "list-run-through-planted-symlink", "list-run-sockets", "talk-to-probe-run-socket", "read-probe-run-token",
        "read-pasteboard-file", "write-pasteboard-file",
    ]

    /// A device root with the demo bundles, CardDrop's group container, the hostile app (claiming
    /// `.hostiledoc` files, declaring an intent) and the probe app.
    static func device() throws -> (root: URL, otherGroup: URL) {
        let root = try TestSupport.scratchRoot("hostile-app")
        let bundle = root.appendingPathComponent("Bundles/Hostile.app")
        try FileManager.default.createDirectory(
            at: bundle.appendingPathComponent("Base.lproj"), withIntermediateDirectories: true)
        let info: [String: Any] = [
            "CFBundleIdentifier": identifier, "CFBundleName": "Hostile", "CFBundleExecutable": "Hostile",
            "CFBundlePackageType": "APPL", "LSSupportsOpeningDocumentsInPlace": false,
            "CFBundleDocumentTypes": [
                [
                    "CFBundleTypeName": "Hostile", "LSHandlerRank": "Owner",
                    "LSItemContentTypes": ["com.example.hostiledoc"],
                ]
            ],
            "UTExportedTypeDeclarations": [
                [
                    "UTTypeIdentifier": "com.example.hostiledoc",
                    "UTTypeConformsTo": ["public.data", "public.content"],
                    "UTTypeTagSpecification": ["public.filename-extension": ["hostiledoc"]],
                ]
            ],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
        let definition = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>INIntents</key><array><dict>
            <key>INIntentName</key><string>Escape</string>
            <key>INIntentParameters</key><array><dict><key>INIntentParameterName</key><string>text</string>
            <key>INIntentParameterType</key><string>String</string></dict></array>
            </dict></array></dict></plist>
            """
        try Data(definition.utf8).write(to: bundle.appendingPathComponent("Base.lproj/Hostile.intentdefinition"))
        try FileManager.default.copyItem(
            at: TestSupport.program("exthost-hostile-app"), to: bundle.appendingPathComponent("Hostile"))
        try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate")
        let other = try DeviceRoot(url: root).container(.appGroup, identifier: "group.com.example.carddrop").url
        try Data("secret\n".utf8).write(to: other.appendingPathComponent("secret.txt"))
        // Something on the device's pasteboard, whose file the app must not reach.
        try DevicePasteboard(root: DeviceRoot(url: root)).setItems(
            [
                PasteboardItem(representations: [
                    PasteboardRepresentation(type: "public.utf8-plain-text", data: Data("copied".utf8))
                ])
            ],
            writer: "com.example.carddrop")
        return (root, other)
    }

    /// The escape lines in `text` (a command's output, or a JSON report holding the app's output).
    static func outcomes(_ text: String) -> [String: String] {
        var found: [String: String] = [:]
        let pattern = /escape ([a-z-]+) (refused|ESCAPED)/
        for match in text.matches(of: pattern) { found[String(match.1)] = String(match.2) }
        return found
    }

    /// Checks one start's output: every expected escape tried and refused, none escaped, the app
    /// still used its own container and reached its end.
    static func check(_ way: String, _ text: String, expecting names: [String] = expected) {
        let found = outcomes(text)
        for (name, outcome) in found.sorted(by: { $0.key < $1.key }) {
            print("hostile app, \(way): \(name) \(outcome)")
        }
        let escaped = found.filter { $0.value == "ESCAPED" }.keys.sorted()
        print("hostile app, \(way): \(found.count) attempts, \(escaped.count) escapes")
        #expect(escaped.isEmpty, "\(way): escaped \(escaped)")
        for name in names {
            #expect(found[name] == "refused", "\(way): \(name) not refused (\(found[name] ?? "not tried"))")
        }
        #expect(text.contains("allowed write-own-container ok"), "\(way): \(text.prefix(3000))")
        #expect(text.contains("hostile app: done"), "\(way): \(text.prefix(3000))")
    }

    @Test func appRunRefusesEveryEscapeEvenWithAnotherAppRunning() async throws {
        let (root, other) = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let running = try await AppLifeCycleTests.LaunchedApp(root: root)
        let socket = AppLaunchServer.socketPath("com.example.probe", on: DeviceRoot(url: root))
        #expect(FileManager.default.fileExists(atPath: socket), "the probe app is not running: \(running.output)")
        let (code, out, err) = await TestSupport.run(
            [
                "app", "run", Self.identifier, "--root", root.path, "--", "--other-group", other.path, "--run-socket",
                socket,
            ])
        _ = await running.terminate()
        #expect(code == .success, "\(err)")
        Self.check(
            "app run", out, expecting: Self.expected + ["talk-to-other-apps-run-socket", "read-other-apps-run-token"])
        #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("planted-by-app").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("planted-by-app").path))
    }

    @Test func openWithColdRefusesEveryEscape() async throws {
        let (root, _) = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("note.hostiledoc")
        try Data("hello\n".utf8).write(to: file)
        let (_, out, err) = await TestSupport.run(["open", file.path, "--with", Self.identifier, "--json"], root: root)
        Self.check(
            "open with (cold)", out + err,
            expecting: Self.expected.filter { $0 != "list-other-group" && $0 != "write-other-group" })
    }

    @Test func airDropsReceiverHandingItAFileRefusesEveryEscape() async throws {
        let (root, _) = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let sender = try TestSupport.scratchRoot("hostile-app-sender")
        defer { try? FileManager.default.removeItem(at: sender) }
        let file = sender.appendingPathComponent("gift.hostiledoc")
        try Data("a gift\n".utf8).write(to: file)
        let (_, out, err) = await TestSupport.run([
            "airdrop", file.path, "--from", sender.path, "--to", root.path, "--move-to-app", Self.identifier,
            "--json",
        ])
        Self.check(
            "airdrop receive", out + err,
            expecting: Self.expected.filter { $0 != "list-other-group" && $0 != "write-other-group" })
    }

    @Test func aShortcutsIntentRefusesEveryEscape() async throws {
        let (root, _) = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let steps = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>WFWorkflowTypes</key><array><string>ActionExtension</string></array>
            <key>WFWorkflowActions</key><array><dict>
            <key>WFWorkflowActionIdentifier</key><string>com.example.hostile.EscapeIntent</string>
            </dict></array></dict></plist>
            """
        let shortcut = root.appendingPathComponent("escape.shortcut")
        try Data(steps.utf8).write(to: shortcut)
        let (_, out, err) = await TestSupport.run(
            ["shortcut", "run", shortcut.path, "--text", "x", "--json"], root: root)
        Self.check(
            "shortcuts intent", out + err,
            expecting: Self.expected.filter { $0 != "list-other-group" && $0 != "write-other-group" })
    }
}
