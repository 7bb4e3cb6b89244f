import ExtHostTestSupport
import Foundation
import HostSystem
import Testing
import XcodeProjects

/// `exthost import` as a user runs it, through the built binary and a real shell: the three fixture
/// projects (Xcode 15, Xcode 16 with synchronized folders, an Expo-style `ios/` folder) imported,
/// built and installed, then `exthost share` into each extension. They share one `--build-path`,
/// so exthost's modules are built once (the first import takes minutes; Scripts/test runs this
/// suite on its own, as it does InitProjectTests).
@Suite(.serialized) struct ImportProjectTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("XcodeProjectsTests/Fixtures")

    @Test(.timeLimit(.minutes(30))) func theFixtureProjectsImportBuildInstallAndShare() async throws {
        guard let products = SiblingExecutable.directory else { throw Skip("no /proc/self/exe") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("import-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["Xcode15", "Xcode16", "CrossPlatform", "LocalPackage"] {
            try FileManager.default.copyItem(
                at: Self.fixtures.appendingPathComponent(name), to: work.appendingPathComponent(name))
        }
        let items = work.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data([0, 1, 2, 3]).write(to: items.appendingPathComponent("one.bin"))
        try Data([4, 5]).write(to: items.appendingPathComponent("two.bin"))
        let environment = [
            "PATH": products + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": ProcessInfo.processInfo.environment["HOME"] ?? work.path,
            "XDG_DATA_HOME": work.appendingPathComponent("data").path,
        ]
        let build = "--build-path \(work.appendingPathComponent("build").path)"
        func run(_ command: String) async throws -> (Int32, String) {
            try await InitProjectTests.shell(command, in: work, environment)
        }
        /// The share command the import printed for `target`, sharing `items`.
        func shareCommand(_ output: String, _ target: String) throws -> String {
            let line = try #require(
                output.split(separator: "\n").first { $0.hasPrefix("share into \(target): ") }, "\(output)")
            return line.dropFirst("share into \(target): ".count).replacingOccurrences(of: "ITEMS", with: items.path)
        }

        // Xcode 15: build phases and groups, adapted lines, the app reads what the extension saved.
        var (code, output) = try await run("exthost import Xcode15 --root dev15 \(build)")
        #expect(code == 0, "\(output.suffix(6000))")
        guard code == 0 else { return }
        #expect(output.contains("adapted 5 line(s) in generated copies"), "\(output)")
        #expect(output.contains("ShareViewController.swift:12: if responds(to: #selector(save(_:))) {"), "\(output)")
        #expect(
            FileManager.default.fileExists(
                atPath: work.appendingPathComponent("Xcode15/.exthost/adaptations.json").path))
        (code, output) = try await run(try shareCommand(output, "NotesShare"))
        #expect(code == 0 && output.contains("NOTES-SHARE saved one.bin,two.bin"), "\(output)")
        #expect(output.contains("principal: NotesShare.ShareViewController"), "\(output)")
        (code, output) = try await run("exthost app run com.example.notes --root dev15")
        #expect(code == 0 && output.contains("NOTES launched notes=one.bin,two.bin"), "\(output)")
        (code, output) = try await run("exthost import Xcode15 --root dev15 \(build)")
        #expect(code == 0 && output.contains("unchanged since the last import"), "\(output)")

        // Xcode 16: synchronized folders with a membership exception.
        (code, output) = try await run("exthost import Xcode16/Clips.xcodeproj --root dev16 \(build)")
        #expect(code == 0, "\(output.suffix(6000))")
        guard code == 0 else { return }
        #expect(output.contains("adapted nothing"), "\(output)")
        (code, output) = try await run(try shareCommand(output, "ClipsShare"))
        #expect(code == 0 && output.contains("CLIPS-SHARE kept one.bin,two.bin"), "\(output)")
        // The CI form: import first (nothing changed: nothing built), then share into its extension.
        (code, output) = try await run("exthost share --import Xcode16 --root dev16 \(items.path)")
        #expect(code == 0 && output.contains("Clips.xcodeproj: unchanged"), "\(output)")
        #expect(
            output.contains("org.example.clips.share: completed")
                && output.contains("CLIPS-SHARE kept one.bin,two.bin"),
            "\(output)")

        // A local Swift package (pure Swift), built as the extension's path dependency; --ci writes the
        // GitHub Actions job at the root of the repository, whose import step then runs here as the job
        // runs it (the device from $EXTHOST_ROOT; nothing changed, so nothing is built).
        (code, output) = try await run("git init --quiet . && exthost import LocalPackage --ci --root devpkg \(build)")
        #expect(code == 0, "\(output.suffix(6000))")
        guard code == 0 else { return }
        let workflow = work.appendingPathComponent(".github/workflows/exthost.yml")
        #expect(output.contains("wrote \(workflow.path): GitHub Actions builds exthost"), "\(output)")
        (code, output) = try await run(try shareCommand(output, "StampsShare"))
        #expect(code == 0 && output.contains("STAMPS-SHARE kept stamped-one.bin,stamped-two.bin"), "\(output)")
        let steps = try await InitProjectTests.workflowRunSteps(workflow)
        #expect(steps.first == CIWorkflow.setupCommands)
        #expect(steps.dropFirst().map { $0.joined(separator: "\n") } == ["exthost import LocalPackage"])
        for step in steps.dropFirst() {
            var jobEnvironment = environment
            jobEnvironment["EXTHOST_ROOT"] = work.appendingPathComponent("devpkg").path
            (code, output) = try await InitProjectTests.shell(step.joined(separator: "\n"), in: work, jobEnvironment)
            #expect(code == 0 && output.contains("unchanged since the last import"), "\(output)")
        }
        // A local package whose own file does not compile: exit 2 naming the package and the line.
        // The projects imported next with this --build-path build (SwiftPM would reuse this failed
        // build's plan for them: ProjectImport has it plan afresh).
        let stamp = work.appendingPathComponent("LocalPackage/Packages/StampKit/Sources/StampKit/Stamp.swift")
        try String(contentsOf: stamp, encoding: .utf8).replacingOccurrences(of: "title = \"?\"", with: "title = 42")
            .write(to: stamp, atomically: true, encoding: .utf8)
        (code, output) = try await run("exthost import LocalPackage --root devpkg \(build)")
        #expect(code == 2, "\(output.suffix(6000))")
        #expect(
            output.contains(
                "the local package StampKit (\(stamp.path.dropLast("/Sources/StampKit/Stamp.swift".count))) "
                    + "does not build on Linux") && output.contains("\(stamp.path):13:"), "\(output)")

        // The cross-platform layout: the app (Expo) stays behind, the built-in app stands in; the
        // template's openURL: through the responder chain opens it before iOS 18 and not from 18 on.
        for (device, ios, opens) in [("old", "17.5", true), ("new", "18.2", false)] {
            (code, output) = try await run("exthost device create \(device) --ios \(ios)")
            #expect(code == 0, "\(output)")
            (code, output) = try await run("exthost import CrossPlatform --device \(device) \(build)")
            #expect(code == 0, "\(output.suffix(6000))")
            guard code == 0 else { return }
            #expect(output.contains("built-in app stands in"), "\(output)")
            #expect(output.contains("AppDelegate.swift:1:8: 'ShareDemo' imports Expo"), "\(output)")
            (code, output) = try await run(try shareCommand(output, "ShareExtension") + " --json 2>/dev/null")
            #expect(code == 0, "\(output)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
            #expect((report["log"] as? String)?.contains("SHARE-DEMO saved one.bin,two.bin") == true, "\(output)")
            let handOff = try #require((report["handOff"] as? [[String: Any]])?.first, "\(output)")
            #expect(handOff["requested"] as? String == "openURL:")
            #expect(handOff["opened"] as? Bool == opens && handOff["received"] as? Bool == opens, "\(handOff)")
        }
    }
}
