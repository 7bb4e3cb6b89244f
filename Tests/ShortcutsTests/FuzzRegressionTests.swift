import Foundation
import Shortcuts
import Testing

/// The inputs `Scripts/fuzz` found crashing the shortcut, intent-definition and App Intents readers
/// (`FuzzRegressions/`, named for what they hold): each must now be refused with a located error.
@Suite
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    static var inputs: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func everyInputThatCrashedIsRefusedWithItsLocation() throws {
        #expect(!Self.inputs.isEmpty, "no regression inputs in \(Self.folder.path)")
        for input in Self.inputs {
            do {
                switch input.pathExtension {
                case "shortcut": _ = try Shortcut.load(contentsOf: input)
                case "intentdefinition": _ = try IntentCatalog.definition(input)
                case "actionsdata": _ = try IntentCatalog.appIntents(input)
                default:
                    Issue.record("\(input.lastPathComponent): no reader for .\(input.pathExtension)")
                    continue
                }
                Issue.record("\(input.lastPathComponent) was accepted")
            } catch {
                print("fuzz regression \(input.lastPathComponent): \(error)")
                #expect(error.file == input.path)
                if input.pathExtension != "actionsdata" {
                    #expect(error.line >= 1 && error.column >= 1, "\(input.lastPathComponent): \(error)")
                }
            }
        }
    }

    @Test func aProcessingInstructionThatIsNotUTF8IsRefusedAtItsByte() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pi-\(UUID().uuidString).shortcut")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data([0x3C, 0x3F, 0x78, 0x0A, 0x20, 0xED, 0xA0, 0x80, 0x3F, 0x3E]).write(to: file)
        #expect {
            try Shortcut.load(contentsOf: file)
        } throws: { error in
            guard let error = error as? ShortcutError else { return false }
            return error.line == 2 && error.column == 2 && error.message.contains("not UTF-8")
        }
    }

    /// What the appintents fuzz target requires of every intent it accepts: a class name.
    @Test func anAppIntentWithAnEmptyTypeNameIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("intents-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"actions": {"": {"parameters": []}, "OpenIntent": {}}}"#.utf8).write(to: file)
        #expect {
            try IntentCatalog.appIntents(file)
        } throws: { error in
            (error as? ShortcutError)?.message.contains("empty type name") == true
        }
    }
}
