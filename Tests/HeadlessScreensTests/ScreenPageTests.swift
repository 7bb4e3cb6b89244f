import Foundation
import HeadlessScreens
import Testing

/// The screens report (`exthost ui --html`, and the JSON form of a screen): what each kind of view
/// shows, images carried as base64 thumbnails, diagnostics and the life cycle listed, text escaped.
struct ScreenPageTests {
    static func node(
        _ type: String, _ role: ViewNode.Role, text: String? = nil, _ configure: (inout ViewNode) -> Void = { _ in }
    ) -> ViewNode {
        var node = ViewNode(type: type, role: role, text: text)
        configure(&node)
        return node
    }

    /// One screen with a view of every kind the page draws differently.
    static let screen: ScreenSnapshot = {
        let field = node("UITextField", .textField, text: "") {
            $0.placeholder = "Title"
            $0.firstResponder = true
        }
        let secret = node("UITextField", .textField, text: "hunter2") { $0.secure = true }
        let textView = node("UITextView", .textView, text: "Notes <b>")
        let picture = node("UIImageView", .image) {
            $0.image = ViewNode.Image(width: 40, height: 20, scale: 2, thumbnailPNG: [0x89, 0x50, 0x4E, 0x47, 1])
        }
        let missing = node("UIImageView", .image)
        let progress = node("UIProgressView", .progress) { $0.progress = 0.25 }
        let spinner = node("UIActivityIndicatorView", .activityIndicator) { $0.animating = true }
        let cell = node("UITableViewCell", .cell, text: "Row") { $0.detail = "Detail" }
        let control = node("SLComposeSheetConfigurationItem", .control, text: "Account") { $0.detail = "alice" }
        let back = node("UIButton", .backButton, text: "Back") { $0.accessibilityLabel = "Go back" }
        let bar = node("UINavigationBar", .navigationBar, text: "Share") { $0.children = [back] }
        let root = node("UIView", .view) {
            $0.frame = ViewNode.Frame(x: 0, y: 0, width: 393, height: 600)
            $0.background = "#FFFFFF"
            $0.font = "Helvetica 17 bold"
            $0.children = [bar, field, secret, textView, picture, missing, progress, spinner, cell, control]
        }
        let alert = node("UIView", .alert, text: "Saved") {
            $0.detail = "Open the app?"
            $0.children = [node("UIAlertAction", .alertAction, text: "OK") { $0.tappable = true }]
        }
        return ScreenSnapshot(
            width: 393, height: 852,
            layers: [
                .init(kind: .sheet, controller: "ShareViewController", presentationStyle: "fullScreen", root: root),
                .init(
                    kind: .alert, controller: "UIAlertController", title: "Saved", message: "Open the app?", root: alert
                ),
            ])
    }()

