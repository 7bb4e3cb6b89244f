import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Payloads
import ShareSheet
import Testing

@testable import ExtHostCommands

/// The share sheet of the demo device (CardDrop with its share extension and exported type,
/// Uppercase with its action extension, Reader claiming PDFs): which activities appear and why,
/// the preview header, and what choosing one does — through the library and the command line.
@Suite(.timeLimit(.minutes(3)))
struct ShareSheetTests {
    static let demoItems = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems")

    static func device() throws -> URL { try TestSupport.scratchRoot("sheet") }

    static func manifest(_ json: String, in root: URL) throws -> URL {
        let url = root.appendingPathComponent("items-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    static func activity(_ report: SheetReport, _ id: String) throws -> SheetActivity {
        try #require(report.activities.first { $0.id == id }, "\(id) is not on the sheet")
    }

    /// The keys each activity of `exthost sheet --json` is written with (null values included), as
    /// the text has them.
    struct WrittenKeys: Decodable {
        struct Object: Decodable {
            let keys: Set<String>
            init(from decoder: any Decoder) throws {
                keys = Set(try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
            }
        }
        struct AnyKey: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let activities: [Object]
    }

    static func options() throws -> SheetPerformOptions {
        var options = SheetPerformOptions(launcher: try #require(SandboxPolicy.launcherNextToExecutable()))
        let exthost = try Executables.exthost()
        options.builtInShareExtension = (exthost, [ExtensionCommand.name])
        options.builtInActionExtension = (exthost, [ExtensionCommand.actionName])
        return options
    }

    // MARK: - Which activities appear

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

    @Test func excludingEveryOtherTypeLeavesAirDropOnly() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try ShareSheet.present(ActivityItems(items: [.text("hi")]), on: DeviceRoot(url: root))
        let others = first.activities.filter { $0.shown && $0.id != "com.apple.UIKit.activity.AirDrop" }
        #expect(others.count >= 3)
        let quoted = others.map { "\"\($0.activityType ?? $0.id)\"" }.joined(separator: ", ")
        let manifest = try Self.manifest(
            #"{"items": [{"text": "hi"}], "excludedActivityTypes": ["# + quoted + "]}", in: root)
        let (code, out, err) = await TestSupport.run(
            ["sheet", "--activity-items", manifest.path, "--json"], root: root)
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(SheetReport.self, from: Data(out.utf8))
        let shown = report.activities.filter(\.shown).map(\.id)
        #expect(shown == ["com.apple.UIKit.activity.AirDrop"])
        let excluded = report.activities.filter { $0.reason.hasPrefix("excluded:") }
        #expect(excluded.count == others.count)
        // Every key is written, a missing value as null (a system activity has no bundle identifier).
        let written = try JSONDecoder().decode(WrittenKeys.self, from: Data(out.utf8)).activities
        #expect(written.count == report.activities.count)
        for key in ["kind", "id", "title", "bundleIdentifier", "shown", "reason"] {
            #expect(written.allSatisfy { $0.keys.contains(key) }, "every activity has \(key)")
        }
        #expect(out.contains(#""bundleIdentifier": null"#), "present, as null")
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

    // MARK: - What extensions receive

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

    // MARK: - The preview header

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

    // MARK: - Choosing an activity

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
        options.extensionExecutable = AppleAPITests.probe
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

    @Test func copyToAnAppDeliversIntoItsInboxAndTheAppKeepsEachCopy() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let pdf = Self.demoItems.appendingPathComponent("menu.pdf")
        var delivered: [String] = []
        for _ in 0..<2 {
            let (code, out, err) = await TestSupport.run(
                ["sheet", pdf.path, "--perform", "copy-to:com.example.reader", "--json"], root: root)
            #expect(code == .success, "\(err)")
            let performance = try JSONDecoder().decode(SheetPerformance.self, from: Data(out.utf8))
            let completion = performance.completion
            #expect(completion.activityType == "com.apple.UIKit.activity.RemoteOpenInApplication-ByCopy")
            #expect(completion.returnedItems == nil && out.contains(#""returnedItems": null"#), "present, as null")
            delivered += performance.delivered ?? []
        }
        // Each copy lands in the Inbox; Reader (the built-in app, launched cold each time) moves it out
        // into Documents/Received, where the second becomes menu-1.pdf.
        #expect(delivered.map { URL(fileURLWithPath: $0).lastPathComponent } == ["menu.pdf", "menu.pdf"])
        #expect(delivered.allSatisfy { $0.contains("/Documents/Inbox/") })
        let documents = URL(fileURLWithPath: delivered[1]).deletingLastPathComponent().deletingLastPathComponent()
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: documents.appendingPathComponent("Received").path)
        #expect(kept.sorted() == ["menu-1.pdf", "menu.pdf"])
        #expect(try Data(contentsOf: documents.appendingPathComponent("Received/menu-1.pdf")) == Data(contentsOf: pdf))
    }

    @Test func performingAHiddenOrUnknownActivityIsRefused() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let pdf = Self.demoItems.appendingPathComponent("menu.pdf").path
        let (hidden, _, hiddenError) = await TestSupport.run(
            ["sheet", pdf, "--perform", "com.example.uppercase.Action"], root: root)
        #expect(hidden == .no)
        #expect(hiddenError.contains("is not shown"), "\(hiddenError)")
        let (unknown, _, unknownError) = await TestSupport.run(["sheet", pdf, "--perform", "nope"], root: root)
        #expect(unknown == .usage)
        #expect(unknownError.contains("no activity nope"), "\(unknownError)")
        let (dismissed, out, _) = await TestSupport.run(["sheet", pdf, "--perform", "cancel"], root: root)
        #expect(dismissed == .success)
        #expect(out.contains("activityType: nil, completed: false"), "\(out)")
    }

    // MARK: - Bad input

    @Test func aMalformedManifestNamesItsLineAndColumn() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let manifest = try Self.manifest("{\n  \"items\": [\n    {\"text\": 12}\n  ]\n}\n", in: root)
        let (code, out, err) = await TestSupport.run(["sheet", "--activity-items", manifest.path], root: root)
        #expect(code == .usage)
        #expect(out.isEmpty)
        #expect(err.contains("\(manifest.path):3:"), "\(err)")
        let broken = try Self.manifest("{\"items\": [\n  {\"url\": \"https://x\"},\n  ]", in: root)
        let (brokenCode, _, brokenError) = await TestSupport.run(
            ["sheet", "--activity-items", broken.path], root: root)
        #expect(brokenCode == .usage)
        #expect(brokenError.contains("\(broken.path):3:"), "\(brokenError)")
    }
}
