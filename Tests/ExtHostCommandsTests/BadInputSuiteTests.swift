import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// The checked-in bad-input suite (Scripts/generate-bad-inputs): every file must be refused with a
/// clean error that names it (and its line and column where the format has lines), exit status 2,
/// and nothing written.
struct BadInputSuiteTests {
    static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("BadInputs")
    static let group = TestSupport.group

    static func files(_ category: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: suite.appendingPathComponent(category), includingPropertiesForKeys: nil
        ).sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private func run(_ arguments: [String]) async -> (ExitCode, String, String) {
        await TestSupport.run(arguments)
    }

    /// A scratch directory with a payload JSON and a copy of the demo bundles.
    private func scratch() throws -> URL {
        let url = try TestSupport.scratchRoot("bad-inputs")
        try Data(#"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.png"]}]}]}"#.utf8)
            .write(to: url.appendingPathComponent("payload.json"))
        return url
    }

    /// Every path under `root` with its size (what "nothing written" compares).
    private func snapshot(_ root: URL) -> [String: Int] {
        var result: [String: Int] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey])
        while let url = walker?.nextObject() as? URL {
            result[url.path] = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? -1
        }
        return result
    }

    @Test func suiteHasAtLeastFiveHundredFiles() throws {
        let total = try ["predicates", "rules", "archives", "frames", "manifests"].reduce(0) {
            $0 + (try Self.files($1).count)
        }
        #expect(total >= 500)
    }

    @Test func brokenPredicatesAreLocatedInsideThePlist() async throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let payload = scratch.appendingPathComponent("payload.json").path
        let files = try Self.files("predicates")
        #expect(files.count >= 200)
        for file in files {
            let (code, _, error) = await run(["rule", "check", file.path, "--payload-json", payload])
            #expect(code == .usage, "\(file.lastPathComponent): exit \(code.rawValue)")
            let located = error.range(of: "\(file.path):[0-9]+:[0-9]+: error: ", options: .regularExpression) != nil
            #expect(located, "\(file.lastPathComponent): \(error.prefix(300))")
        }
    }

    @Test func brokenRulePlistsAreRefused() async throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let payload = scratch.appendingPathComponent("payload.json").path
        let files = try Self.files("rules")
        #expect(files.count >= 90)
        for file in files {
            let (code, _, error) = await run(["rule", "check", file.path, "--payload-json", payload])
            #expect(code == .usage, "\(file.lastPathComponent): exit \(code.rawValue)")
            #expect(error.contains(file.path), "\(file.lastPathComponent): \(error.prefix(300))")
        }
    }

    @Test func hostileAndCorruptArchivesImportNothing() async throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex").path
        let note = root.appendingPathComponent("Bundles/DemoItems/note.txt").path
        let (written, _, _) = await run(
            ["container", "write", Self.group, note, "--as-bundle", bundle, "--root", root.path])
        #expect(written == .success)
        let before = snapshot(root.appendingPathComponent("Shared"))
        let files = try Self.files("archives")
        #expect(files.count >= 100)
        for file in files {
            let (code, _, error) = await run(["container", "import", Self.group, file.path, "--root", root.path])
            #expect(code == .usage, "\(file.lastPathComponent): exit \(code.rawValue): \(error.prefix(300))")
            #expect(error.contains(file.path) && error.contains("nothing was imported"), "\(error.prefix(300))")
        }
        #expect(snapshot(root.appendingPathComponent("Shared")) == before)
        let (verified, out, _) = await run(["container", "verify", Self.group, "--root", root.path])
        #expect(verified == .success, "\(out)")
    }

    @Test func brokenManifestsAreLocatedInShareJSON() async throws {
        let files = try Self.files("manifests")
        #expect(files.count >= 50)
        for file in files {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let manifest = folder.appendingPathComponent("share.json")
            try FileManager.default.copyItem(at: file, to: manifest)
            let (code, out, error) = await run(["payload", "show", folder.path])
            #expect(code == .usage, "\(file.lastPathComponent): exit \(code.rawValue)")
            #expect(out.isEmpty, "\(file.lastPathComponent) printed a payload: \(out.prefix(200))")
            let located = error.range(of: "\(manifest.path):[0-9]+:[0-9]+: ", options: .regularExpression) != nil
            #expect(located, "\(file.lastPathComponent): \(error.prefix(300))")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left == ["share.json"], "\(file.lastPathComponent) wrote \(left)")
        }
    }

    @Test func malformedFramesStopAtTheirByteOffset() async throws {
        let files = try Self.files("frames")
        #expect(files.count >= 80)
        for file in files {
            let (code, _, error) = await run(["ipc", "decode", file.path])
            #expect(code == .usage, "\(file.lastPathComponent): exit \(code.rawValue)")
            let located =
                error.range(of: "\(file.path): (byte [0-9]+ \\(frame [0-9]+\\)|empty)", options: .regularExpression)
                != nil
            #expect(located, "\(file.lastPathComponent): \(error.prefix(300))")
        }
    }
}
