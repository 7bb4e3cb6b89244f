import ExtHostTestSupport
import Foundation
import Shortcuts
import Testing

@testable import ExtHostCommands

/// The command line's own answers: the version, `help` for a command or a group, a mistyped
/// subcommand with its suggestion, and the plain and JSON forms of `container list`,
/// `container recover` and `shortcut intents`.
struct CommandLineBasicsTests {
    func run(_ arguments: [String], root: URL? = nil) async -> (ExitCode, String, String) {
        await TestSupport.run(arguments, root: root)
    }

    @Test func versionHelpAndMistypedSubcommands() async throws {
        let (versionCode, version, _) = await run(["--version"])
        #expect(versionCode == .success && version == "exthost \(ExtHostCommands.version)\n")

        let (helpCode, overview, _) = await run(["help"])
        #expect(helpCode == .success && overview.contains("container list"))
        let (_, shareHelp, _) = await run(["help", "container", "list"])
        #expect(shareHelp == ContainerCommands.list.helpText + "\n")
        let (groupCode, group, _) = await run(["help", "container"])
        #expect(groupCode == .success && group.contains("exthost container — subcommands"))
        #expect(group.contains("container recover") && !group.contains("shortcut intents"))
        let (unknownCode, _, unknown) = await run(["help", "nothing-like-this"])
        #expect(unknownCode == .usage && unknown.contains("no command 'exthost nothing-like-this'"))

        let (typoCode, _, typo) = await run(["container", "lst"])
        #expect(typoCode == .usage)
        #expect(typo.contains("unknown command 'exthost container lst'; did you mean 'exthost container list'?"))
        #expect(typo.contains("See 'exthost container --help'."))
    }

    @Test func containersListedAndRecoveredInBothForms() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("cli-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let (emptyCode, none, _) = await run(["container", "list"], root: empty)
        #expect(emptyCode == .success && none == "no containers under \(empty.path)\n")

        let root = try TestSupport.scratchRoot("cli-basics")
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let note = root.appendingPathComponent("Bundles/DemoItems/note.txt").path
        let (missingBundle, _, missingError) = await run(["container", "write", TestSupport.group, note], root: root)
        #expect(missingBundle == .usage && missingError.contains("--as-bundle BUNDLE is required"))
        let (written, _, _) = await run(
            ["container", "write", TestSupport.group, note, note, "--as-bundle", share, "--batch"], root: root)
        #expect(written == .success)

        let (listed, list, _) = await run(["container", "list"], root: root)
        #expect(listed == .success)
        let groupLine = list.split(separator: "\n").first { $0.contains(TestSupport.group) }
        #expect(groupLine?.hasPrefix("Shared/AppGroup/") == true, "\(list)")
        #expect(groupLine?.hasSuffix(" B") == true)

        let (recovered, recovery, _) = await run(["container", "recover", TestSupport.group], root: root)
        #expect(recovered == .success && recovery == "\(TestSupport.group): nothing to recover\n")
        let (jsonCode, json, _) = await run(["container", "recover", TestSupport.group, "--json"], root: root)
        #expect(jsonCode == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["group"] as? String == TestSupport.group)
        #expect((object["actions"] as? [String])?.isEmpty == true)
    }

    @Test func anAppsIntentsInBothForms() async throws {
        let app = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/CardDrop.app").path
        let declared = try IntentCatalog.intents(ofAppAt: URL(fileURLWithPath: app))
        let (code, text, _) = await run(["shortcut", "intents", app])
        #expect(code == .success)
        if declared.isEmpty {
            #expect(text == "no intents\n")
        } else {
            for intent in declared { #expect(text.contains("\(intent.className) (\(intent.source)): ")) }
        }
        let (jsonCode, json, _) = await run(["shortcut", "intents", app, "--json"])
        #expect(jsonCode == .success)
        let decoded = try JSONDecoder().decode([IntentDeclaration].self, from: Data(json.utf8))
        #expect(decoded == declared)
    }

    @Test func intentsOfAnAppThatIsNotThereIsBadInputNamingIt() async throws {
        let (code, _, errors) = await run(["shortcut", "intents", "/nonexistent/X.app"])
        #expect(code == .usage)
        #expect(errors.contains("/nonexistent/X.app: no app bundle"), "\(errors)")
    }
}
