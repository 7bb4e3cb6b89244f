import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost import` on projects that cannot come along: each a located error, exit 2, and nothing
/// written or installed (these fail before anything is built).
@Suite struct ImportCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("XcodeProjectsTests/Fixtures")

    struct Bad: Sendable, CustomTestStringConvertible {
        var name: String
        /// The file changed (relative to the fixture), the text replaced and its replacement.
        var file: String
        var replace: String
        var with: String
        /// The file the error names, and the text on the line it names (nil: the line is not checked).
        var errorFile: String
        var lineText: String?
        var message: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Bad(
            name: "a truncated project.pbxproj", file: "Notes.xcodeproj/project.pbxproj",
            replace: "/* Begin XCConfigurationList section */", with: "",
            errorFile: "Notes.xcodeproj/project.pbxproj", lineText: nil,
            message: "unexpected end of file: the dictionary opened at 7:12 is not closed"),
        Bad(
            name: "a missing Info.plist", file: "Notes.xcodeproj/project.pbxproj",
            replace: "INFOPLIST_FILE = NotesShare/Info.plist;\n\t\t\t\tINFOPLIST_KEY_CFBundleDisplayName",
            with: "INFOPLIST_FILE = NotesShare/Missing-Info.plist;\n\t\t\t\tINFOPLIST_KEY_CFBundleDisplayName",
            errorFile: "Notes.xcodeproj/project.pbxproj", lineText: "NotesShare/Missing-Info.plist",
            message: "the Info.plist of 'NotesShare' is missing"),
        Bad(
            name: "an unknown product type", file: "Notes.xcodeproj/project.pbxproj",
            replace: "\"com.apple.product-type.app-extension\"", with: "\"com.apple.product-type.gizmo\"",
            errorFile: "Notes.xcodeproj/project.pbxproj", lineText: "com.apple.product-type.gizmo",
            message: "the target 'NotesShare' has an unknown product type 'com.apple.product-type.gizmo'"),
        Bad(
            name: "a setting that expands to itself", file: "Notes.xcodeproj/project.pbxproj",
            replace: "BASE_IDENTIFIER = \"com.example.notes\";",
            with: "BASE_IDENTIFIER = \"$(PRODUCT_BUNDLE_IDENTIFIER)\";",
            errorFile: "Notes.xcodeproj/project.pbxproj", lineText: nil,
            message: "expands to itself (PRODUCT_BUNDLE_IDENTIFIER → BASE_IDENTIFIER → PRODUCT_BUNDLE_IDENTIFIER)"),
        Bad(
            name: "an extension importing a module exthost cannot build", file: "NotesShare/ShareViewController.swift",
            replace: "import UniformTypeIdentifiers", with: "import UniformTypeIdentifiers\nimport Kingfisher",
            errorFile: "NotesShare/ShareViewController.swift", lineText: "import Kingfisher",
            message: "'NotesShare' imports Kingfisher, which exthost cannot build"),
        Bad(
            name: "a construct that cannot be adapted", file: "NotesShare/ShareViewController.swift",
            replace: "super.viewDidLoad()",
            with: "super.viewDidLoad()\n        objc_setAssociatedObject(self, &key, nil, .OBJC_ASSOCIATION_RETAIN)",
            errorFile: "NotesShare/ShareViewController.swift", lineText: "objc_setAssociatedObject",
            message: "'objc_setAssociatedObject' cannot be adapted: associated objects need the Objective-C runtime"),
    ])
    func aProjectThatCannotComeAlongIsALocatedErrorAndNothingIsInstalled(_ bad: Bad) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("import-bad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let project = work.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Xcode15"), to: project)
        let file = project.appendingPathComponent(bad.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(bad.replace))
        // An empty replacement cuts the file there (a truncated file).
        let changed =
            bad.with.isEmpty
            ? String(text[..<(text.range(of: bad.replace)?.lowerBound ?? text.endIndex)])
            : text.replacingOccurrences(of: bad.replace, with: bad.with)
        try Data(changed.utf8).write(to: file)
        let device = work.appendingPathComponent("device")

        let (code, out, error) = await TestSupport.run(["import", project.path], root: device)
        #expect(code == .usage, "\(out)\(error)")
        let errorFile = project.appendingPathComponent(bad.errorFile).path
        #expect(error.contains("error: \(errorFile):"), "\(error)")
        #expect(error.contains(bad.message), "\(error)")
        if let lineText = bad.lineText {
            let lines = try String(contentsOf: project.appendingPathComponent(bad.errorFile), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            let line = try #require(lines.firstIndex { $0.contains(lineText) }) + 1
            #expect(error.contains("\(errorFile):\(line):"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".exthost").path))
        #expect(!FileManager.default.fileExists(atPath: device.appendingPathComponent("Bundles").path))
    }

    @Test func shareImportsFirstAndStopsOnAProjectThatCannotComeAlong() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("import-share-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let project = work.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Xcode15"), to: project)
        try FileManager.default.removeItem(at: project.appendingPathComponent("NotesShare/Info.plist"))
        let items = work.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: items.appendingPathComponent("a.bin"))
        let device = work.appendingPathComponent("device")
        let (code, _, error) = await TestSupport.run(["share", "--import", project.path, items.path], root: device)
        #expect(code == .usage)
        #expect(error.contains("the Info.plist of 'NotesShare' is missing"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: device.appendingPathComponent("Bundles").path))
    }

    /// `--ci` never overwrites the user's own workflow: exit 2 before importing, nothing installed.
    @Test func ciLeavesADifferentWorkflowAsItIsAndImportsNothing() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("import-ci-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let project = work.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Xcode15"), to: project)
        let workflow = work.appendingPathComponent(".github/workflows/exthost.yml")
        try FileManager.default.createDirectory(
            at: workflow.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("name: mine\n".utf8).write(to: workflow)
        let device = work.appendingPathComponent("device")
        let (code, out, error) = await TestSupport.run(["import", "--ci", project.path], root: device)
        #expect(code == .usage, "\(out)\(error)")
        #expect(error.contains("\(workflow.path) exists already; exthost leaves it as it is"), "\(error)")
        #expect(try String(contentsOf: workflow, encoding: .utf8) == "name: mine\n")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".exthost").path))
        #expect(!FileManager.default.fileExists(atPath: device.appendingPathComponent("Bundles").path))
    }

    @Test func aFolderWithoutAProjectIsBadInput() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("import-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let (code, _, error) = await TestSupport.run(["import", empty.path], root: empty.appendingPathComponent("d"))
        #expect(code == .usage)
        #expect(error.contains("holds no .xcodeproj or .xcworkspace (looked in it and in its ios/ folder)"), "\(error)")
    }
}
