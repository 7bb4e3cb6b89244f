import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost sheet` with a folder of items (each file an activity item, as an app shares
/// documents), its text report after performing a share extension, and the items it refuses.
@Suite(.timeLimit(.minutes(3)))
struct SheetItemsTests {
    @Test func aFoldersFilesAreSharedAndTheExtensionsRunIsReported() async throws {
        let root = try TestSupport.scratchRoot("sheet-items")
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("items", isDirectory: true)
        try FileManager.default.createDirectory(
            at: items.appendingPathComponent("nested"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestSupport.demoItems.appendingPathComponent("note.txt"), to: items.appendingPathComponent("note.txt"))
        try Data("hidden".utf8).write(to: items.appendingPathComponent(".hidden"))

        let (code, out, err) = await TestSupport.run(
            ["sheet", items.path, "--perform", "com.example.carddrop.Share"], root: root)
        #expect(code == .success, "\(err)")
        #expect(
            out.contains(
                "completionWithItemsHandler(activityType: com.example.carddrop.Share, completed: true, "
                    + "returnedItems: nil, activityError: nil)"), "\(out)")
        #expect(out.contains("extension com.example.carddrop.Share: completed — completed the request"), "\(out)")
        let (jsonCode, json, _) = await TestSupport.run(["sheet", items.path, "--json"], root: root)
        #expect(jsonCode == .success)
        #expect(json.contains("note.txt") && !json.contains(".hidden") && !json.contains("\"nested\""))
    }

    @Test func itemsTheSheetCannotShareAreRefused() async throws {
        let root = try TestSupport.scratchRoot("sheet-refused")
        defer { try? FileManager.default.removeItem(at: root) }
        let empty = root.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let (emptyCode, _, emptyError) = await TestSupport.run(["sheet", empty.path], root: root)
        #expect(emptyCode == .usage && emptyError.contains("\(empty.path): no files to share"), "\(emptyError)")
        let missing = root.appendingPathComponent("missing").path
        let (missingCode, _, missingError) = await TestSupport.run(["sheet", missing], root: root)
        #expect(missingCode == .usage && missingError.contains("\(missing): no such file or folder"))
        let (noneCode, _, noneError) = await TestSupport.run(["sheet"], root: root)
        #expect(noneCode == .usage)
        #expect(noneError.contains("exthost sheet needs exactly one of ITEMS, --activity-items FILE or --payload NAME"))
    }
}
