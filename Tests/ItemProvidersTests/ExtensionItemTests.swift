import ExtensionIPC
import Foundation
import ItemProviders
import Synchronization
import Testing

struct ExtensionItemTests {
    @Test func settingUserInfoAfterwardsOverridesTheThreeViews() {
        let item = ExtensionItem(
            attachments: [ItemProvider(object: "a")], attributedTitle: "Title", attributedContentText: "Body")
        #expect(item.userInfo?[ExtensionItem.attributedTitleKey] as? String == "Title")
        #expect(item.userInfo?[ExtensionItem.attachmentsKey] as? Int == 1)
        item.userInfo = [ExtensionItem.attributedContentTextKey: "Replaced", "custom": 7]
        #expect(item.attachments == nil)
        #expect(item.attributedTitle == nil)
        #expect(item.attributedContentText == "Replaced")
        #expect(item.userInfo?["custom"] as? Int == 7)
        item.attachments = [ItemProvider(object: "b")]
        #expect(item.attachments?.count == 1)
    }

    @Test func completeRequestEndsTheRequestOnce() async {
        let context = ExtensionContext(inputItems: [ExtensionItem(attachments: [ItemProvider(object: "x")])])
        #expect(context.inputItems.count == 1)
        #expect(!context.isFinished)
        context.completeRequest(returningItems: [])
        context.completeRequest(returningItems: nil)
        context.cancelRequest(withError: ItemProviderError(.unknown, "late"))
        let outcome = await context.outcome()
        guard case .completed(let count, _) = outcome else {
            Issue.record("expected completed, got \(outcome)")
            return
        }
        #expect(count == 0)
        #expect(context.diagnostics.count == 2)
    }

    @Test func cancelRequestReachesTheOwner() async {
        let context = ExtensionContext(inputItems: [])
        let seen = Seen()
        context.onCompletion = { seen.record($0.description) }
        context.cancelRequest(withError: ItemProviderError(.unknown, "user tapped cancel"))
        #expect(await context.outcome().description.contains("user tapped cancel"))
        #expect(seen.values.count == 1)
    }

    @Test func openFailsForShareExtensions() async {
        let context = ExtensionContext(inputItems: [])
        let opened = await withCheckedContinuation { continuation in
            context.open(URL(string: "carddrop://open")!) { continuation.resume(returning: $0) }
        }
        #expect(!opened)
        #expect(context.diagnostics.first?.text.contains("cannot open") == true)
        #expect(context.diagnostics.first?.mistake == .openRefused)
    }
}

final class Seen: Sendable {
    private let storage = Mutex<[String]>([])
    func record(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}
