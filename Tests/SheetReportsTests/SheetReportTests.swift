import Foundation
import SheetReports
import Testing

/// The sheet's report as `exthost sheet --json` and `UIActivityViewController.sheet(on:)` give it:
/// every key written (a missing value as null), an activity's type defaulting to its id.
struct SheetReportTests {
    static let report = SheetReport(
        activities: [
            SheetActivity(
                kind: "system", id: "com.apple.UIKit.activity.AirDrop", title: "AirDrop", shown: true,
                reason: "it takes every item", section: "app-row"),
            SheetActivity(
                kind: "app", id: "copy-to:com.example.reader", title: "Copy to Reader",
                activityType: "com.apple.UIKit.activity.RemoteOpenInApplication-ByCopy",
                bundleIdentifier: "com.example.reader", shown: false, reason: "no document type", section: "app-row"),
        ],
        preview: SheetPreview(title: "menu.pdf", image: "thumbnail", decidedBy: "item 0: a file"),
        items: [SheetItem(index: 0, itemClass: "URL", registeredTypeIdentifiers: ["com.adobe.pdf"])])

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func everyKeyIsWrittenAndAMissingValueIsNull() throws {
        let json = try Self.object(try JSONEncoder().encode(Self.report))
        let activities = try #require(json["activities"] as? [[String: Any]])
        #expect(
            Set(activities[0].keys) == [
                "kind", "id", "title", "activityType", "bundleIdentifier", "shown", "reason", "section",
            ], "explanation is left out when there is none")
        #expect(activities[0]["bundleIdentifier"] is NSNull)
        #expect(activities[0]["activityType"] as? String == "com.apple.UIKit.activity.AirDrop", "the id by default")
        #expect(activities[1]["activityType"] as? String == "com.apple.UIKit.activity.RemoteOpenInApplication-ByCopy")
        let preview = try #require(json["preview"] as? [String: Any])
        #expect(Set(preview.keys) == ["title", "subtitle", "image", "decidedBy", "updatedTitle"])
        #expect(preview["subtitle"] is NSNull && preview["updatedTitle"] is NSNull)
    }

    @Test func theReportDecodesFromWhatItWrites() throws {
        let decoded = try JSONDecoder().decode(SheetReport.self, from: try JSONEncoder().encode(Self.report))
        #expect(
            decoded.activities
                == Self.report.activities.enumerated().map { index, activity in
                    var written = activity
                    written.activityType = activity.activityType ?? activity.id
                    return written
                })
        #expect(decoded.preview == Self.report.preview)
        #expect(decoded.items == Self.report.items)
    }
}
