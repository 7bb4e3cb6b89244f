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

    /// A command's `--json` output decoded as the report type it is written from; when it does not
    /// decode, the error carries the output and `note` (such as the command's standard error).
    static func decode<Report: Decodable>(_ type: Report.Type, _ output: String, note: String = "") throws -> Report {
        do {
            return try JSONDecoder().decode(type, from: Data(output.utf8))
        } catch {
            throw UndecodableReport(type: "\(type)", error: "\(error)", output: output + note)
        }
    }

    /// Output that is not the JSON of the report type expected.
    struct UndecodableReport: Error, CustomStringConvertible {
        let type: String
        let error: String
        let output: String
        var description: String { "not a \(type): \(error)\n\(output)" }
    }

    /// Runs `exthost ARGUMENTS [--root ROOT]` in process: exit code, standard output, standard error.
    static func run(_ arguments: [String], root: URL? = nil) async -> (ExitCode, String, String) {
        let context = CommandContext.collecting()
        let code = await ExtHostCommands.main(
            arguments: arguments + (root.map { ["--root", $0.path] } ?? []), context: context)
        return (code, context.collectedOutput, context.collectedError)
    }
}
