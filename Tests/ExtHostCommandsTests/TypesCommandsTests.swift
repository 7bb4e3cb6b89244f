import ExtHostTestSupport
import Foundation
import Testing
import UniformTypes

@testable import ExtHostCommands

/// `exthost types …`, driven in-process and through the built binary (`swift build` first).
struct TypesCommandsTests {
    static let packageRoot = TestSupport.packageRoot
    static let cardDrop = "Containers/Bundles/CardDrop.app"

    /// A directory with declaration files the cases below use, written once per test process.
    static let fixtures: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "types-commands-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let redefining = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>UTExportedTypeDeclarations</key><array>
            <dict><key>UTTypeIdentifier</key><string>public.jpeg</string>
            <key>UTTypeConformsTo</key><string>public.text</string></dict>
            <dict><key>UTTypeIdentifier</key><string>com.example.thing</string>
            <key>UTTypeConformsTo</key><string>public.data</string>
            <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><string>thing</string></dict></dict>
            </array></dict></plist>
            """
        try? Data(redefining.utf8).write(to: directory.appendingPathComponent("Redefining.plist"))
        try? Data("not { a plist".utf8).write(to: directory.appendingPathComponent("Broken.plist"))
        return directory
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let exit: ExitCode
        var stdout: String? = nil
        var stdoutContains: [String] = []
        var stdoutLacks: [String] = []
        var stderrContains: [String] = []
        var testDescription: String { "exthost " + arguments.joined(separator: " ") }

        /// Arguments with `$FIXTURES` replaced.
        var resolvedArguments: [String] {
            arguments.map { $0.replacingOccurrences(of: "$FIXTURES", with: TypesCommandsTests.fixtures.path) }
        }
    }

    static let cases: [Case] = [
        // show
        Case(
            arguments: ["types", "show", "public.heic"], exit: .success,
            stdoutContains: [
                "public.heic\n", "conforms to  public.heif-standard\n",
                "supertypes   public.heif-standard, public.image, public.data, public.item, public.content\n",
                "extensions   heic\n", "MIME types   image/heic\n", "source       system",
            ]),
        Case(
            arguments: ["types", "show", "PUBLIC.URL"], exit: .success,
            stdoutContains: ["public.url\n", "supertypes   public.data, public.item\n"], stdoutLacks: ["public.content"]
        ),
        Case(
            arguments: ["types", "show", "public.jepg"], exit: .usage,
            stderrContains: ["unknown type identifier 'public.jepg'; did you mean 'public.jpeg'?"]),
        Case(
            arguments: ["types", "show", "jpg"], exit: .usage,
            stderrContains: ["did you mean 'public.jpeg' (the type of .jpg files)?"]),
        Case(
            arguments: ["types", "show", "com.example.carddrop.card"], exit: .usage,
            stderrContains: ["unknown type identifier 'com.example.carddrop.card'"]),
        Case(
            arguments: ["types", "show", "com.example.carddrop.card", "--declarations", cardDrop], exit: .success,
            stdoutContains: [
                "conforms to  public.json\n",
                "supertypes   public.json, public.text, public.data, public.item, public.content\n",
                "extensions   card\n", "MIME types   application/vnd.example.card+json\n",
                "description  CardDrop Card\n",
                "source       exported by ", "CardDrop.app/Info.plist",
            ]),
        Case(
            arguments: ["types", "show", "dyn.ah62d4rv4ge81g6pq"], exit: .success,
            stdoutContains: [
                "conforms to  public.data\n", "extensions   sql\n", "source       dynamic\n", "tag spec     ?0=6:1=sql",
            ]),
        Case(
            arguments: ["types", "show", "bad id"], exit: .usage, stderrContains: ["'bad id' is not a type identifier"]),
        Case(
            arguments: ["types", "show", "public.png", "--jsn"], exit: .usage,
            stderrContains: ["did you mean '--json'?"]),
        // conforms
        Case(
            arguments: ["types", "conforms", "public.zip-archive", "public.archive"], exit: .success,
            stdout:
                "yes: public.zip-archive conforms to public.archive (public.zip-archive → com.pkware.zip-archive → public.archive)\n"
        ),
        Case(arguments: ["types", "conforms", "public.url", "public.data"], exit: .success),
        Case(
            arguments: ["types", "conforms", "public.url", "public.content"], exit: .no,
            stdout: "no: public.url does not conform to public.content\n"),
        Case(arguments: ["types", "conforms", "public.heic", "public.jpeg"], exit: .no),
        Case(arguments: ["types", "conforms", "public.heic", "PUBLIC.IMAGE"], exit: .success),
        Case(arguments: ["types", "conforms", "dyn.ah62d4rv4ge81g6pq", "public.content"], exit: .no),
        Case(
            arguments: ["types", "conforms", "com.example.carddrop.card", "public.text", "--declarations", cardDrop],
            exit: .success),
        Case(
            arguments: ["types", "conforms", "public.png", "public.imgae"], exit: .usage,
            stderrContains: ["did you mean 'public.image'?"]),
        Case(
            arguments: ["types", "conforms", "public.png"], exit: .usage,
            stderrContains: ["usage: exthost types conforms A B"]),
        // for-extension / for-mime
        Case(arguments: ["types", "for-extension", "jpg"], exit: .success, stdout: "public.jpeg\n"),
        Case(arguments: ["types", "for-extension", ".JPG"], exit: .success, stdout: "public.jpeg\n"),
        Case(arguments: ["types", "for-extension", "sql"], exit: .success, stdout: "dyn.ah62d4rv4ge81g6pq\n"),
        Case(arguments: ["types", "for-extension", "rtfd"], exit: .success, stdoutContains: ["dyn.a"]),
        Case(
            arguments: ["types", "for-extension", "rtfd", "--conforming-to", "com.apple.package"], exit: .success,
            stdout: "com.apple.rtfd\n"),
        Case(
            arguments: ["types", "for-extension", "mp4", "--all"], exit: .success,
            stdout: "public.mpeg-4\npublic.mpeg-4-audio\n"),
        Case(
            arguments: ["types", "for-extension", "mp4", "--conforming-to", "public.audio"], exit: .success,
            stdout: "public.mpeg-4-audio\n"),
        Case(
            arguments: ["types", "for-extension", "card", "--declarations", cardDrop], exit: .success,
            stdout: "com.example.carddrop.card\n"),
        Case(
            arguments: ["types", "for-extension", "x", "--conforming-to", "public.imgae"], exit: .usage,
            stderrContains: ["did you mean 'public.image'?"]),
        Case(arguments: ["types", "for-mime", "text/xml"], exit: .success, stdout: "public.xml\n"),
        Case(arguments: ["types", "for-mime", "IMAGE/JPEG"], exit: .success, stdout: "public.jpeg\n"),
        // list
        Case(
            arguments: ["types", "list", "--conforming-to", "public.archive"], exit: .success,
            stdoutContains: ["public.zip-archive", "com.pkware.zip-archive", ".tar"], stdoutLacks: ["public.png"]),
        // declaration files
        Case(
            arguments: ["types", "show", "public.png", "--declarations", "$FIXTURES/missing.plist"], exit: .usage,
            stderrContains: ["missing.plist does not exist"]),
        Case(
            arguments: ["types", "show", "public.png", "--declarations", "$FIXTURES/Broken.plist"], exit: .usage,
            stderrContains: ["Broken.plist is not a property list"]),
        Case(
            arguments: [
                "types", "conforms", "public.jpeg", "public.text", "--declarations", "$FIXTURES/Redefining.plist",
            ],
            exit: .no,
            stderrContains: [
                "warning: ", "Redefining.plist: exported declaration of system type 'public.jpeg' is not applied",
            ]),
        Case(
            arguments: ["types", "for-extension", "thing", "--declarations", "$FIXTURES/Redefining.plist", cardDrop],
            exit: .success, stdout: "com.example.thing\n", stderrContains: ["system type 'public.jpeg' is not applied"]),
    ]

    private func check(_ c: Case, exit: Int32, stdout: String, stderr: String) {
        #expect(exit == c.exit.rawValue, "stderr: \(stderr)")
        if let expected = c.stdout { #expect(stdout == expected) }
        for text in c.stdoutContains { #expect(stdout.contains(text), "stdout: \(stdout)") }
        for text in c.stdoutLacks { #expect(!stdout.contains(text), "stdout: \(stdout)") }
        for text in c.stderrContains { #expect(stderr.contains(text), "stderr: \(stderr)") }
        if c.stderrContains.isEmpty { #expect(stderr.isEmpty) }
    }

    @Test(arguments: cases)
    func commandInProcess(_ c: Case) async {
        let context = CommandContext.collecting(currentDirectory: Self.packageRoot.path)
        let code = await ExtHostCommands.main(arguments: c.resolvedArguments, context: context)
        check(c, exit: code.rawValue, stdout: context.collectedOutput, stderr: context.collectedError)
    }

    @Test(.timeLimit(.minutes(1)), arguments: cases)
    func builtBinary(_ c: Case) async throws {
        let result = try await Self.runBinary(c.resolvedArguments)
        check(c, exit: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    // MARK: - JSON

    @Test func showJSONHasTheContractFields() async throws {
        let context = CommandContext.collecting(currentDirectory: Self.packageRoot.path)
        let code = await ExtHostCommands.main(
            arguments: ["types", "show", "public.zip-archive", "--json"], context: context)
        #expect(code == .success)
        let output = context.collectedOutput
        let declaration = try JSONDecoder().decode(TypesReports.Declaration.self, from: Data(output.utf8))
        #expect(declaration.identifier == "public.zip-archive")
        #expect(declaration.conformsTo == ["com.pkware.zip-archive"])
        #expect(
            declaration.supertypes == [
                "com.pkware.zip-archive", "public.data", "public.item", "public.archive",
            ])
        #expect(declaration.filenameExtensions == ["zip"])
        #expect(declaration.mimeTypes == ["application/zip", "application/x-zip-compressed"])
        #expect(declaration.dynamic == false)
        #expect(declaration.source == "system")
        #expect(output.contains(#""description": "#))
    }

    @Test func showJSONOfTheBinaryForADeclaredCard() async throws {
        let result = try await Self.runBinary([
            "types", "show", "com.example.carddrop.card", "--json", "--declarations", Self.cardDrop,
        ])
        #expect(result.status == 0)
        let declaration = try JSONDecoder().decode(TypesReports.Declaration.self, from: Data(result.stdout.utf8))
        #expect(declaration.conformsTo == ["public.json"])
        #expect(declaration.filenameExtensions == ["card"])
        #expect(declaration.description == "CardDrop Card")
        #expect(declaration.source == "exported")
        #expect(declaration.sourcePath?.hasSuffix("Containers/Bundles/CardDrop.app/Info.plist") == true)
    }

    @Test func conformsJSONAnswersAndKeepsTheExitCode() async throws {
        let context = CommandContext.collecting()
        let code = await ExtHostCommands.main(
            arguments: ["types", "conforms", "public.url", "public.content", "--json"], context: context)
        #expect(code == .no)
        let output = context.collectedOutput
        let conformance = try JSONDecoder().decode(TypesReports.Conformance.self, from: Data(output.utf8))
        #expect(conformance.conforms == false)
        #expect(conformance.path == nil && output.contains(#""path": null"#), "present, as null")
    }

    @Test func forExtensionJSONMarksDynamicTypes() async throws {
        let context = CommandContext.collecting()
        let code = await ExtHostCommands.main(arguments: ["types", "for-extension", "xyz", "--json"], context: context)
        #expect(code == .success)
        let lookup = try JSONDecoder().decode(
            TypesReports.ExtensionLookup.self, from: Data(context.collectedOutput.utf8))
        #expect(lookup.preferred == "dyn.ah62d4rv4ge81u8p4")
        #expect(lookup.dynamic == true)
        #expect(lookup.conformingTo == "public.data")
    }

    @Test func forMIMEListAndDynamicShowJSONDecode() async throws {
        let mime = CommandContext.collecting()
        #expect(
            await ExtHostCommands.main(arguments: ["types", "for-mime", "text/xml", "--json"], context: mime)
                == .success)
        let lookup = try JSONDecoder().decode(TypesReports.MIMETypeLookup.self, from: Data(mime.collectedOutput.utf8))
        #expect(lookup.mimeType == "text/xml" && lookup.preferred == "public.xml" && !lookup.dynamic)
        #expect(lookup.types.first == "public.xml")

        let list = CommandContext.collecting()
        let listed = await ExtHostCommands.main(
            arguments: ["types", "list", "--conforming-to", "public.archive", "--json"], context: list)
        #expect(listed == .success)
        let declarations = try JSONDecoder().decode(
            [TypesReports.Declaration].self, from: Data(list.collectedOutput.utf8))
        #expect(declarations.contains { $0.identifier == "public.zip-archive" })
        #expect(
            declarations.allSatisfy { $0.supertypes.contains("public.archive") || $0.identifier == "public.archive" })
        #expect(declarations.allSatisfy { $0.tags == nil && $0.tagSpecification == nil }, "declared types have no tags")

        let dynamic = CommandContext.collecting()
        let shown = await ExtHostCommands.main(
            arguments: ["types", "show", "dyn.ah62d4rv4ge81u8p4", "--json"], context: dynamic)
        #expect(shown == .success)
        let decoded = try JSONDecoder().decode(TypesReports.Declaration.self, from: Data(dynamic.collectedOutput.utf8))
        #expect(decoded.dynamic && !decoded.declared)
        #expect(
            decoded.tags?.contains(TypesReports.Declaration.Tag(tagClass: "public.filename-extension", value: "xyz"))
                == true)
        #expect(decoded.tagSpecification != nil)
    }

    // MARK: - Running the binary

    struct RunResult {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs the built `exthost` (beside the test bundle) from the package root, capturing its output
    /// in files.
    /// Runs the built binary on a thread of its own (see ``TestSupport/offThread(_:)``).
    static func runBinary(_ arguments: [String]) async throws -> RunResult {
        try await TestSupport.offThread { try runBinaryBlocking(arguments) }
    }

    private static func runBinaryBlocking(_ arguments: [String]) throws -> RunResult {
        let binary = URL(fileURLWithPath: try Executables.exthost())
        try #require(
            FileManager.default.isExecutableFile(atPath: binary.path),
            "\(binary.path) is missing: run `swift build` before `swift test`")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("exthost-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardOutput = out
        process.standardError = err
        process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return RunResult(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}