    @Test func everyKindOfViewIsDrawn() throws {
        let closed = ScreenSnapshot(width: 393, height: 852, layers: [], closed: true)
        let page = ScreenPage.render(
            title: "Share <Extension>",
            entries: [
                .init(caption: "1 · the sheet appeared", screen: Self.screen, note: "a & b"),
                .init(caption: "2 · closed", screen: closed),
            ],
            lifeCycle: [LifeCycleEvent(controller: "ShareViewController", call: "viewDidLoad()")],
            diagnostics: [
                UIDiagnostic(kind: .tapIgnored, message: "Post is disabled", callSite: "f() at A.swift:3", line: 4)
            ])
        #expect(page.contains("<title>Share &lt;Extension&gt;</title>"))
        #expect(page.contains(#"<p class="note">a &amp; b</p>"#))
        #expect(
            page.contains(#"<span class="ph">Title</span><span class="caret"></span>"#), "empty field: its placeholder")
        #expect(page.contains(">•••••••</div>"), "a secure field shows dots, never its text")
        #expect(!page.contains(">hunter2<"))
        #expect(page.contains("Notes &lt;b&gt;"))
        #expect(page.contains(#"src="data:image/png;base64,iVBORwE=""#))
        #expect(page.contains(#"<span class="noimage">no image</span>"#))
        #expect(page.contains(#"<progress max="1" value="0.25"></progress>"#))
        #expect(page.contains(#"<span class="spinner"></span>"#))
        #expect(page.contains(#"<div class="celltext">Row<small>Detail</small></div>"#))
        #expect(page.contains(#"<span class="title">Account</span><span class="value">alice</span>"#))
        #expect(page.contains(#"<div class="bar-title">Share</div>"#) && page.contains("<span>‹ Back</span>"))
        #expect(page.contains(#"<div class="alert-title">Saved</div><div class="alert-message">Open the app?</div>"#))
        #expect(page.contains(#"class="layer full""#) && page.contains(#"class="layer scrim over alert""#))
        #expect(
            page.contains("font-size:17px") && page.contains("font-weight:600") && page.contains("min-height:600px"))
        #expect(page.contains(#"<div class="empty">The extension's sheet has closed.</div>"#))
        #expect(
            page.contains(
                #"<li data-kind="tapIgnored">Post is disabled (at f() at A.swift:3) [script line 4]</li>"#))
        #expect(page.contains("<li>ShareViewController.viewDidLoad()</li>"))
    }

    /// The thumbnail travels as standard base64 in the JSON (every padding length), and back.
    @Test(arguments: 0...5) func anImagesThumbnailRoundTripsAsBase64(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 97 + 250) }
        let image = ViewNode.Image(width: 3, height: 4, scale: 2, thumbnailPNG: bytes)
        let json = try JSONEncoder().encode(image)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["thumbnailPNG"] as? String == Data(bytes).base64EncodedString())
        #expect(try JSONDecoder().decode(ViewNode.Image.self, from: json) == image)
        let without = try JSONEncoder().encode(ViewNode.Image(width: 3, height: 4, scale: 1))
        #expect(try JSONDecoder().decode(ViewNode.Image.self, from: without).thumbnailPNG == nil)
    }

    @Test func aThumbnailThatIsNotBase64IsDropped() throws {
        let json = Data(#"{"width": 1, "height": 1, "scale": 1, "thumbnailPNG": "not*base64"}"#.utf8)
        let image = try JSONDecoder().decode(ViewNode.Image.self, from: json)
        #expect(image.width == 1 && image.thumbnailPNG == nil)
    }

    @Test func diagnosticsAndLinesSayWhereAndHowOften() {
        let once = UIDiagnostic(kind: .offMainThread, message: "label.text set off the main thread")
        #expect(once.description == "label.text set off the main thread")
        let often = UIDiagnostic(
            kind: .offMainThread, message: "label.text set off the main thread", callSite: "load() at V.swift:9",
            line: 2, count: 3)
        #expect(often.description == "label.text set off the main thread (at load() at V.swift:9) [script line 2] ×3")
        let button = Self.node("UIButton", .button, text: "Post") {
            $0.accessibilityLabel = "Send"
            $0.image = ViewNode.Image(width: 24, height: 24.5, scale: 3)
        }
        #expect(button.line == #"button "Post" label "Send" image 24×24.5@3x"#)
    }

    @Test func entriesFollowTheScriptsSteps() throws {
        let script = try UIScript.parse("tap Post\nwait")
        let run = ScriptRun(
            initialScreen: Self.screen,
            steps: [
                .init(step: script.steps[0], outcome: .ignored, note: "disabled", screen: Self.screen),
                .init(step: script.steps[1], outcome: .performed, note: "", screen: Self.screen),
            ])
        let entries = ScreenPage.entries(of: run)
        #expect(
            entries.map(\.caption) == ["1 · the sheet appeared", "2 · line 1: tap Post (ignored)", "3 · line 2: wait"])
        #expect(entries[1].note == "disabled")
    }
}
