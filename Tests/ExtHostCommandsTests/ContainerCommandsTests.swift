import AppGroups
import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

struct ContainerCommandsTests {
    static let packageRoot = TestSupport.packageRoot
    static let group = TestSupport.group

    /// A scratch root holding a copy of the demo bundles (and the demo items).
    private func scratch() throws -> URL { try TestSupport.scratchRoot("cli") }

    private func run(_ arguments: [String], root: URL) async -> (ExitCode, String, String) {
        await TestSupport.run(arguments, root: root)
    }

    @Test func writeShowVerifyAndInboxWorkTogether() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let note = root.appendingPathComponent("Bundles/DemoItems/note.txt").path
        let (written, out, _) = await run(["container", "write", Self.group, note, "--as-bundle", share], root: root)
        #expect(written == .success && out.contains("#1  Inbox/") && out.contains("public.plain-text"))
        let (shown, showOut, _) = await run(["container", "show", Self.group], root: root)
        #expect(shown == .success && showOut.contains("1 entry"))
        let (verified, verifyOut, _) = await run(["container", "verify", Self.group], root: root)
        #expect(verified == .success && verifyOut.contains("no problems"))
        let (listed, inboxOut, _) = await run(
            ["app", "inbox", "--group", Self.group, "--consume", "--json"], root: root)
        #expect(listed == .success && inboxOut.contains("\"name\": \"note.txt\""))
        let (_, again, _) = await run(["app", "inbox", "--group", Self.group], root: root)
        #expect(again.contains("no new entries for com.example.carddrop"))
        let (waited, _, _) = await run(["app", "inbox", "--group", Self.group, "--wait", "0.1"], root: root)
        #expect(waited == .failure)
    }

    @Test func theInboxPagesWithLimitAndAfter() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        for name in ["note.txt", "photo.png", "menu.pdf"] {
            let file = root.appendingPathComponent("Bundles/DemoItems/\(name)").path
            let (code, _, err) = await run(["container", "write", Self.group, file, "--as-bundle", share], root: root)
            #expect(code == .success, "\(err)")
        }
        func names(_ arguments: [String]) async throws -> [String] {
            let (code, out, err) = await run(["app", "inbox", "--group", Self.group, "--json"] + arguments, root: root)
            #expect(code == .success, "\(err)")
            return try JSONDecoder().decode(ContainerReports.Inbox.self, from: Data(out.utf8)).items.map(\.name)
        }
        #expect(try await names(["--limit", "2"]) == ["note.txt", "photo.png"])
        #expect(try await names(["--limit", "2", "--after", "2"]) == ["menu.pdf"])
        #expect(try await names(["--after", "3"]).isEmpty)
        let (bad, _, _) = await run(["app", "inbox", "--group", Self.group, "--limit", "0"], root: root)
        #expect(bad == .usage)
    }

    @Test func exportAndImportCarryEntriesBetweenRoots() async throws {
        let root = try scratch()
        let other = try scratch()
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: other)
        }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let items = ["note.txt", "photo.png"].map { root.appendingPathComponent("Bundles/DemoItems/\($0)").path }
        _ = await run(["container", "write", Self.group] + items + ["--as-bundle", share], root: root)
        let archive = root.appendingPathComponent("out.tar.gz").path
        let (exported, out, _) = await run(["container", "export", Self.group, archive], root: root)
        #expect(exported == .success && out.contains("exported 2 entries"))
        let (refused, _, notFound) = await run(["container", "import", Self.group, archive], root: other)
        #expect(refused == .failure && notFound.contains("no container for App Group"))
        let app = other.appendingPathComponent("Bundles/CardDrop.app").path
        let (imported, importOut, _) = await run(
            ["container", "import", Self.group, archive, "--as-bundle", app], root: other)
        #expect(imported == .success && importOut.contains("note.txt") && importOut.contains("public.png"))
        let (verified, _, _) = await run(["container", "verify", Self.group], root: other)
        #expect(verified == .success)
        let (badName, _, usage) = await run(["container", "export", Self.group, "out.rar"], root: root)
        #expect(badName == .usage && usage.contains(".tar.gz"))
    }

    @Test func exportJSONNamesTheArchiveAndCountsItsEntries() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let items = ["note.txt", "photo.png"].map { root.appendingPathComponent("Bundles/DemoItems/\($0)").path }
        _ = await run(["container", "write", Self.group] + items + ["--as-bundle", share], root: root)
        let archive = root.appendingPathComponent("out.zip").path
        let (code, out, err) = await run(["container", "export", Self.group, archive, "--json"], root: root)
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(ContainerReports.Export.self, from: Data(out.utf8))
        #expect(report == ContainerReports.Export(archive: archive, entries: 2))
        #expect(FileManager.default.fileExists(atPath: archive))
    }

    @Test func verifyExitsOneAndListsTheDamage() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let note = root.appendingPathComponent("Bundles/DemoItems/note.txt").path
        _ = await run(["container", "write", Self.group, note, "--as-bundle", share, "--json"], root: root)
        let (_, json, _) = await run(["container", "show", Self.group, "--json"], root: root)
        let shown = try JSONDecoder().decode(ContainerReports.Show.self, from: Data(json.utf8))
        let url = try #require(shown.entries.first?.url)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: url))
        let (code, out, _) = await run(["container", "verify", Self.group], root: root)
        #expect(code == .failure && out.contains("size mismatch"))
        let (_, verifyJSON, _) = await run(["container", "verify", Self.group, "--json"], root: root)
        let verified = try JSONDecoder().decode(ContainerReports.Verify.self, from: Data(verifyJSON.utf8))
        #expect(!verified.clean && verified.entries == 1 && verified.problems.map(\.path) == [shown.entries[0].path])
    }

    @Test func writtenFilesAreTypedByTheSystemAndTheBundlesDeclarations() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let card = root.appendingPathComponent("Bundles/DemoItems/alice.card").path
        let movie = root.appendingPathComponent("clip.mov")
        let unknown = root.appendingPathComponent("data.xyzzy")
        try Data([0]).write(to: movie)
        try Data([1]).write(to: unknown)
        let (code, out, err) = await run(
            ["container", "write", Self.group, card, movie.path, unknown.path, "--as-bundle", share, "--json"],
            root: root)
        #expect(code == .success, "\(err)")
        // CardDrop.app exports com.example.carddrop.card for .card; the extension inherits its app's types.
        let entries = try JSONDecoder().decode([ContainerReports.Entry].self, from: Data(out.utf8))
        #expect(entries.map(\.type) == ["com.example.carddrop.card", "com.apple.quicktime-movie", "public.data"])
    }

    @Test func anUnentitledBundleIsRefusedByName() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let (code, _, err) = await run(
            ["container", "write", "group.com.example.other", "x", "--as-bundle", share], root: root)
        #expect(code == .failure)
        #expect(err.contains("com.example.carddrop.Share is not entitled to App Group 'group.com.example.other'"))
        #expect(err.contains("Share.entitlements"))
        let (bad, _, usage) = await run(["container", "show", "com.example"], root: root)
        #expect(bad == .usage && usage.contains("group."))
    }

    @Test func theBuiltBinarySetsAndDumpsDefaults() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let binary = URL(fileURLWithPath: try Executables.exthost())
        // Each run on a thread of its own (TestSupport.offThread): the wait blocks.
        func exthost(_ arguments: [String]) async throws -> (Int32, String, String) {
            try await TestSupport.offThread { try run(arguments) }
        }
        @Sendable func run(_ arguments: [String]) throws -> (Int32, String, String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments + ["--root", root.path]
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, outText, errText)
        }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let note = root.appendingPathComponent("Bundles/DemoItems/note.txt").path
        #expect(try await exthost(["container", "write", Self.group, note, "--as-bundle", share]).0 == 0)
        #expect(try await exthost(["container", "defaults", Self.group, "set", "flag", "true"]).0 == 0)
        let (status, out, _) = try await exthost(["container", "defaults", Self.group, "dump", "--xml"])
        #expect(status == 0 && out.contains("<key>flag</key>") && out.contains("<true/>"))
        let (missing, _, err) = try await exthost(["container", "defaults", Self.group, "get", "nope"])
        #expect(missing == 1 && err.contains("no key 'nope'"))
        let (listStatus, list, _) = try await exthost(["container", "list", "--json"])
        #expect(listStatus == 0 && list.contains("\"identifier\": \"group.com.example.carddrop\""))
    }
}
