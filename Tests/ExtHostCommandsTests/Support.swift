import Foundation

@testable import ExtHostCommands

/// What the command tests share: the package root, the demo group, scratch device roots and an
/// in-process run of the command line.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let group = "group.com.example.carddrop"

    /// A new scratch directory holding a copy of the demo bundles (and the demo items) in `Bundles/`.
    static func scratchRoot(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Containers/Bundles"), to: url.appendingPathComponent("Bundles"))
        return url
    }

    /// Runs `exthost ARGUMENTS [--root ROOT]` in process: exit code, standard output, standard error.
    static func run(_ arguments: [String], root: URL? = nil) async -> (ExitCode, String, String) {
        let context = CommandContext.collecting()
        let code = await ExtHostCommands.main(
            arguments: arguments + (root.map { ["--root", $0.path] } ?? []), context: context)
        return (code, context.collectedOutput, context.collectedError)
    }
}
