import ExtHostTestSupport
import ExtensionHost
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost stress` through the command table, with a real extension process and real reader
/// processes (the exthost built next to the test bundle).
struct StressCommandTests {

    private func run(_ arguments: [String]) async -> (ExitCode, String, String) {
        await TestSupport.run(arguments)
    }

    @Test func aShortStressCommitsEverythingExactlyOnce() async throws {
        let root = TestSupport.packageRoot.appendingPathComponent("Containers").path
        let (code, out, error) = await run([
            "stress", "--attachments", "80", "--readers", "2", "--seed", "20261203", "--failure-rate", "0.1",
            "--cancel-rate", "0.1", "--max-size", "300000", "--root", root, "--json",
        ])
        #expect(code == .success, "\(out)\n\(error)")
        let summary = try JSONDecoder().decode(ShareStress.Summary.self, from: Data(out.utf8))
        #expect(summary.seed == "20261203")
        #expect(summary.problems.isEmpty, "\(summary)")
        #expect(summary.committed + summary.injected == 80)
        #expect(summary.injected > 0)
    }

    @Test func badNumbersAreUsageErrors() async {
        let (code, _, error) = await run(["stress", "--attachments", "0"])
        #expect(code == .usage && error.contains("attachments ≥ 1"), "\(error)")
        let (rates, _, _) = await run(["stress", "--failure-rate", "0.7", "--cancel-rate", "0.7"])
        #expect(rates == .usage)
    }

    @Test func aRootThatDoesNotExistIsNamedAsTheUserGaveIt() async {
        let missing = "no-such-root-\(UUID().uuidString.prefix(8))"
        let (code, _, error) = await run(["stress", "--root", missing, "--attachments", "1"])
        #expect(code == .usage, "\(error)")
        #expect(error.contains("--root \(missing): no such device root"), "\(error)")
        #expect(!error.contains("exthost-stress-"), "names a scratch folder: \(error)")
    }

    @Test func aRootWithNothingInstalledStressesTheGenericApp() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stress-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, out, error) = await run([
            "stress", "--root", root.path, "--attachments", "12", "--readers", "1", "--seed", "7", "--json",
        ])
        #expect(code == .success, "\(out)\n\(error)")
        let summary = try JSONDecoder().decode(ShareStress.Summary.self, from: Data(out.utf8))
        #expect(summary.problems.isEmpty, "\(summary)")
        // The user's root is only read: the generic app went into the scratch copy.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: root.path)) == [])
    }
}
