// Pasteboard code as iOS apps write it, in Swift 5 language mode with only `import UIKit`: a
// "Copy link" button's action, a paste that checks `hasURLs` first, and `setItems` with options.
import UIKit
import XCTest

final class CopyLinkTests: XCTestCase {
    func copyLink(_ link: URL) {
        UIPasteboard.general.url = link
    }

    func pastedLink() -> URL? {
        guard UIPasteboard.general.hasURLs else { return nil }
        return UIPasteboard.general.url
    }

    func testCopyThenPasteALinkAndAnExpiringCode() {
        let before = UIPasteboard.general.changeCount
        // swift-format-ignore: NeverForceUnwrap
        copyLink(URL(string: "https://example.com/invite/42")!)
        XCTAssertEqual(pastedLink()?.absoluteString, "https://example.com/invite/42")
        UIPasteboard.general.setItems(
            [["public.utf8-plain-text": "123456"]],
            options: [.localOnly: true, .expirationDate: Date().addingTimeInterval(60)])
        XCTAssertEqual(UIPasteboard.general.string, "123456")
        XCTAssertNil(pastedLink())
        XCTAssertEqual(UIPasteboard.general.changeCount, before + 2)
    }
}
