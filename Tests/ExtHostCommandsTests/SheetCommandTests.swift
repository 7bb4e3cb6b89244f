import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Payloads
import ShareSheet
import SheetReports
import Testing

@testable import ExtHostCommands

/// `exthost sheet` on the demo device: excluded types, its JSON, performing an activity, bad input.
@Suite(.timeLimit(.minutes(3)))
struct SheetCommandTests {
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

    // MARK: - Choosing an activity

    @Test func copyToAnAppDeliversIntoItsInboxAndTheAppKeepsEachCopy() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let pdf = Self.demoItems.appendingPathComponent("menu.pdf")
        // The sharing app is of Reader's team the second time: Reader is told who sent it.
        for (bundle, identifier) in [("Reader", "com.example.reader"), ("Sharer", "com.example.sharer")] {
            if bundle == "Sharer" { try TestSupport.installApp(bundle, identifier, on: root, [:]) }
            try PropertyListSerialization.data(
                fromPropertyList: ["application-identifier": "ABCDE12345.\(identifier)"], format: .xml, options: 0
            ).write(to: root.appendingPathComponent("Bundles/\(bundle).app/\(bundle).entitlements"))
        }
        var delivered: [String] = []
        for (index, from) in [["--from", "com.example.stranger"], ["--from", "com.example.sharer"]].enumerated() {
            let (code, out, err) = await TestSupport.run(
                ["sheet", pdf.path, "--perform", "copy-to:com.example.reader", "--json"] + from, root: root)
            #expect(code == .success, "\(err)")
            let performance = try JSONDecoder().decode(SheetPerformance.self, from: Data(out.utf8))
            #expect(performance.app?.sourceApplication == (index == 0 ? nil : "com.example.sharer"), "\(out)")
            if index == 0 { #expect(out.contains(#""sourceApplication": null"#), "present, as null: \(out)") }
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
        // With --json the refusal is one JSON object on standard output (exit 3 still).
        let (hiddenJSON, json, _) = await TestSupport.run(
            ["sheet", pdf, "--perform", "com.example.uppercase.Action", "--json"], root: root)
        #expect(hiddenJSON == .no)
        let notShown = try TestSupport.decode(ActivityNotShown.self, json)
        #expect(notShown.activity == "com.example.uppercase.Action" && !notShown.shown)
        #expect(notShown.error.contains("is not shown"), "\(json)")
        let (unknown, _, unknownError) = await TestSupport.run(["sheet", pdf, "--perform", "nope"], root: root)
        #expect(unknown == .usage)
        #expect(unknownError.contains("no activity nope"), "\(unknownError)")
        let (dismissed, out, _) = await TestSupport.run(["sheet", pdf, "--perform", "cancel"], root: root)
        #expect(dismissed == .success)
        #expect(out.contains("activityType: nil, completed: false"), "\(out)")
    }

    @Test func performingAnApplicationActivityNamesItsKindWithTheRightArticle() async throws {
        let root = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let manifest = try Self.manifest(
            #"{"items": [{"url": "https://example.com"}], "applicationActivities": "#
                + #"[{"type": "com.example.favorite", "title": "Favorite", "accepts": ["url"]}]}"#, in: root)
        let (code, _, err) = await TestSupport.run(
            ["sheet", "--activity-items", manifest.path, "--perform", "com.example.favorite"], root: root)
        #expect(code == .usage)
        #expect(err.contains("Favorite is an app activity"), "\(err)")
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
