import ExtHostTestSupport
import Foundation
import LinkPresentation
import Testing
import UIKit

/// The sharing app's side, written with Apple's names: an item source with `LPLinkMetadata`,
/// excluded types, an app activity, and a performed action extension whose returned items reach
/// `completionWithItemsHandler`.
@Suite(.timeLimit(.minutes(3)))
@MainActor
struct UIActivityViewControllerTests {
    final class ArticleSource: UIActivityItemSource {
        let link = URL(string: "https://example.com/article") ?? URL(fileURLWithPath: "/")
        let metadata: LPLinkMetadata

        init(title: String) {
            metadata = LPLinkMetadata()
            metadata.originalURL = link
            metadata.url = link
            metadata.title = title
        }

        func activityViewControllerPlaceholderItem(_ activityViewController: UIActivityViewController) -> Any { link }
        func activityViewController(
            _ activityViewController: UIActivityViewController,
            itemForActivityType activityType: UIActivity.ActivityType?
        ) -> Any? { link }
        func activityViewControllerLinkMetadata(_ activityViewController: UIActivityViewController) -> LPLinkMetadata? {
            metadata
        }
    }

    final class FavoriteActivity: UIActivity, @unchecked Sendable {
        override var activityType: UIActivity.ActivityType? { UIActivity.ActivityType("com.example.favorite") }
        override var activityTitle: String? { "Favorite" }
        override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
            activityItems.contains { $0 is URL || $0 is any UIActivityItemSource }
        }
    }

    @Test func linkMetadataFromAnItemSourceDecidesTheHeaderAndUpdatesIt() throws {
        let root = try TestSupport.scratchRoot("uikit")
        defer { try? FileManager.default.removeItem(at: root) }
        let link = try #require(URL(string: "https://example.com/article"))
        let plain = UIActivityViewController(activityItems: [link, "Read this"], applicationActivities: nil)
        #expect(try plain.sheet(on: root).preview.title == "Read this")

        let source = ArticleSource(title: "The Article")
        let controller = UIActivityViewController(
            activityItems: [source, "Read this"], applicationActivities: [FavoriteActivity()])
        controller.excludedActivityTypes = [.mail, .print]
        let sheet = try controller.sheet(on: root)
        #expect(sheet.preview.title == "The Article")
        #expect(sheet.activities.first { $0.id == "com.example.favorite" }?.shown == true)
        #expect(sheet.activities.first { $0.id == UIActivity.ActivityType.mail.rawValue }?.shown == false)
        source.metadata.title = "The Article, fetched"
        #expect(
            try controller.sheet(on: root).preview.title == "The Article, fetched", "the same object, changed later")
    }

    @Test func aPerformedActionExtensionsItemsReachTheCompletionHandler() async throws {
        let root = try TestSupport.scratchRoot("uikit")
        defer { try? FileManager.default.removeItem(at: root) }
        let controller = UIActivityViewController(activityItems: ["make me loud"], applicationActivities: nil)
        var received: (String?, Bool, [Any]?, (any Error)?)?
        controller.completionWithItemsHandler = { type, completed, items, error in
            received = (type?.rawValue, completed, items, error)
        }
        try await controller.perform(UIActivity.ActivityType("com.example.uppercase.Action"), on: root)
        let (type, completed, items, error) = try #require(received)
        #expect(type == "com.example.uppercase.Action")
        #expect(completed)
        #expect(error == nil)
        let item = try #require(items?.first as? NSExtensionItem)
        #expect(item.attributedTitle?.string == "Uppercased")
        let provider = try #require(item.attachments?.first)
        let text = try await provider.loadItem(forTypeIdentifier: "public.plain-text")
        #expect(text as? String == "MAKE ME LOUD")

        try await controller.perform(nil, on: root)
        #expect(received?.0 == nil && received?.1 == false, "dismissed without choosing")
    }
}
