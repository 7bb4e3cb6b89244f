import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import Testing

/// The app exthost runs for a bundle without a program (`exthost-builtin-app __app`): the demo's CardDrop keeps
/// what it is sent in `Documents/Received`, moving an Inbox copy out of the Inbox.
@Suite(.timeLimit(.minutes(2)))
struct BuiltInAppTests {
    @Test func aCopyInTheInboxIsKeptInReceivedAndListedAtTheNextLaunch() async throws {
        let root = try TestSupport.scratchRoot("built-in-app")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let identity = try BundleIdentity.load(bundle: root.appendingPathComponent("Bundles/CardDrop.app"))
        let documents = try device.dataContainer(for: identity).url.appendingPathComponent("Documents")
        try FileManager.default.createDirectory(
            at: documents.appendingPathComponent("Inbox"), withIntermediateDirectories: true)
        let copy = documents.appendingPathComponent("Inbox/alice.card")
        try FileManager.default.copyItem(at: TestSupport.demoItems.appendingPathComponent("alice.card"), to: copy)

        let launcher = try #require(InstalledPrograms.nextToExecutable()).launcher
        var options = AppLaunchOptions(
            programs: try #require(InstalledPrograms.nextToExecutable()))
        options.urlContexts = [OpenURLContextDescription(url: copy.absoluteString, openInPlace: false)]
        let first = try await ExtensionHost.runApp(
            "com.example.carddrop", on: device, launcher: launcher, options: options)
        #expect(first.launchDelivery?.handled == true, "\(first)")
        #expect(!FileManager.default.fileExists(atPath: copy.path), "moved out of the Inbox")
        let kept = documents.appendingPathComponent("Received/alice.card")
        #expect(
            try Data(contentsOf: kept) == Data(contentsOf: TestSupport.demoItems.appendingPathComponent("alice.card")))

        options.urlContexts = []
        let second = try await ExtensionHost.runApp(
            "com.example.carddrop", on: device, launcher: launcher, options: options)
        #expect(second.output.contains("alice.card"), "it lists what it holds at launch: \(second.output)")

        // A second file of the same name is kept beside the first, not over it; a URL that is not
        // a file is only reported.
        try FileManager.default.copyItem(at: TestSupport.demoItems.appendingPathComponent("alice.card"), to: copy)
        options.urlContexts = [
            OpenURLContextDescription(url: copy.absoluteString, openInPlace: false),
            OpenURLContextDescription(url: "carddrop://card/alice", openInPlace: false),
        ]
        let third = try await ExtensionHost.runApp(
            "com.example.carddrop", on: device, launcher: launcher, options: options)
        #expect(third.output.contains("received alice-1.card"), "\(third.output)")
        #expect(third.output.contains("opened carddrop://card/alice"), "\(third.output)")
        #expect(
            try Data(contentsOf: documents.appendingPathComponent("Received/alice-1.card")) == Data(contentsOf: kept))
        #expect(
            try Data(contentsOf: kept) == Data(contentsOf: TestSupport.demoItems.appendingPathComponent("alice.card")))
    }
    /// A bundle without a scene manifest gets a Shortcuts intent through
    /// `application(_:continue:restorationHandler:)`: the built-in app keeps its text parameter as a
    /// `.txt` file.
    /// Without the built-in app's program, an app bundle without a program of its own is bad input
    /// that names the missing program.
    @Test func withoutTheBuiltInAppsProgramABundleWithoutOneCannotRun() async throws {
        let root = try TestSupport.scratchRoot("built-in-app-missing")
        defer { try? FileManager.default.removeItem(at: root) }
        let programs = try #require(InstalledPrograms.nextToExecutable())
        var options = AppLaunchOptions(programs: programs)
        options.builtInApp = nil
        do {
            _ = try await ExtensionHost.runApp(
                "com.example.carddrop", on: DeviceRoot(url: root), launcher: programs.launcher, options: options)
            Issue.record("an app without a program ran")
        } catch {
            #expect(error.kind == .badInput)
            #expect("\(error)".contains("holds no program (CFBundleExecutable)"), "\(error)")
            #expect("\(error)".contains(InstalledPrograms.appsName), "\(error)")
        }
    }

    @Test func anIntentReachesAnAppWithoutScenesThroughItsDelegate() async throws {
        let root = try TestSupport.scratchRoot("built-in-app-intent")
        defer { try? FileManager.default.removeItem(at: root) }
        let plist = root.appendingPathComponent("Bundles/CardDrop.app/Info.plist")
        var info = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil) as? [String: Any])
        info["UIApplicationSceneManifest"] = nil
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: plist)
        let device = DeviceRoot(url: root)
        let identity = try BundleIdentity.load(bundle: root.appendingPathComponent("Bundles/CardDrop.app"))
        let documents = try device.dataContainer(for: identity).url.appendingPathComponent("Documents")

        let launcher = try #require(InstalledPrograms.nextToExecutable()).launcher
        var options = AppLaunchOptions(
            programs: try #require(InstalledPrograms.nextToExecutable()))
        options.userActivities = [
            UserActivityDescription(
                activityType: "SaveNoteIntent", intentClassName: "SaveNoteIntent",
                parameters: [IntentParameterValue(name: "note", kind: "string", string: "buy milk")])
        ]
        let run = try await ExtensionHost.runApp(
            "com.example.carddrop", on: device, launcher: launcher, options: options)
        #expect(run.launchDelivery?.handled == true, "\(run)")
        #expect(run.output.contains(#"received intent SaveNoteIntent: note="buy milk" as note.txt"#), "\(run.output)")
        #expect(
            try String(contentsOf: documents.appendingPathComponent("Received/note.txt"), encoding: .utf8) == "buy milk"
        )
    }
}
