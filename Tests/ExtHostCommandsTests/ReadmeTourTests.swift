import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// Every command the README's five-minute tour shows runs, on a copy of the demo device, and
/// succeeds (the README's other commands are `exthost init`'s, run by `InitProjectTests`).
@Suite
struct ReadmeTourTests {
    /// The `$exthost …` lines of the `sh` block under "## A five-minute tour", without comments,
    /// with `$demo` replaced by `demo`.
    static func tourCommands(in readme: String, demo: String) -> [[String]] {
        guard let section = readme.range(of: "## A five-minute tour"),
            let start = readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex),
            let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else { return [] }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let command = String(line.split(separator: "#", maxSplits: 1).first ?? "")
                .trimmingCharacters(in: .whitespaces)
            guard command.hasPrefix("$exthost ") else { return nil }
            return command.dropFirst("$exthost ".count).split(separator: " ").map {
                $0.replacingOccurrences(of: "$demo", with: demo)
            }
        }
    }

    @Test func everyTourCommandRunsOnTheDemoDevice() async throws {
        let readme = try String(
            contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let root = try TestSupport.scratchRoot("readme-tour")
        defer { try? FileManager.default.removeItem(at: root) }
        let commands = Self.tourCommands(in: readme, demo: root.appendingPathComponent("Bundles").path)
        #expect(commands.count >= 5, "the tour shows \(commands.count) commands")
        for command in commands {
            // The device is the scratch copy for every command that touches one (takes --root).
            let spec = ExtHostCommands.listed.filter { command.starts(with: $0.path) }.max {
                $0.path.count < $1.path.count
            }
            let touchesDevice = spec?.options.contains { $0.name == "root" } ?? false
            let (code, output, error) = await TestSupport.run(command, root: touchesDevice ? root : nil)
            #expect(code == .success, "exthost \(command.joined(separator: " ")): exit \(code.rawValue)\n\(error)")
            #expect(!output.isEmpty, "exthost \(command.joined(separator: " ")) printed nothing")
        }
    }
}
