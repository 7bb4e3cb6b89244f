import ExtHostTestSupport
import Foundation
import HostSystem
import Testing
import XcodeProjects

@testable import ExtHostCommands

/// `exthost init` as a new user meets it: a package written into an empty folder outside this
/// repository, depending on this checkout by path, whose README commands — `swift build`,
/// `exthost install`, `exthost share`, `exthost app run`, `exthost open`, `swift test` — all pass, each run by a
/// real shell with the built `exthost` on `PATH` and a device of its own.
@Suite(.serialized) struct InitProjectTests {
    @Test(arguments: [nil] + InitTemplate.templateNames)
    func theTemplateBuiltIntoTheBinaryIsTheOneInScripts(_ template: String?) throws {
        let folder = TestSupport.packageRoot.appendingPathComponent(
            "Scripts/templates/init" + (template.map { "-\($0)" } ?? ""))
        let files = try #require(template.map { InitTemplate.files(template: $0) } ?? InitTemplate.files)
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
        #expect(files.map(\.path) == onDisk, "run Scripts/generate-init-template")
        for file in files {
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

    /// The guide's CI section shows the default template's job as `exthost init` writes it (for an
    /// example repository and tag; without the two comment lines naming what wrote it).
    @Test func theGuideShowsTheWorkflowAsInitWritesIt() throws {
        let guide = try String(
            contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
        let readme = try #require(InitTemplate.files.first { $0.path == "README.md" })
        let workflow = CIWorkflow(
            source: .init(repository: "https://example.com/exthost.git", ref: "v1.0"), writtenBy: "exthost init",
            commands: CIWorkflow.commands(inReadme: String(decoding: readme.bytes, as: UTF8.self)))
        let shown = workflow.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
            .joined(separator: "\n")
        #expect(
            guide.contains("```yaml\n" + shown + "```"), "docs/guide.md does not show the job as exthost init writes it"
        )
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

    @Test func anUnknownTemplateIsBadUsageAndWritesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("init-none-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (code, _, error) = await TestSupport.run(["init", folder.path, "--template", "storyboard"])
        #expect(code == .usage)
        #expect(
            error.contains("unknown template 'storyboard'; --template takes compose, handler, view-controller"),
            "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// The CI job's first step as a runner runs it (`bash -e`), with a `swift` that only records how it
    /// was called: exthost is fetched at the ref `exthost init` writes (this checkout's commit, from
    /// the checkout itself standing in for its repository), bootstrapped, built and put on `PATH`.
    @Test func theWorkflowsSetUpStepGetsExthostAtItsRefAndPutsItOnPath() async throws {
        let exthost = try #require(InitTemplate.builtFromPackage)
        guard FileManager.default.fileExists(atPath: exthost.appendingPathComponent(".git").path) else {
            throw Skip("\(exthost.path) is not a git checkout")
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let source = await CIWorkflow.source(
            of: exthost, searchPath: path.split(separator: ":").map(String.init))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("ci-setup-\(UUID().uuidString)")
        let bin = work.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("#!/bin/sh\necho \"$@\" >> \"$SWIFT_CALLS\"\n".utf8).write(to: bin.appendingPathComponent("swift"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("swift").path)
        let clone = work.appendingPathComponent("exthost")
        var environment = [
            "PATH": bin.path + ":" + path, "HOME": ProcessInfo.processInfo.environment["HOME"] ?? work.path,
            "EXTHOST_REPOSITORY": exthost.path, "EXTHOST_REF": source.ref, "EXTHOST_PATH": clone.path,
            "GITHUB_PATH": work.appendingPathComponent("github-path").path,
            "SWIFT_CALLS": work.appendingPathComponent("swift-calls").path,
        ]
        let step = "set -e\n" + CIWorkflow.setupCommands.joined(separator: "\n")
        var (code, output) = try await Self.shell(step, in: work, environment)
        #expect(code == 0, "\(output)")
        let (_, head) = try await Self.shell("git -C \(clone.path) rev-parse HEAD", in: work, environment)
        let (_, expected) = try await Self.shell(
            "git -C \(exthost.path) rev-parse \(source.ref)^{commit}", in: work, environment)
        #expect(head == expected && head.count == 41, "\(head) ≠ \(expected)")
        #expect(FileManager.default.fileExists(atPath: clone.appendingPathComponent("Scripts/bootstrap").path))
        #expect(
            try String(contentsOf: work.appendingPathComponent("swift-calls"), encoding: .utf8)
                == "build --package-path \(clone.path)\n")
        #expect(
            try String(contentsOf: work.appendingPathComponent("github-path"), encoding: .utf8)
                == clone.path + "/.build/debug\n")

        // Without a repository the job stops at once and says what to set.
        environment["EXTHOST_REPOSITORY"] = ""
        environment["EXTHOST_PATH"] = work.appendingPathComponent("never").path
        (code, output) = try await Self.shell(step, in: work, environment)
        #expect(code == 1 && output.contains("::error::set EXTHOST_REPOSITORY in .github/workflows/exthost.yml"))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("never").path))
    }

    /// What each command of a template's README must print (beyond exiting 0), by the command's start.
    static let expectedOutput: [String?: [String: [String]]] = [
        nil: [
            "exthost share": ["com.example.MyApp.MyShare: completed"],
            "exthost app run": ["MyApp: 2 shared item(s)"],
            "exthost open": [
                "through scene(_:willConnectTo:options:)", "MyApp opened hello.mynote at launch: A note for MyApp.",
            ],
        ],
        "handler": [
            "exthost share": [
                "com.example.MyApp.MyShare: completed", "MyShare.ShareRequestHandler",
            ],
            "exthost app run": ["MyApp: 2 shared item(s)", "last share: note.txt, photo.png"],
        ],
        "compose": [
            "exthost share --payload safari-webpage --ui": [
                "com.example.MyApp.MyShare: completed", "tap Post — performed",
            ],
            "exthost share --payload safari-webpage": [
                "com.example.MyApp.MyShare: completed",
                "MyShare.ShareViewController (view-controller, from NSExtensionMainStoryboard "
                    + "Base.lproj/MainInterface.storyboard, made with init(coder:))",
                "textView \"ProCamera + HDR - the next dimension in iOS mobile\"", "step tap Post — performed",
            ],
            "exthost app run": ["MyApp: last post: ProCamera + HDR - the next dimension in iOS mobile"],
        ],
        "view-controller": [
            "exthost share": [
                "com.example.MyApp.MyShare: completed", "MyShare.ShareViewController",
                "MyApp opened myapp://shared?count=2 at launch; shared: note.txt, photo.png",
            ]
        ],
    ]

    /// Every template's package is written at this one path, one template at a time, and keeps the
    /// previous one's `.build`: exthost's own modules (the packages' dependency, the same checkout)
    /// are compiled once, not once per template (a build folder is tied to its package's path).
    static let sharedProject = FileManager.default.temporaryDirectory.appendingPathComponent(
        "exthost-init-\(ProcessInfo.processInfo.processIdentifier)/MyProject")

    @Test(.serialized, .timeLimit(.minutes(15)), arguments: [nil] + InitTemplate.templateNames)
    func theGeneratedPackagePassesItsOwnReadmeCommands(_ template: String?) async throws {
        guard let products = SiblingExecutable.directory else { throw Skip("no /proc/self/exe") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("init-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let project = Self.sharedProject
        let keptBuild = project.deletingLastPathComponent().appendingPathComponent("kept-build")
        try? FileManager.default.removeItem(at: keptBuild)
        try FileManager.default.createDirectory(
            at: project.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.moveItem(at: project.appendingPathComponent(".build"), to: keptBuild)
        try? FileManager.default.removeItem(at: project)
        let exthost = try #require(InitTemplate.builtFromPackage)
        let environment = [
            "PATH": products + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": ProcessInfo.processInfo.environment["HOME"] ?? work.path,
            "XDG_DATA_HOME": work.appendingPathComponent("data").path,
            "EXTHOST_PATH": exthost.path,
        ]
        // Package.swift names exthost by a link that is gone before the commands run: the package
        // finds exthost through $EXTHOST_PATH only, as in the CI job.
        let link = work.appendingPathComponent("exthost-elsewhere")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: exthost)
        let option = template.map { " --template \($0)" } ?? ""
        let (initCode, initOutput) = try await Self.shell(
            "exthost init \(project.path)\(option) --exthost \(link.path)", in: work, environment)
        #expect(initCode == 0, "\(initOutput)")
        #expect(initOutput.contains(CIWorkflow.relativePath), "\(initOutput)")
        try FileManager.default.removeItem(at: link)
        #expect(
            try String(contentsOf: project.appendingPathComponent("Package.swift"), encoding: .utf8).contains(
                "Context.environment[\"EXTHOST_PATH\"] ?? \"\(link.path)\""))

        // Only exthost's modules are kept: the previous template's own products (an executable
        // `MyShare` beside this one's `libMyShare.so`) would be installed instead of this one's.
        let built = keptBuild.appendingPathComponent("debug").resolvingSymlinksInPath()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: built.path)) ?? []
        where ["MyShare", "libMyShare", "MyApp", "libMyApp"].contains(where: { name.hasPrefix($0) }) {
            try? FileManager.default.removeItem(at: built.appendingPathComponent(name))
        }
        try? FileManager.default.moveItem(at: keptBuild, to: project.appendingPathComponent(".build"))
        let readme = try String(contentsOf: project.appendingPathComponent("README.md"), encoding: .utf8)
        // The CI job: exthost's set-up step (run by theWorkflowsSetUpStepGetsExthostAtItsRefAndPutsItOnPath),
        // then one step per README command — which run here, as the job runs them.
        let steps = try await Self.workflowRunSteps(project.appendingPathComponent(CIWorkflow.relativePath))
        #expect(steps.first == CIWorkflow.setupCommands)
        let commands = steps.dropFirst().map { $0.joined(separator: "\n") }
        #expect(commands == CIWorkflow.commands(inReadme: readme))
        #expect(commands.first == "swift build")
        #expect(commands.contains("swift test") || template != nil)
        #expect(commands.contains { $0.hasPrefix("exthost share") })
        let expected = try #require(Self.expectedOutput[template])
        for command in commands {
            let (code, output) = try await Self.shell(command, in: project, environment)
            #expect(code == 0, "\(command) failed:\n\(output.suffix(6000))")
            guard code == 0 else { return }
            if command.hasPrefix("exthost share") {
                #expect(output.contains("Landlock ABI") || SandboxPolicy.kernelLandlockABI == 0, "\(output)")
            }
            // The expectations of the longest prefix the command starts with.
            let prefix = expected.keys.filter { command.hasPrefix($0) }.max { $0.count < $1.count }
            for text in prefix.flatMap({ expected[$0] }) ?? [] {
                #expect(output.contains(text), "\(command): \(output)")
            }
        }
    }

    /// The workflow at `url` read by a YAML parser (PyYAML, which Scripts/bootstrap installs): the
    /// commands of its `run:` steps, in order, each step's lines.
    static func workflowRunSteps(_ url: URL) async throws -> [[String]] {
        let script = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))"
        let (code, output) = try await shell(
            "python3 -c '\(script)' '\(url.path)'", in: url.deletingLastPathComponent(),
            ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        try #require(code == 0, "\(url.path) is not YAML:\n\(output)")
        let workflow = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        let jobs = try #require(workflow["jobs"] as? [String: Any], "no jobs: \(output)")
        let job = try #require(jobs["exthost"] as? [String: Any], "no job 'exthost': \(output)")
        #expect(job["runs-on"] as? String == "ubuntu-24.04")
        #expect(job["container"] as? String == CIWorkflow.image)
        let steps = try #require(job["steps"] as? [[String: Any]], "no steps: \(output)")
        #expect(steps.first?["uses"] as? String == "actions/checkout@v4")
        return steps.compactMap { $0["run"] as? String }.map { run in
            run.split(separator: "\n").map(String.init)
        }
    }

    /// Runs `command` with `bash -c` in `directory`: exit status and combined output.
    static func shell(_ command: String, in directory: URL, _ environment: [String: String]) async throws -> (
        Int32, String
    ) {
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
