import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import LaunchServices
import Testing

@testable import ExtHostCommands

/// The app as a process with Apple's entry points: a URL sent to an app that is not running
/// arrives in `scene(_:willConnectTo:options:)`, one sent while it runs in `scene(_:openURLContexts:)`;
/// an app that lacks one loses the URL there, and the report says so. The app is
/// `exthost-probe-app` (written only against Foundation and UIKit), installed under several
/// Info.plists; the running app is a real `exthost app launch` process.
@Suite(.timeLimit(.minutes(3)))
struct AppLifeCycleTests {
    static func document(in root: URL, _ name: String = "hello.probedoc") throws -> URL {
        let url = root.appendingPathComponent(name)
        try Data("probe document\n".utf8).write(to: url)
        return url
    }

    /// `exthost open FILE --json`: exit code, the `app` report, and the probe's line.
    static func open(_ file: URL, root: URL, from: String? = nil) async throws -> (ExitCode, AppOpenReport, String) {
        let (code, out, err) = await TestSupport.run(
            ["open", file.path, "--json"] + (from.map { ["--from", $0] } ?? []), root: root)
        let report = try TestSupport.decode(OpenReport.self, out, note: err)
        let delivery = try #require(report.delivery, "\(out)")
        let app = try #require(delivery.app, "\(out)")
        #expect(delivery.method == app.delivery.method.rawValue)
        let output = app.run?.output ?? ""
        return (
            code, app,
            output.split(separator: "\n").first { $0.hasPrefix("PROBE-APP ") && !$0.contains("launched") }.map(
                String.init) ?? ""
        )
    }

    static func method(_ app: AppOpenReport) -> AppDelivery.Method { app.delivery.method }
    static func detail(_ app: AppOpenReport) -> String { app.delivery.detail }

    /// A running `exthost app launch com.example.probe`, its output collected in a file.
    final class LaunchedApp {
        let process = Process()
        let log: URL
        let root: URL

        let bundle: String

        init(root: URL, bundle: String = "com.example.probe") async throws {
            self.root = root
            self.bundle = bundle
            log = root.appendingPathComponent("launch.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.executableURL = URL(fileURLWithPath: try Executables.exthost())
            process.arguments = ["app", "launch", bundle, "--root", root.path]
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let socket = AppLaunchServer.socketPath(bundle, on: DeviceRoot(url: root))
            let process = self.process
            // Waits for the socket on a thread of its own (TestSupport.offThread), not a cooperative one.
            _ = try await TestSupport.offThread {
                let deadline = Date().addingTimeInterval(20)
                while !FileManager.default.fileExists(atPath: socket) && process.isRunning && Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
        }

        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// `exthost app terminate`, then waits for the process; its exit status.
        func terminate() async -> (ExitCode, Int32) {
            let (code, _, _) = await TestSupport.run(["app", "terminate", bundle], root: root)
            let process = self.process
            _ = try? await TestSupport.offThread { process.waitUntilExit() }
            return (code, process.terminationStatus)
        }
    }

    @Test func bothEntryPointsReceiveTheURLColdAndWarm() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate")
        // The sender shares the probe's team (application-identifier TEAMID.bundle), so iOS names it.
        try Self.entitle(root.appendingPathComponent("Bundles/Probe.app"), team: "ABCDE12345", "com.example.probe")
        try TestSupport.installApp("Sender", "com.example.sender", on: root, [:])
        try Self.entitle(root.appendingPathComponent("Bundles/Sender.app"), team: "ABCDE12345", "com.example.sender")
        let file = try Self.document(in: root)

        let (code, cold, line) = try await Self.open(file, root: root, from: "com.example.sender")
        #expect(code == .success)
        #expect(cold.start == "cold")
        #expect(Self.method(cold) == .willConnectTo)
        #expect(cold.sourceApplication == "com.example.sender")
        #expect(
            line.hasPrefix("PROBE-APP willConnectTo hello.probedoc inPlace=false source=com.example.sender"), "\(line)")
        #expect(line.contains("noscope=ok"), "an Inbox copy is the app's own: \(line)")
        // The copy was made in the app's own Documents/Inbox.
        let urls = cold.delivery.urls
        #expect(urls.first?.contains("/Documents/Inbox/hello.probedoc") == true, "\(urls)")

