import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// What `exthost app …` refuses before anything runs, each naming what to pass instead, and
/// `app terminate` of an app that is not running (exit 3).
struct AppCommandRefusalTests {
    @Test func refusalsNameWhatToPass() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("app-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let (noGroupCode, _, noGroup) = await TestSupport.run(["app", "inbox"], root: empty)
        #expect(noGroupCode == .usage)
        #expect(
            noGroup.contains("no installed app on \(empty.path) is entitled to an App Group; pass --group GROUP"),
            "\(noGroup)")
        let (noAppCode, _, noApp) = await TestSupport.run(["app", "inbox", "--group", TestSupport.group], root: empty)
        #expect(noAppCode == .usage)
        #expect(noApp.contains("is entitled to \(TestSupport.group); pass --as-bundle APP.app"), "\(noApp)")

        let root = try TestSupport.scratchRoot("app-refusals")
        defer { try? FileManager.default.removeItem(at: root) }
        let (afterCode, _, after) = await TestSupport.run(["app", "inbox", "--after", "1.5"], root: root)
        #expect(afterCode == .usage && after.contains("--after must be a sequence number"), "\(after)")
        let (timeoutCode, _, timeout) = await TestSupport.run(
            ["app", "run", "com.example.carddrop", "--timeout", "0"], root: root)
        #expect(timeoutCode == .usage && timeout.contains("--timeout must be positive"), "\(timeout)")
        let (stopCode, stopped, _) = await TestSupport.run(["app", "terminate", "com.example.carddrop"], root: root)
        #expect(stopCode == .no && stopped == "com.example.carddrop is not running\n")
    }
}
