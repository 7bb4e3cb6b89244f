import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import LaunchServices
import Payloads
import ShareSheet
import SheetReports
import Testing

/// The share sheet of the demo device (CardDrop with its share extension and exported type,
/// Uppercase with its action extension, Reader claiming PDFs): which activities appear and why,
/// the preview header, and what choosing one does — through the library.
@Suite(.timeLimit(.minutes(3)))
struct ShareSheetTests {
    static let demoItems = TestSupport.demoItems

    static func device() throws -> URL { try TestSupport.scratchRoot("sheet") }

    static func activity(_ report: SheetReport, _ id: String) throws -> SheetActivity {
        try #require(report.activities.first { $0.id == id }, "\(id) is not on the sheet")
    }

    static func options() throws -> SheetPerformOptions {
        let exthost = TestSupport.program("exthost").path
        let launcher = try #require(InstalledPrograms.nextToExecutable()).launcher
        var options = SheetPerformOptions(programs: InstalledPrograms(launcher: launcher, exthost: exthost))
        // An app without a program is handed the files but not launched.
        options.builtInApp = nil
        return options
    }

    @Test func eachInstalledExtensionIsShownOrHiddenWithTheReason() throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let pdf = try ShareSheet.present(
            ActivityItems(items: [.file(Self.demoItems.appendingPathComponent("menu.pdf"))]), on: device)
        let share = try Self.activity(pdf, "com.example.carddrop.Share")
        #expect(share.shown && share.kind == "share-extension" && share.section == "app-row")
        let action = try Self.activity(pdf, "com.example.uppercase.Action")
        #expect(!action.shown && action.kind == "action-extension" && action.section == "actions")
        #expect(action.reason.contains("NSExtensionActivationRule does not accept"), "\(action.reason)")
        #expect(action.explanation != nil, "the rule's explanation tree travels with a hidden extension")
        let reader = try Self.activity(pdf, "copy-to:com.example.reader")
        #expect(reader.shown && reader.title == "Copy to Reader")
        #expect(reader.activityType == "com.apple.UIKit.activity.RemoteOpenInApplication-ByCopy")
        #expect(try !Self.activity(pdf, "copy-to:com.example.carddrop").shown)

        let text = try ShareSheet.present(ActivityItems(items: [.text("make me loud")]), on: device)
        #expect(try Self.activity(text, "com.example.uppercase.Action").shown)
        let readerForText = try Self.activity(text, "copy-to:com.example.reader")
        #expect(!readerForText.shown && readerForText.reason.contains("only files"), "\(readerForText.reason)")

