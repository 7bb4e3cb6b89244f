import Foundation
import Testing

@testable import ExtHostCommands

/// Every command's `--help`, as generated from its option declarations, against a snapshot in
/// `HelpSnapshots/` — so a changed option, default or exit code shows in review. After an intended
/// change: `EXTHOST_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests`, then review the diff.
@Suite
struct HelpSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "HelpSnapshots")

    static func file(_ spec: CommandSpec) -> URL {
        folder.appendingPathComponent((spec.path.isEmpty ? ["exthost"] : spec.path).joined(separator: "-") + ".txt")
    }

    @Test func everyCommandsHelpMatchesItsSnapshot() async throws {
        let update = ProcessInfo.processInfo.environment["EXTHOST_UPDATE_SNAPSHOTS"] == "1"
        var expected: Set<String> = []
        for spec in ExtHostCommands.listed {
            // The text a user sees, through the command line itself.
            let context = CommandContext.collecting()
            let code = await ExtHostCommands.main(arguments: spec.path + ["--help"], context: context)
            #expect(code == .success, "\(spec.path.joined(separator: " ")) --help")
            let text = context.collectedOutput
            let url = Self.file(spec)
            expected.insert(url.lastPathComponent)
            if update {
                try Data(text.utf8).write(to: url)
                continue
            }
            let snapshot = try? String(contentsOf: url, encoding: .utf8)
            #expect(
                snapshot == text,
                "exthost \(spec.path.joined(separator: " ")) --help changed; its snapshot is \(url.lastPathComponent)")
        }
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? [])
        #expect(present == expected, "snapshots without a command: \(present.subtracting(expected).sorted())")
    }

    /// `docs/commands.md` is every command's `--help`, generated, so the reference cannot drift from
    /// the declared options. After an intended change:
    /// `EXTHOST_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests`.
    @Test func theCommandReferenceIsEveryCommandsHelp() async throws {
        let update = ProcessInfo.processInfo.environment["EXTHOST_UPDATE_SNAPSHOTS"] == "1"
        let overview = CommandContext.collecting()
        #expect(await ExtHostCommands.main(arguments: ["--help"], context: overview) == .success)
        var text = """
            # exthost commands

            Every command's `--help`, generated from its option declarations (`HelpSnapshotTests` checks
            this file; after a change to a command: `EXTHOST_UPDATE_SNAPSHOTS=1 swift test --filter
            HelpSnapshotTests`). The [guide](guide.md) explains what each part does.

            ```text
            \(overview.collectedOutput)```

            """
        for spec in ExtHostCommands.listed {
            let context = CommandContext.collecting()
            let code = await ExtHostCommands.main(arguments: spec.path + ["--help"], context: context)
            #expect(code == .success, "\(spec.path.joined(separator: " ")) --help")
            text += "\n## exthost \(spec.path.joined(separator: " "))\n\n```text\n\(context.collectedOutput)```\n"
        }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/commands.md")
        if update {
            try Data(text.utf8).write(to: url)
            return
        }
        let reference = try? String(contentsOf: url, encoding: .utf8)
        #expect(reference == text, "docs/commands.md is not every command's --help: regenerate it (see above)")
    }
}