        let running = try await LaunchedApp(root: root)
        // A sender that is not installed has no team: nil, warm as cold.
        let (warmCode, warm, _) = try await Self.open(file, root: root, from: "com.example.gone")
        #expect(warmCode == .success)
        #expect(warm.start == "warm")
        #expect(warm.sourceApplication == nil)
        #expect(warm.pid == Int(running.process.processIdentifier) || warm.pid > 0)
        #expect(Self.method(warm) == .openURLContexts)
        // A second file of the same name lands beside the first as iOS names it.
        #expect(warm.delivery.urls.first?.hasSuffix("hello-1.probedoc") == true)
        // One instance: a second launch is refused while the first runs.
        let (again, _, againErr) = await TestSupport.run(["app", "launch", "com.example.probe"], root: root)
        #expect(again == .failure)
        #expect(againErr.contains("already running"), "\(againErr)")
        let (terminated, status) = await running.terminate()
        #expect(terminated == .success)
        #expect(status == 0, "\(running.output)")
        #expect(running.output.contains("PROBE-APP openURLContexts hello-1.probedoc"), "\(running.output)")
        #expect(running.output.contains("hello-1.probedoc inPlace=false source=nil"), "\(running.output)")
    }

    /// An app that edits its Inbox copy in place fails as on a phone (the copy is read-only, no new
    /// file can be made beside it), may still delete it, and the report says why the write failed.
    @Test func anAppThatEditsItsInboxCopyInPlaceIsRefusedAndToldToMoveItOut() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate", ["ProbeTriesInbox": true])
        let file = try Self.document(in: root)
        let (code, out, err) = await TestSupport.run(["open", file.path], root: root)
        #expect(code == .success, "\(err)")
        // EPERM from the sandbox: Foundation's CocoaError.fileWriteNoPermission (513).
        let line = out.split(separator: "\n").first { $0.hasPrefix("PROBE-APP inbox ") }.map(String.init) ?? ""
        #expect(line.contains("edit=denied(513) create=denied(513)"), "\(out)")
        #expect(line.contains(" mkdir=denied(") && line.contains(" move-in=denied("), "\(line)")
        #expect(line.contains(" delete=ok remove-inbox=denied("), "\(line)")
        #expect(out.contains("refused: "), "\(out)")
        #expect(out.contains("the Inbox copy is read-only: move it out first"), "\(out)")
        let (_, json, _) = await TestSupport.run(["open", file.path, "--json"], root: root)
        let report = try TestSupport.decode(OpenReport.self, json)
        let refusals = try #require(report.delivery?.app?.run?.refusals)
        #expect(
            refusals.contains { $0.contains("hello.probedoc for writing: the Inbox copy is read-only") }, "\(refusals)")
        for call in ["mkdir ", "rename ", "rmdir "] {
            #expect(refusals.contains { $0.hasPrefix(call) && $0.contains("Inbox") }, "\(call): \(refusals)")
        }
        // The copy was deleted by the app, nothing was made beside it, and the original is intact.
        let inbox = try #require(report.delivery?.inbox)
        let left = try FileManager.default.contentsOfDirectory(atPath: inbox)
        #expect(left.isEmpty, "\(left)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "probe document\n")
    }

    /// Writes `bundle`'s entitlements naming `team` in `application-identifier`.
    static func entitle(_ bundle: URL, team: String, _ identifier: String) throws {
        try PropertyListSerialization.data(
            fromPropertyList: ["application-identifier": "\(team).\(identifier)"], format: .xml, options: 0
        ).write(to: bundle.appendingPathComponent("App.entitlements"))
    }

    @Test func aSenderOfAnotherTeamIsNilAndTheJSONSaysNullAndWhy() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate")
        try Self.entitle(root.appendingPathComponent("Bundles/Probe.app"), team: "ABCDE12345", "com.example.probe")
        try TestSupport.installApp("Stranger", "com.other.stranger", on: root, [:])
        try Self.entitle(root.appendingPathComponent("Bundles/Stranger.app"), team: "ZYXWV98765", "com.other.stranger")
        let file = try Self.document(in: root)
        let (code, out, err) = await TestSupport.run(
            ["open", file.path, "--json", "--from", "com.other.stranger"], root: root)
        #expect(code == .success, "\(err)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(out)")
        let app = try #require((object["delivery"] as? [String: Any])?["app"] as? [String: Any], "\(out)")
        #expect(app["sourceApplication"] is NSNull, "the key is there, null: \(out)")
        #expect((object["sourceApplicationReason"] as? String)?.contains("different team") == true, "\(out)")
        #expect(out.contains("source=nil"), "the app saw nil: \(out)")
    }

    @Test func anAppThatHandlesOnlyOpenURLContextsLosesTheURLOnAColdStart() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: "WarmOnlySceneDelegate")
        let file = try Self.document(in: root)

        let (code, cold, line) = try await Self.open(file, root: root)
        #expect(code == .failure)
        #expect(Self.method(cold) == .lost)
        #expect(Self.detail(cold).contains("never read connectionOptions.urlContexts"), "\(Self.detail(cold))")
        #expect(line.isEmpty, "no code of the app saw it: \(line)")

        let running = try await LaunchedApp(root: root)
        let (warmCode, warm, _) = try await Self.open(file, root: root)
        #expect(warmCode == .success)
        #expect(Self.method(warm) == .openURLContexts)
        _ = await running.terminate()
    }

    @Test func anAppThatHandlesOnlyWillConnectToLosesTheURLWhileItRuns() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: "ColdOnlySceneDelegate")
        let file = try Self.document(in: root)
        let (_, cold, _) = try await Self.open(file, root: root)
        #expect(Self.method(cold) == .willConnectTo)

        let running = try await LaunchedApp(root: root)
        let (code, warm, _) = try await Self.open(file, root: root)
        #expect(code == .failure)
        #expect(Self.method(warm) == .lost)
        #expect(Self.detail(warm).contains("does not implement scene(_:openURLContexts:)"), "\(Self.detail(warm))")
        let (_, status) = await running.terminate()
        #expect(status == 0)
    }

    @Test func anAppWithoutScenesGetsApplicationOpenWithItsOptions() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: nil)
        let file = try Self.document(in: root)
        let (code, cold, line) = try await Self.open(file, root: root)
        #expect(code == .success)
        #expect(Self.method(cold) == .applicationOpen)
        #expect(line.hasPrefix("PROBE-APP application-open hello.probedoc inPlace=false"), "\(line)")
        let output = cold.run?.output ?? ""
        // Without scenes the launch options carry the URL.
        #expect(output.contains("PROBE-APP launched scenes=no url=hello.probedoc"), "\(output)")
    }

    @Test func anInPlaceOriginalOpensOnlyInsideItsSecurityScope() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(
            on: root, sceneDelegate: "FullSceneDelegate", ["LSSupportsOpeningDocumentsInPlace": true])
        let file = try Self.document(in: root, "original.probedoc")
        let (code, cold, line) = try await Self.open(file, root: root)
        #expect(code == .success)
        let urls = cold.delivery.urls
        #expect(urls.first.flatMap(URL.init(string:))?.path == file.path, "the original, not a copy: \(urls)")
        #expect(line.contains("inPlace=true"), "\(line)")
        #expect(line.contains("scoped=ok 15"), "\(line)")
        let run = try #require(cold.run)
        if run.scopeEnforcement == "kernel" {
            #expect(line.contains("noscope=denied") && line.contains("after=denied"), "\(line)")
        } else {
            #expect(run.scopeEnforcement == "api-only")
        }
    }

    @Test func aProgramWithoutTheAppLifeCycleLosesTheURL() async throws {
        let root = try TestSupport.scratchRoot("lifecycle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate")
        // Replace the program with one that never calls UIApplicationMain.
        let program = root.appendingPathComponent("Bundles/Probe.app/Probe")
        try FileManager.default.removeItem(at: program)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/bin/true"), to: program)
        let (code, cold, _) = try await Self.open(try Self.document(in: root), root: root)
        #expect(code == .failure)
        #expect(Self.method(cold) == .lost)
        #expect(Self.detail(cold).contains("does not run the app life cycle"), "\(Self.detail(cold))")
    }

    /// A program the kernel cannot execute (not a program at all; no execute permission) never
    /// started: the report says so, not that it lacks the life cycle.
    @Test func aProgramThatCannotBeExecutedIsReportedAsSuch() async throws {
        for permissions in [0o755, 0o644] {
            let root = try TestSupport.scratchRoot("lifecycle")
            defer { try? FileManager.default.removeItem(at: root) }
            try TestSupport.installProbeApp(on: root, sceneDelegate: "FullSceneDelegate")
            let program = root.appendingPathComponent("Bundles/Probe.app/Probe")
            try FileManager.default.removeItem(at: program)
            try Data("not a program\n".utf8).write(to: program)
            try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: program.path)
            let (code, cold, _) = try await Self.open(try Self.document(in: root), root: root)
            #expect(code == .failure)
            #expect(Self.method(cold) == .lost)
            let detail = Self.detail(cold)
            #expect(detail.contains("never started: could not be executed"), "\(permissions): \(detail)")
            #expect(!detail.contains("life cycle"), "\(detail)")
            let errno = permissions == 0o644 ? "Permission denied" : "Exec format error"
            #expect(cold.run?.launchFailure?.contains(errno) == true, "\(detail)")
        }
    }
}
