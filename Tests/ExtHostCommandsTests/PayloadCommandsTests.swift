import Foundation
import Payloads
import Testing

@testable import ExtHostCommands

/// `exthost payload …`, driven in-process and through the built binary (`swift build` first).
struct PayloadCommandsTests {
    static let root = TypesCommandsTests.packageRoot
    static let items = "Containers/Bundles/DemoItems"

    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let exit: ExitCode
        var stdoutContains: [String] = []
        var stderrContains: [String] = []
        var testDescription: String { "exthost " + arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(
            arguments: ["payload", "show", items], exit: .success,
            stdoutContains: [
                "DemoItems: 1 item, 4 attachments",
                "attachment 2 (suggestedName menu.pdf): registeredTypeIdentifiers [com.adobe.pdf]",
                "attachment 3 (suggestedName note.txt): registeredTypeIdentifiers [public.plain-text]",
                "attachment 4 (suggestedName photo.png): registeredTypeIdentifiers [public.png]", "463 B",
            ]),
        Case(
            arguments: ["payload", "show", items, "--declarations", "Containers/Bundles/CardDrop.app"],
            exit: .success,
            stdoutContains: [
                "attachment 1 (suggestedName alice.card): registeredTypeIdentifiers [com.example.carddrop.card]"
            ]
        ),
        Case(
            arguments: ["payload", "show", "--payload", "photos-live-photo"], exit: .success,
            stdoutContains: [
                "preset photos-live-photo: 1 item, 1 attachment",
                "registeredTypeIdentifiers [public.jpeg, com.apple.live-photo, public.heic]", "file",
            ]),
        Case(
            arguments: ["payload", "show", "--payload", "safari-webpage"], exit: .success,
            stdoutContains: [
                "a Safari web page", "attributedContentText: ProCamera + HDR - the next dimension in iOS mobile",
                "public.url",
            ]),
        Case(
            arguments: ["payload", "show", "--payload", "files-app-document"], exit: .success,
            stdoutContains: ["openInPlace", "suggestedName Document.pdf"]),
        Case(
            arguments: ["payload", "show", "--payload", "nope"], exit: .usage,
            stderrContains: ["preset nope: no such preset; known: safari-webpage"]),
        Case(arguments: ["payload", "show"], exit: .usage, stderrContains: ["needs ITEMS"]),
        Case(
            arguments: ["payload", "show", items, "--payload", "notes-text"], exit: .usage,
            stderrContains: ["not both"]),
        Case(
            arguments: ["payload", "show", "Containers/NoSuch"], exit: .usage,
            stderrContains: ["Containers/NoSuch: no such file or folder"]),
        Case(
            arguments: ["payload", "presets"], exit: .success,
            stdoutContains: ["safari-webpage", "observed-log", "acrobat-send-a-copy", "32 presets"]),
        Case(
            arguments: ["payload", "presets", "acrobat-send-a-copy"], exit: .success,
            stdoutContains: ["confidence: documented", "evidence:", "receive_sharing_intent/issues/327", "notes:"]),
        Case(arguments: ["payload", "presets", "nope"], exit: .usage, stderrContains: ["no preset 'nope'"]),
    ]

    @Test(arguments: cases) func commandInProcess(_ c: Case) async {
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(arguments: c.arguments, context: context)
        #expect(code == c.exit, "stderr: \(context.collectedError)")
        for text in c.stdoutContains {
            #expect(context.collectedOutput.contains(text), "stdout: \(context.collectedOutput)")
        }
        for text in c.stderrContains {
            #expect(context.collectedError.contains(text), "stderr: \(context.collectedError)")
        }
    }

    @Test func showJSONThroughTheBinary() async throws {
        let result = try await TypesCommandsTests.runBinary([
            "payload", "show", "--payload", "acrobat-send-a-copy", "--json",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let payload = try JSONDecoder().decode(PayloadReports.Show.self, from: Data(result.stdout.utf8))
        #expect(payload.source == "preset acrobat-send-a-copy")
        let attachments = try #require(payload.items.first?.attachments)
        #expect(
            attachments.map(\.registeredTypeIdentifiers) == [
                ["public.plain-text"], ["com.adobe.pdf"],
            ])
        let pdf = try #require(attachments.last?.representations.first)
        #expect(pdf.kind == "file")
        #expect(attachments.last?.suggestedName == "sample.pdf")
    }

    @Test func presetsJSONHasEvidence() async throws {
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(arguments: ["payload", "presets", "--json"], context: context)
        #expect(code == .success)
        let presets = try JSONDecoder().decode(
            PayloadReports.Presets.self, from: Data(context.collectedOutput.utf8)
        ).presets
        #expect(presets.count >= 15)
        #expect(presets.allSatisfy { !$0.citations.isEmpty })
        #expect(presets.first?.webpage == true)
    }

    @Test func manifestFolderShowsKnobsAndHiddenTypes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("payload-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("%PDF-1.4\n".utf8).write(to: folder.appendingPathComponent("a.pdf"))
        let manifest = """
            {"items": [{"title": "T", "attachments": [{"loadDelayMilliseconds": 5, "representations": [
              {"type": "com.adobe.pdf", "kind": "file", "file": "a.pdf"},
              {"type": "public.plain-text", "text": "x", "visibility": "ownProcess", "failWith": {"code": -1}}]}]}]}
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("share.json"))
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(arguments: ["payload", "show", folder.path], context: context)
        #expect(code == .success, "stderr: \(context.collectedError)")
        let output = context.collectedOutput
        #expect(output.contains("attributedTitle: T"))
        #expect(output.contains("registeredTypeIdentifiers [com.adobe.pdf]"))
        #expect(output.contains("[hidden: ownProcess]"))
        #expect(output.contains("[delay 5 ms]"))
        #expect(
            output.contains(
                "[fails: NSItemProviderErrorDomain -1: Cannot load representation of type public.plain-text]"))

        let json = CommandContext.collecting(currentDirectory: Self.root.path)
        #expect(
            await ExtHostCommands.main(arguments: ["payload", "show", folder.path, "--json"], context: json) == .success
        )
        let payload = try JSONDecoder().decode(PayloadReports.Show.self, from: Data(json.collectedOutput.utf8))
        let item = try #require(payload.items.first)
        #expect(item.attributedTitle == "T" && item.attributedContentText == nil)
        let attachment = try #require(item.attachments.first)
        #expect(attachment.registeredTypeIdentifiers == ["com.adobe.pdf"])
        #expect(attachment.representations.map(\.visibility) == ["all", "ownProcess"])
        #expect(attachment.representations.map(\.loadDelayMilliseconds) == [5, 5])
        #expect(attachment.representations.first?.size == 9)
        #expect(attachment.representations.first?.failWith == nil)
        #expect(attachment.representations.last?.failWith?.hasPrefix("NSItemProviderErrorDomain -1") == true)
    }
}
