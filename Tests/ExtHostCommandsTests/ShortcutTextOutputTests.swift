import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost shortcut run` as a person reads it (no `--json`): the input, each step, the intent
/// delivered and how the app received it; a folder of items as the input; a path that is not there.
@Suite(.timeLimit(.minutes(3)))
struct ShortcutTextOutputTests {
    @Test func theTextReportNamesEachStepAndTheIntent() async throws {
        let root = try ShortcutTests.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let shortcut = ShortcutTests.shortcut.path
        let (code, out, err) = await TestSupport.run(["shortcut", "run", shortcut, "--text", "hello card"], root: root)
        #expect(code == .success, "\(err)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == #"Open in CardDrop: input WFStringContentItem "hello card""#, "\(out)")
        #expect(lines.contains("  1. Get Text from Input"), "\(out)")
        #expect(lines.contains(#"     → WFStringContentItem "hello card""#), "\(out)")
        #expect(lines.contains("intent OpenTextIntent for com.example.carddrop: text=hello card"), "\(out)")
        #expect(lines.contains { $0.hasPrefix("delivered cold to com.example.carddrop (pid ") }, "\(out)")
        #expect(lines.contains("sourceApplication: nil — a user activity carries no source application"), "\(out)")

        // A folder's files are the input, in name order.
        let folder = root.appendingPathComponent("Pictures", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestSupport.demoItems.appendingPathComponent("photo.png"), to: folder.appendingPathComponent("a.png"))
        let (folderCode, folderOut, folderErr) = await TestSupport.run(
            ["shortcut", "run", shortcut, folder.path], root: root)
        #expect(folderCode == .success, "\(folderErr)")
        #expect(folderOut.contains("a.png"), "\(folderOut)")

        let (missingCode, _, missing) = await TestSupport.run(
            ["shortcut", "run", shortcut, root.appendingPathComponent("nothing-here").path], root: root)
        #expect(missingCode == .usage)
        #expect(missing.contains("nothing-here: no such file or folder"), "\(missing)")
    }
}
