import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import Payloads
import ShareSheet
import SheetReports
import Testing

/// Copy and Save to Files performed: what lands on the device's pasteboard and in its Files
/// storage, per item class, with the Keep Both rule for taken names.
@Suite(.timeLimit(.minutes(2)))
struct SystemActivityPerformTests {
    static let copy = "com.apple.UIKit.activity.CopyToPasteboard"
    static let saveToFiles = "com.apple.DocumentManagerUICore.SaveToFiles"

    static func options() -> SheetPerformOptions {
        SheetPerformOptions(programs: InstalledPrograms(launcher: "/nonexistent/launcher", exthost: nil))
    }

    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
        ?? Data()

    @Test func copyPutsOnePasteboardItemPerActivityItemWithWhatIOSPutsThere() async throws {
        let root = try TestSupport.scratchRoot("copy")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let pdf = TestSupport.demoItems.appendingPathComponent("menu.pdf")
        let card = ActivityItemSource(
            placeholder: .url(URL(string: "https://example.com/placeholder") ?? pdf),
            item: .url(URL(string: "https://example.com/card") ?? pdf))
        let items = ActivityItems(items: [
            .text("Look at this"), .url(URL(string: "https://example.com/page") ?? pdf),
            .image(Self.png, typeIdentifier: "public.png"), .file(pdf), .source(card),
        ])
        var options = Self.options()
        options.sharingApp = "com.example.sharer"
        let result = try await ShareSheet.perform(Self.copy, items: items, on: device, options: options)
        #expect(result.completion.completed && result.completion.activityType == Self.copy)
        let write = try #require(result.pasteboard)
        #expect(
            write.items == [
                ["public.utf8-plain-text"], ["public.url"], ["public.png"], ["com.adobe.pdf"], ["public.url"],
            ])
        let contents = try DevicePasteboard(root: device).contents()
        #expect(contents.changeCount == 1 && write.changeCount == 1)
        #expect(contents.writer == "com.example.sharer")
        #expect(contents.items[0].data(for: "public.utf8-plain-text") == Data("Look at this".utf8))
        #expect(contents.items[1].data(for: "public.url") == Data("https://example.com/page".utf8))
        #expect(contents.items[2].data(for: "public.png") == Self.png)
        #expect(contents.items[3].data(for: "com.adobe.pdf") == (try Data(contentsOf: pdf)))
        #expect(
            contents.items[4].data(for: "public.url") == Data("https://example.com/card".utf8),
            "an item source gives its itemForActivityType, not its placeholder")

        // A second copy replaces the items and counts a change.
        _ = try await ShareSheet.perform(
            Self.copy, items: ActivityItems(items: [.text("again")]), on: device, options: Self.options())
        let after = try DevicePasteboard(root: device).contents()
        #expect(after.changeCount == 2 && after.items.count == 1)
    }

    @Test func copyIsRefusedForWhatItDoesNotTakeAndNothingIsWritten() async throws {
        let root = try TestSupport.scratchRoot("copy-refused")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let items = ActivityItems(items: [.data(Data([1, 2, 3]), typeIdentifier: nil)])
        await #expect(throws: SheetError.self) {
            _ = try await ShareSheet.perform(Self.copy, items: items, on: device, options: Self.options())
        }
        #expect(try DevicePasteboard(root: device).contents().changeCount == 0)
    }

    @Test func saveToFilesWritesEachItemAndKeepsBothOnATakenName() async throws {
        let root = try TestSupport.scratchRoot("save")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let pdf = TestSupport.demoItems.appendingPathComponent("menu.pdf")
        let items = ActivityItems(items: [.text("notes"), .image(Self.png, typeIdentifier: "public.png"), .file(pdf)])
        let first = try await ShareSheet.perform(Self.saveToFiles, items: items, on: device, options: Self.options())
        #expect(first.completion.completed)
        #expect(
            first.saved?.map(\.path) == [
                "Files/On My iPhone/Text.txt", "Files/On My iPhone/Image.png", "Files/On My iPhone/menu.pdf",
            ])
        #expect(first.saved?.allSatisfy { $0.requestedName == nil } == true)
        let folder = root.appendingPathComponent("Files/On My iPhone")
        #expect(try Data(contentsOf: folder.appendingPathComponent("menu.pdf")) == (try Data(contentsOf: pdf)))
        #expect(try String(contentsOf: folder.appendingPathComponent("Text.txt"), encoding: .utf8) == "notes")

        let second = try await ShareSheet.perform(Self.saveToFiles, items: items, on: device, options: Self.options())
        #expect(second.saved?.map(\.name) == ["Text 2.txt", "Image 2.png", "menu 2.pdf"])
        #expect(second.saved?.map(\.requestedName) == ["Text.txt", "Image.png", "menu.pdf"])
        #expect(
            try String(contentsOf: folder.appendingPathComponent("Text.txt"), encoding: .utf8) == "notes",
            "the first file is never replaced")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["Image 2.png", "Image.png", "Text 2.txt", "Text.txt", "menu 2.pdf", "menu.pdf"])

        var downloads = Self.options()
        downloads.saveLocation = .downloads
        let third = try await ShareSheet.perform(Self.saveToFiles, items: items, on: device, options: downloads)
        #expect(third.saved?.first?.path == "Downloads/Text.txt")
    }

    @Test func theKeepBothNameNumbersBeforeTheExtension() {
        #expect(ShareSheet.keepBothName("report.pdf", 1) == "report.pdf")
        #expect(ShareSheet.keepBothName("report.pdf", 2) == "report 2.pdf")
        #expect(ShareSheet.keepBothName("archive.tar.gz", 3) == "archive.tar 3.gz")
        #expect(ShareSheet.keepBothName("README", 2) == "README 2")
    }
}

