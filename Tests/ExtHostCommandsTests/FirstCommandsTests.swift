import ExtHostTestSupport
import Foundation
import HostSystem
import Testing

@testable import ExtHostCommands

/// The commands a newcomer types first: every top-level command's `--help` shows an example, and
/// each example works as shown when typed into a shell in an empty folder, with a fresh default
/// device (its own `XDG_DATA_HOME`) and the exthost built beside the tests first on `PATH`.
@Suite
struct FirstCommandsTests {
    /// One example line of a help text: the shell line, and the exit status its `# exit N` comment
    /// promises (0 without one).
    struct Example: Equatable {
        var line: String
        var status: Int32
    }

    /// The lines under "Example…:" in a help text, up to the next blank line.
    static func examples(in help: String) -> [Example] {
        var result: [Example] = []
        var inSection = false
        for raw in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Example") && line.hasSuffix(":") {
                inSection = true
                continue
            }
            guard inSection else { continue }
            if line.isEmpty { break }
            var status: Int32 = 0
            var command = line
            if let comment = line.range(of: "# exit ") {
                command = line[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
                status = Int32(line[comment.upperBound...].prefix { $0.isNumber }) ?? -1
            }
            result.append(Example(line: command, status: status))
        }
        return result
    }

    /// The top-level words `exthost --help` lists, and each one's `--help` (a command's, or a
    /// group's overview).
    static func topLevelHelp() async -> [(word: String, help: String)] {
        var words: [String] = []
        for spec in ExtHostCommands.listed where !words.contains(spec.path[0]) { words.append(spec.path[0]) }
        var result: [(String, String)] = []
        for word in words {
            let context = CommandContext.collecting()
            _ = await ExtHostCommands.main(arguments: [word, "--help"], context: context)
            result.append((word, context.collectedOutput))
        }
        return result
    }

    @Test func theExampleSectionIsParsed() {
        let help = """
            Usage: exthost thing

            Examples (in an empty folder):
              exthost thing one
              exthost thing two  # exit 3: the answer is no

            Exit codes:
            """
        #expect(
            Self.examples(in: help) == [
                Example(line: "exthost thing one", status: 0), Example(line: "exthost thing two", status: 3),
            ])
        #expect(Self.examples(in: "Usage: exthost thing\n").isEmpty)
    }

    @Test func everyTopLevelCommandShowsAnExample() async {
        for (word, help) in await Self.topLevelHelp() {
            #expect(!Self.examples(in: help).isEmpty, "exthost \(word) --help shows no example")
        }
    }

    /// Runs every example as a shell line in its own empty folder. An example that builds the new
    /// package first (`swift build`, as `exthost install` needs the products) is left out: building
    /// a package is minutes of CPU, not a test.
    @Test func everyExampleWorksInAnEmptyFolder() async throws {
        let exthost = TestSupport.program("exthost")
        #expect(FileManager.default.isExecutableFile(atPath: exthost.path), "\(exthost.path) is not built")
        var ran = 0
        for (word, help) in await Self.topLevelHelp() {
            for example in Self.examples(in: help) where !example.line.contains("swift build") {
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "exthost-first-\(word)-\(UUID().uuidString.prefix(8))")
                let folder = scratch.appendingPathComponent("empty")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: scratch) }
                var spawn = Spawn(executable: "/bin/sh", arguments: ["-c", example.line])
                spawn.workingDirectory = folder.path
                spawn.environment = [
                    "PATH=\(exthost.deletingLastPathComponent().path):/usr/local/bin:/usr/bin:/bin",
                    "HOME=\(scratch.path)", "XDG_DATA_HOME=\(scratch.appendingPathComponent("data").path)",
                    "TMPDIR=\(FileManager.default.temporaryDirectory.path)",
                ]
                let finished = try await TestSupport.runCollecting(spawn)
                ran += 1
                #expect(
                    finished.status == .exited(example.status),
                    """
                    exthost \(word) --help example: \(example.line)
                    ended \(finished.status), expected exit \(example.status)
                    \(finished.output.suffix(1500))
                    \(finished.errors.suffix(1500))
                    """)
                if example.status == 0 {
                    #expect(!finished.errors.contains("error:"), "\(example.line): \(finished.errors.suffix(1500))")
                }
            }
        }
        #expect(ran >= 15, "only \(ran) examples ran")
    }
}
