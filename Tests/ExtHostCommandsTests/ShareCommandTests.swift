import ActivationRules
import AppGroups
import ExtHostTestSupport
import ExtensionHost
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost share` with real processes: the demo bundle, its rule, the sandboxed extension, then
/// `exthost app inbox` seeing exactly what was committed.
@Suite(.timeLimit(.minutes(2)))
struct ShareCommandTests {
    static let packageRoot = TestSupport.packageRoot
    static let group = TestSupport.group
    static var products: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }

    /// A scratch root holding a copy of the demo bundles (and the demo items).
    private func scratch() throws -> URL { try TestSupport.scratchRoot("share") }

    private func run(_ arguments: [String], root: URL) async -> (ExitCode, String, String) {
        await TestSupport.run(arguments, root: root)
    }

    /// `exthost share --json` decoded as the report type it is written from.
    private func report(_ text: String) throws -> ShareReport {
        try JSONDecoder().decode(ShareReport.self, from: Data(text.utf8))
    }

    @Test func sharingTheDemoItemsCommitsWhatTheAppInboxThenLists() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("Bundles/DemoItems").path
        let (code, out, err) = await run(["share", items, "--json"], root: root)
        #expect(code == .success, "\(err)\n\(out)")
        let report = try report(out)
        #expect(report.activated)
        let extensionReport = try #require(report.extension)
        #expect(extensionReport.outcome == "completed")
        #expect(extensionReport.pid > 0)
        #expect(extensionReport.peakMemoryBytes > 0)
        #expect(extensionReport.sandbox.enforced)
        #expect(extensionReport.sandbox.landlockABI >= 1)
        let attachments = report.attachments
        #expect(attachments.count == 4)
        #expect(attachments.allSatisfy { $0.error == nil }, "\(attachments)")
        let destinations = Set(attachments.compactMap(\.destination))
        #expect(destinations.count == 4)
        #expect(report.committed == 4)
        #expect(report.group == Self.group)
        // The built-in extension moved each loaded copy into the group instead of copying it again.
        #expect(report.messages.contains { $0.contains("4 file(s) moved into the group") }, "\(report.messages)")
        // Every key is written, a missing value as null.
        #expect(out.contains(#""extensionContainer": "#) && out.contains(#""returnedItems": null"#), "\(out)")

        let (listed, inbox, _) = await run(["app", "inbox", "--group", Self.group, "--json"], root: root)
        #expect(listed == .success)
        let entries = try JSONDecoder().decode(ContainerReports.Inbox.self, from: Data(inbox.utf8)).items
        #expect(Set(entries.map(\.path)) == destinations)
        #expect(Set(entries.map(\.name)) == ["alice.card", "menu.pdf", "note.txt", "photo.png"])
    }

    @Test func theHumanReportNamesTheSandboxTheAttachmentsAndTheGroup() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("Bundles/DemoItems").path
        let (code, out, _) = await run(["share", items], root: root)
        #expect(code == .success)
        #expect(out.contains("completed — completed the request"))
        #expect(out.contains("Landlock ABI"))
        #expect(out.contains("photo.png"))
        #expect(out.contains("group group.com.example.carddrop"))
        #expect(out.contains("4 entries committed"))
    }

    @Test func aRuleThatDoesNotActivateExitsThreeWithTheExplanation() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data([0, 1, 2, 3, 0xFF]).write(to: items.appendingPathComponent("blob.bin"))
        let (code, out, _) = await run(["share", items.path], root: root)
        #expect(code == .no, "\(out)")
        #expect(out.contains("does not activate"))
        let (jsonCode, jsonOut, _) = await run(["share", items.path, "--json"], root: root)
        #expect(jsonCode == .no)
        let report = try report(jsonOut)
        #expect(!report.activated && report.extension == nil)
        #expect(report.explanation?.isDecisive == true, "\(jsonOut)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Shared").path))
    }

    @Test func badInputExitsTwo() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let (missing, _, missingError) = await run(["share", root.appendingPathComponent("nope").path], root: root)
        #expect(missing == .usage, "\(missingError)")
        let items = root.appendingPathComponent("Bundles/DemoItems").path
        let (noBundle, _, bundleError) = await run(["share", items, "--extension", root.path], root: root)
        #expect(noBundle == .usage && bundleError.contains("not an extension bundle"))
        let (nothing, _, _) = await run(["share"], root: root)
        #expect(nothing == .usage)
        let (badGroup, _, groupError) = await run(["share", items, "--group", "group.other"], root: root)
        #expect(badGroup == .usage || badGroup == .failure, "\(groupError)")
    }

    /// A rule with errors is said by its located diagnostics alone; a rule file that cannot be read
    /// also gets the summary line. Both exit 2, decided by the error's kind.
    @Test func aRuleWithErrorsExitsTwoWithItsDiagnosticsAlone() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("Bundles/DemoItems").path
        let rule = root.appendingPathComponent("bad.plist")
        let predicate =
            "SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO 3).@count >= 1"
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><string>\(predicate)</string></plist>

            """.utf8
        ).write(to: rule)
        let (code, out, err) = await run(["share", items, "--rule", rule.path], root: root)
        #expect(code == .usage, "\(err)\n\(out)")
        #expect(err.contains("bad.plist:2:") && err.contains("[evaluation-error]"), "\(err)")
        #expect(!err.contains("has errors"), "\(err)")
        let missing = root.appendingPathComponent("missing.plist").path
        let (unreadable, _, unreadableError) = await run(["share", items, "--rule", missing], root: root)
        #expect(unreadable == .usage)
        #expect(unreadableError.contains("error: cannot read the rule in \(missing)"), "\(unreadableError)")
    }

    @Test func aShareErrorsKindDecidesTheExitCode() {
        #expect(CommandError(ShareError(.badInput, "m")).exitCode == .usage)
        #expect(CommandError(ShareError(.invalidRule, "m")).exitCode == .usage)
        #expect(CommandError(ShareError(.failed, "m")).exitCode == .failure)
    }

    @Test func aUsersOwnExtensionExecutableRunsTheSameWay() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("Bundles/DemoItems").path
        let example = Self.products + "/exthost-example-extension"
        // Run as CardDrop's extension (--extension): its App Group, its Bundle.main.
        let appex = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let (code, out, err) = await run(
            ["share", items, "--extension", appex, "--extension-executable", example, "--json"], root: root)
        #expect(code == .success, "\(err)\n\(out)")
        let (_, inbox, _) = await run(["app", "inbox", "--group", Self.group], root: root)
        #expect(inbox.contains("share-summary.txt"))
    }

    @Test func anExtensionThatCrashesExitsOne() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("Bundles/DemoItems").path
        let hostile = Self.products + "/exthost-hostile-extension"
        let (code, out, _) = await run(["share", items, "--extension-executable", hostile, "--json"], root: root)
        #expect(code == .failure)
        let report = try report(out)
        #expect(report.extension?.outcome == "crashed")
        #expect(report.log.contains("crashing on purpose"))
    }

    @Test func goingOverTheMemoryLimitKillsTheExtensionAndSaysWhy() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        // Text registered as a data representation is loaded as data: 96 MiB of it cannot fit under
        // a 32 MiB limit.
        try Data(repeating: UInt8(ascii: "a"), count: 96 << 20).write(to: items.appendingPathComponent("huge.txt"))
        try Data(
            #"{"items": [{"attachments": [{"suggestedName": "huge.txt", "representations": [{"type": "public.plain-text", "kind": "data", "file": "huge.txt"}]}]}]}"#
                .utf8
        ).write(to: items.appendingPathComponent("share.json"))
        let (code, out, _) = await run(["share", items.path, "--memory-limit", "32", "--json"], root: root)
        #expect(code == .failure)
        let report = try report(out)
        let extensionReport = try #require(report.extension)
        #expect(extensionReport.outcome == "killed-memory")
        // At the limit (a memory cgroup's limit is the limit itself) or past it (RLIMIT_DATA, the watchdog).
        #expect(extensionReport.peakMemoryBytes >= 32 << 20)
        #expect(
            extensionReport.reason.contains("huge.txt")
                && extensionReport.reason.contains("use loadFileRepresentation"),
            "\(extensionReport.reason)")
        #expect(report.committed == 0)
    }
}
