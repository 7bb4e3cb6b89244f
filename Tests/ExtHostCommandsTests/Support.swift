import ExtHostTestSupport
import Foundation

@testable import ExtHostCommands

extension TestSupport {
    /// Runs `exthost ARGUMENTS [--root ROOT]` in process: exit code, standard output, standard error.
    static func run(_ arguments: [String], root: URL? = nil) async -> (ExitCode, String, String) {
        let context = CommandContext.collecting()
        let code = await ExtHostCommands.main(
            arguments: arguments + (root.map { ["--root", $0.path] } ?? []), context: context)
        return (code, context.collectedOutput, context.collectedError)
    }
}