        // The exported type: a .card file is claimed by CardDrop through its own declaration.
        let card = try ShareSheet.present(
            ActivityItems(items: [.file(Self.demoItems.appendingPathComponent("alice.card"))]), on: device)
        #expect(try Self.activity(card, "copy-to:com.example.carddrop").shown)
        #expect(try !Self.activity(card, "copy-to:com.example.reader").shown)
        // Shown rows come first: app row, then actions; hidden rows last.
        let order = pdf.activities.map { ($0.shown ? 0 : 2) + ($0.section == "app-row" ? 0 : 1) }
        #expect(order == order.sorted())
    }

    @Test func anExtensionPointThatIsNotShareOrActionIsHiddenAndSaysWhy() throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let appex = root.appendingPathComponent("Bundles/Uppercase.app/PlugIns/Keyboard.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        let plist: [String: Any] = [
            "CFBundleIdentifier": "com.example.uppercase.Keyboard", "CFBundleDisplayName": "Loud Keys",
            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.keyboard-service"],
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: appex.appendingPathComponent("Info.plist"))
        let report = try ShareSheet.present(ActivityItems(items: [.text("hi")]), on: DeviceRoot(url: root))
        let keyboard = try Self.activity(report, "com.example.uppercase.Keyboard")
        #expect(!keyboard.shown && keyboard.reason.contains("com.apple.keyboard-service"), "\(keyboard.reason)")
    }

    @Test func applicationActivitiesAppearWhenTheyAcceptTheItems() throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let favorite = ApplicationActivity(type: "com.example.favorite", title: "Favorite", accepts: [.url])
        let items = ActivityItems(
            items: [.url(try #require(URL(string: "https://example.com")))], applicationActivities: [favorite])
        let forURL = try ShareSheet.present(items, on: DeviceRoot(url: root))
        #expect(try Self.activity(forURL, "com.example.favorite").shown)
        let forText = try ShareSheet.present(
            ActivityItems(items: [.text("no link")], applicationActivities: [favorite]), on: DeviceRoot(url: root))
        let hidden = try Self.activity(forText, "com.example.favorite")
        #expect(!hidden.shown && hidden.reason.contains("canPerform"), "\(hidden.reason)")
    }

    @Test func activityItemsBecomeTheAttachmentsIOSSends() throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = ActivityItemSource(
            placeholder: .data(Data(), typeIdentifier: nil), item: .data(Data("{}".utf8), typeIdentifier: nil),
            dataTypeIdentifier: "com.example.carddrop.card", subject: "A card")
        let items = ActivityItems(items: [
            .text("hello"), .url(try #require(URL(string: "https://example.com/a"))),
            .file(Self.demoItems.appendingPathComponent("menu.pdf")), .source(source),
        ])
        let report = try ShareSheet.present(items, on: DeviceRoot(url: root))
        #expect(
            report.items.map(\.registeredTypeIdentifiers) == [
                ["public.plain-text"], ["public.url"], ["com.adobe.pdf", "public.file-url"],
                ["com.example.carddrop.card"],
            ])
        let payload = try items.payload(
            for: "com.example.carddrop.Share", registry: InstalledBundles(root: DeviceRoot(url: root)).registry)
        #expect(payload.items.count == 1, "one NSExtensionItem, one attachment per activity item")
        #expect(payload.items.first?.attributedContentText == "A card", "the subject becomes the content text")
    }

    @Test func aURLWithAStringShowsTheStringUnlessAnItemSourceGivesLinkMetadata() throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let link = try #require(URL(string: "https://example.com/article"))
        let plain = try ShareSheet.present(ActivityItems(items: [.url(link), .text("Read this")]), on: device)
        #expect(plain.preview.title == "Read this", "text outranks a URL: the article's wrong preview")
        #expect(plain.preview.decidedBy.hasPrefix("item 1: text"), "\(plain.preview.decidedBy)")

        let metadata = LinkMetadata(
            originalURL: link, url: link, title: "The Article", hasIcon: true, laterTitle: "The Article (updated)")
        let fixed = try ShareSheet.present(
            ActivityItems(items: [
                .source(ActivityItemSource(placeholder: .url(link), item: .url(link), linkMetadata: metadata)),
                .text("Read this"),
            ]),
            on: device)
        #expect(fixed.preview.title == "The Article")
        #expect(fixed.preview.subtitle == "example.com")
        #expect(fixed.preview.image == "icon")
        #expect(fixed.preview.decidedBy.contains("LPLinkMetadata"))
        #expect(fixed.preview.updatedTitle == "The Article (updated)", "metadata filled in after presentation")

        // Metadata from a source that gives no item does not control the header.
        let itemless = try ShareSheet.present(
            ActivityItems(items: [
                .source(ActivityItemSource(placeholder: .url(link), item: nil, linkMetadata: metadata)),
                .text("Read this"),
            ]),
            on: device)
        #expect(itemless.preview.title != "The Article")
        #expect(itemless.preview.decidedBy.contains("ignored"), "\(itemless.preview.decidedBy)")
    }

    @Test func anImageAloneShowsItsTypeDescription() throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let png = try Data(contentsOf: Self.demoItems.appendingPathComponent("photo.png"))
        let report = try ShareSheet.present(
            ActivityItems(items: [.image(png, typeIdentifier: "public.png")]), on: DeviceRoot(url: root))
        #expect(report.preview.title == "PNG image", "\(report.preview)")
        #expect(report.preview.image == "image")
        #expect(try Self.activity(report, "com.apple.UIKit.activity.SaveToCameraRoll").shown)
        #expect(try Self.activity(report, "com.apple.UIKit.activity.AssignToContact").shown)
    }

    @Test func performingEachShownExtensionReportsTheCompletion() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let device = DeviceRoot(url: root)
        let options = try Self.options()
        let text = ActivityItems(items: [.text("make me loud")])

        let action = try await ShareSheet.perform(
            "com.example.uppercase.Action", items: text, on: device, options: options)
        #expect(action.completion.activityType == "com.example.uppercase.Action")
        #expect(action.completion.completed)
        #expect(action.completion.activityError == nil)
        let returned = try #require(action.completion.returnedItems?.first)
        #expect(returned.title == "Uppercased")
        #expect(returned.attachments.first?.data == Data("MAKE ME LOUD".utf8))

        let share = try await ShareSheet.perform(
            "com.example.carddrop.Share", items: text, on: device, options: options)
        #expect(share.completion.completed)
        #expect(share.completion.returnedItems == nil)
        #expect(share.share?.committed == 1, "the share extension wrote the text into its App Group")
    }

    @Test func aCancelArrivesAsNotCompletedWithTheExtensionsError() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        var options = try Self.options()
        // The probe in action mode cancels with NSUserCancelledError when there is no text.
        options.extensionExecutable = TestSupport.program("exthost-probe-extension")
        options.extensionArguments = ["action"]
        let pdf = ActivityItems(items: [.file(Self.demoItems.appendingPathComponent("menu.pdf"))])
        let result = try await ShareSheet.perform(
            "com.example.carddrop.Share", items: pdf, on: DeviceRoot(url: root), options: options)
        #expect(!result.completion.completed)
        #expect(result.completion.activityError?.domain == "NSCocoaErrorDomain")
        #expect(result.completion.activityError?.code == 3072)
        #expect(result.completion.returnedItems == nil)

        options.extensionArguments = ["twice"]
        let twice = try await ShareSheet.perform(
            "com.example.carddrop.Share", items: pdf, on: DeviceRoot(url: root), options: options)
        #expect(twice.completion.completed, "the second completeRequest has no effect")
        #expect(
            twice.share?.mistakes.contains { $0.hasPrefix("completeRequest(returningItems:) called after") } == true)
    }

    @Test func theShortcutIsInTheSheetForTextAndImagesNotForAPDF() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(
            at: TestSupport.packageRoot.appendingPathComponent("Containers/Shortcuts"),
            to: root.appendingPathComponent("Shortcuts"))
        let items = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems")
        func row(_ activityItems: ActivityItems) throws -> SheetActivity? {
            try ShareSheet.present(activityItems, on: DeviceRoot(url: root)).activities.first { $0.kind == "shortcut" }
        }
        #expect(try row(ActivityItems(items: [.text("hello")]))?.shown == true)
        #expect(try row(ActivityItems(items: [.file(items.appendingPathComponent("photo.png"))]))?.shown == true)
        let pdf = try #require(try row(ActivityItems(items: [.file(items.appendingPathComponent("menu.pdf"))])))
        #expect(!pdf.shown)
        #expect(pdf.reason.contains("WFPDFContentItem"), "\(pdf.reason)")
    }
}
