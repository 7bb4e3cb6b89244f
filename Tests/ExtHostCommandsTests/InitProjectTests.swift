import ExtHostTestSupport
import Foundation
import HostSystem
import Testing

@testable import ExtHostCommands

/// `exthost init` as a new user meets it: a package written into an empty folder outside this
/// repository, depending on this checkout by path, whose README commands — `swift build`,
/// `exthost install`, `exthost share`, `exthost app run`, `exthost open`, `swift test` — all pass, each run by a
/// real shell with the built `exthost` on `PATH` and a device of its own.
@Suite(.serialized) struct InitProjectTests {
    @Test func theTemplateBuiltIntoTheBinaryIsTheOneInScripts() throws {
        let folder = TestSupport.packageRoot.appendingPathComponent("Scripts/templates/init")
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
        #expect(InitTemplate.files.map(\.path) == onDisk, "run Scripts/generate-init-template")
        for file in InitTemplate.files {
            #expect(
                try Data(contentsOf: folder.appendingPathComponent(file.path)) == file.bytes,
                "\(file.path) differs: run Scripts/generate-init-template")
        }
    }

    /// The guide's "your own extension" section shows the files `exthost init` writes, as they are.
    @Test func theReadmeShowsTheTemplateFilesVerbatim() throws {
        let readme = try String(
            contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
        let shown = [
            "Package.swift", "Sources/MyShare/ShareHandler.swift", "Sources/MyShare/main.swift",
            "Sources/MyApp/AppDelegate.swift", "Sources/MyApp/SceneDelegate.swift",
            "Tests/MyShareTests/MyShareTests.swift",
        ]
        for path in shown {
            let file = try #require(InitTemplate.files.first { $0.path == path })
            var text = String(decoding: file.bytes, as: UTF8.self)
            text = text.replacingOccurrences(of: InitTemplate.pathPlaceholder, with: "../exthost")
            #expect(
                readme.contains("```swift\n" + text + "```"),
                "docs/guide.md does not show \(path) as exthost init writes it")
        }
    }

    @Test func initRefusesAFolderThatHoldsFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("init-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("keep.txt"))
        let (code, _, error) = await TestSupport.run(["init", folder.path])
        #expect(code == .usage)
        #expect(error.contains("is not empty"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.txt"])
    }

    @Test(.timeLimit(.minutes(15))) func theGeneratedPackagePassesItsOwnReadmeCommands() async throws {
        guard let products = SiblingExecutable.directory else { throw Skip("no /proc/self/exe") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("init-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let project = work.appendingPathComponent("MyProject")
        let environment = [
            "PATH": products + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": ProcessInfo.processInfo.environment["HOME"] ?? work.path,
            "XDG_DATA_HOME": work.appendingPathComponent("data").path,
        ]
        let (initCode, initOutput) = try await shell("exthost init \(project.path)", in: work, environment)
        #expect(initCode == 0, "\(initOutput)")

        let readme = try String(contentsOf: project.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.shellCommands(in: readme)
        #expect(commands.first == "swift build")
        #expect(commands.contains("swift test"))
        #expect(commands.contains("exthost share items/"))
        for command in commands {
            let (code, output) = try await shell(command, in: project, environment)
            #expect(code == 0, "\(command) failed:\n\(output.suffix(6000))")
            guard code == 0 else { return }
            if command.hasPrefix("exthost share") {
                #expect(output.contains("com.example.MyApp.MyShare: completed"), "\(output)")
                #expect(output.contains("Landlock ABI") || SandboxPolicy.kernelLandlockABI == 0, "\(output)")
            }
            if command.hasPrefix("exthost app run") {
                #expect(output.contains("MyApp: 2 shared item(s)"), "\(output)")
            }
            if command.hasPrefix("exthost open") {
                #expect(output.contains("through scene(_:willConnectTo:options:)"), "\(output)")
                #expect(output.contains("MyApp opened hello.mynote at launch: A note for MyApp."), "\(output)")
            }
        }
    }

    /// The commands of the README's first `sh` block, without comments.
    static func shellCommands(in readme: String) -> [String] {
        guard let start = readme.range(of: "```sh\n"),
            let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else { return [] }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            String(line.split(separator: "#", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// Runs `command` with `bash -c` in `directory`: exit status and combined output.
    func shell(_ command: String, in directory: URL, _ environment: [String: String]) async throws -> (Int32, String) {
        let pipe = try FileDescriptor.pipe()
        var spawn = Spawn(executable: "/bin/bash", arguments: ["-c", command])
        spawn.environment = environment.map { "\($0.key)=\($0.value)" }
        spawn.workingDirectory = directory.path
        spawn.descriptors = [1: pipe.writeEnd, 2: pipe.writeEnd]
        let capture = OutputCapture(reading: pipe.readEnd, keepingAtMost: 1 << 20)
        let child = try ChildProcess(spawning: spawn)
        try? pipe.writeEnd.close()
        let status = await child.exitStatus()
        let output = (try? await capture.output().text) ?? ""
        return (status.shellStatus, output)
    }
}

/// A test that cannot run here.
struct Skip: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