extension SystemActivityPerformTests {
    /// An `NSExtensionItem` activity item: the system's activities do not take it, an extension
    /// receives it as its own item (the probe prints what it sees).
    @Test func anExtensionItemReachesTheExtensionAsItIsAndNoSystemActivity() async throws {
        let root = try TestSupport.scratchRoot("ext-item")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let given = ActivityExtensionItem(
            title: "Trip", contentText: "Our trip", attachments: [.url(URL(string: "https://example.com/trip") ?? root)]
        )
        let items = ActivityItems(items: [.text("Look"), .extensionItem(given)])
        let sheet = try ShareSheet.present(items, on: device)
        for system in SystemActivity.all {
            let row = try #require(sheet.activities.first { $0.id == system.type })
            #expect(!row.shown && row.reason.contains("does not take an NSExtensionItem"), "\(row.reason)")
        }
        #expect(sheet.items.map(\.itemClass) == ["string", "extension-item"])
        #expect(sheet.items.map(\.registeredTypeIdentifiers) == [["public.plain-text"], ["public.url"]])

        var options = Self.options()
        options.launcher = try #require(InstalledPrograms.nextToExecutable()).launcher
        options.extensionExecutable = TestSupport.program("exthost-probe-extension")
        options.extensionArguments = ["inputs"]
        let result = try await ShareSheet.perform(
            "com.example.carddrop.Share", items: items, on: device, options: options)
        let log = try #require(result.share?.log)
        #expect(log.contains("PROBE items 2"), "\(log)")
        #expect(log.contains("PROBE item 0 attachments=1 title=nil text=nil"), "\(log)")
        #expect(log.contains("PROBE item 1 attachments=1 title=Trip text=Our trip"), "\(log)")
    }
}

extension SystemActivityPerformTests {
    /// An app's own sheet (sandboxed) copies through its pasteboard service, not the device's file.
    @Test func copyGoesThroughTheGivenPasteboardServiceWhenThereIsOne() async throws {
        let root = try TestSupport.scratchRoot("copy-service")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let received = Received()
        var options = Self.options()
        options.writePasteboard = { items in
            received.set(items)
            return PasteboardContents(changeCount: 41, items: items, writer: "com.example.app")
        }
        let result = try await ShareSheet.perform(
            Self.copy, items: ActivityItems(items: [.text("through the service")]), on: device, options: options)
        #expect(result.pasteboard?.changeCount == 41)
        #expect(received.items.first?.data(for: "public.utf8-plain-text") == Data("through the service".utf8))
        #expect(try DevicePasteboard(root: device).contents().changeCount == 0, "the file is not written directly")
    }

    /// What the service closure received.
    final class Received: @unchecked Sendable {
        // @unchecked Sendable: `stored` is read and written only under `lock`.
        private let lock = NSLock()
        private var stored: [PasteboardItem] = []
        func set(_ items: [PasteboardItem]) { lock.withLock { stored = items } }
        var items: [PasteboardItem] { lock.withLock { stored } }
    }
}
