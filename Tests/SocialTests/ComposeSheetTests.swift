import ExtensionFoundation
import Foundation
import HeadlessScreens
import ItemProviders
import Social
import Testing
import UIKit

/// Xcode's template, with the validation and a configuration item most compose sheets add.
final class TemplateComposeController: SLComposeServiceViewController {
    var limit = 20
    var validations = 0
    var posted = false
    var log: [String] = []
    let audience: SLComposeSheetConfigurationItem = SLComposeSheetConfigurationItem()

    override func viewDidLoad() {
        super.viewDidLoad()
        log.append("viewDidLoad textView=\(textView != nil)")
        placeholder = "Say something"
        audience.title = "Audience"
        audience.value = "Friends"
        audience.tapHandler = { [weak self] in
            guard let self else { return }
            self.pushConfigurationViewController(AudienceViewController(item: self.audience, sheet: self))
        }
    }

    override func isContentValid() -> Bool {
        validations += 1
        let remaining = limit - (contentText?.count ?? 0)
        charactersRemaining = NSNumber(value: remaining)
        return remaining >= 0
    }

    override func didSelectPost() {
        posted = true
        super.didSelectPost()
    }

    override func configurationItems() -> [Any]! {
        log.append("configurationItems")
        return [audience]
    }

    override func presentationAnimationDidFinish() {
        log.append("presentationAnimationDidFinish")
    }
}

/// A configuration controller: a button per choice that sets the item's value and goes back.
final class AudienceViewController: UIViewController {
    let item: SLComposeSheetConfigurationItem
    weak var sheet: SLComposeServiceViewController?

    init(item: SLComposeSheetConfigurationItem, sheet: SLComposeServiceViewController) {
        self.item = item
        self.sheet = sheet
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Audience"
        let everyone = UIButton(type: .system)
        everyone.setTitle("Everyone", for: .normal)
        everyone.addAction(
            UIAction { [weak self] _ in
                self?.item.value = "Everyone"
                self?.sheet?.popConfigurationViewController()
            }, for: .primaryActionTriggered)
        view.addSubview(everyone)
    }
}

/// A compose sheet with its own preview of the attachments.
final class PreviewComposeController: SLComposeServiceViewController {
    override func loadPreviewView() -> UIView! {
        let preview = UIImageView()
        preview.accessibilityIdentifier = "preview"
        return preview
    }
}

/// Suggestions shown while the text ends with "#": a button per tag that completes the text.
final class TagSuggestions: UIViewController {
    weak var sheet: SLComposeServiceViewController?

    override func viewDidLoad() {
        super.viewDidLoad()
        preferredContentSize = CGSize(width: 0, height: 88)
        let tag = UIButton(type: .system)
        tag.setTitle("#swift", for: .normal)
        tag.addAction(
            UIAction { [weak self] _ in
                guard let sheet = self?.sheet else { return }
                sheet.textView.text += "swift"
                sheet.autoCompletionViewController = nil
                sheet.validateContent()
            }, for: .primaryActionTriggered)
        view.addSubview(tag)
    }
}

/// A compose sheet that suggests tags while the person types one.
final class TaggingComposeController: SLComposeServiceViewController {
    let audience: SLComposeSheetConfigurationItem = SLComposeSheetConfigurationItem()

    override func configurationItems() -> [Any]! {
        audience.title = "Audience"
        return [audience]
    }

    override func isContentValid() -> Bool {
        if contentText.hasSuffix("#"), autoCompletionViewController == nil {
            let suggestions = TagSuggestions()
            suggestions.sheet = self
            autoCompletionViewController = suggestions
        }
        return true
    }
}

/// A compose sheet whose Post forgets to end the request.
final class ForgetfulComposeController: SLComposeServiceViewController {
    override func didSelectPost() {}
}

@MainActor
enum ComposeScreen {
    /// A request sharing `text` as the item's content text (what Safari sends as the page title).
    static func context(text: String? = nil) -> NSExtensionContext {
        let item = ExtensionItem(attachments: [], attributedContentText: text)
        return NSExtensionContext(model: ExtensionContext(inputItems: [item]), environment: nil)
    }

    /// The sheet for `controller`, presented and settled.
    static func present(_ controller: UIViewController, context: NSExtensionContext) async -> ExtensionScreen {
        let screen = ExtensionScreen(rootViewController: controller, context: context)
        screen.present()
        await screen.settle()
        return screen
    }

    static func calls(_ screen: ExtensionScreen, _ controller: String) -> [String] {
        screen.lifeCycle.filter { $0.controller == controller }.map(\.call)
    }

    static func node(_ screen: ExtensionScreen, text: String) -> ViewNode? {
        screen.snapshot().allNodes.first { $0.text == text }
    }
}

@MainActor
struct ComposeSheetTests {
    @Test func theSheetAppearsInApplesOrderAndTheDefaultPostCompletesTheRequest() async throws {
        let controller = TemplateComposeController()
        let context = ComposeScreen.context(text: "A page title")
        let screen = await ComposeScreen.present(controller, context: context)
        #expect(
            ComposeScreen.calls(screen, "TemplateComposeController") == [
                "beginRequest(with:)", "loadView()", "viewDidLoad()", "viewWillAppear(false)",
                "viewIsAppearing(false)", "viewDidAppear(false)", "presentationAnimationDidFinish()",
            ])
        #expect(
            controller.log == ["viewDidLoad textView=true", "configurationItems", "presentationAnimationDidFinish"])
        #expect(controller.contentText == "A page title")
        #expect(controller.textView.isFirstResponder, "the text view has the keyboard once the sheet is up")

        // The sheet: a bar with Cancel and Post, the text, the count, the row.
        let snapshot = screen.snapshot()
        let bar = try #require(snapshot.allNodes.first { $0.role == .navigationBar })
        #expect(bar.children.compactMap(\.text) == ["Cancel", "Post"])
        let text = try #require(snapshot.allNodes.first { $0.role == .textView })
        #expect(text.text == "A page title")
        #expect(text.placeholder == "Say something")
        #expect(ComposeScreen.node(screen, text: "8")?.role == .label, "20 - 12 characters remain")
        let row = try #require(ComposeScreen.node(screen, text: "Audience"))
        #expect(row.detail == "Friends")
        #expect(row.tappable == true)

        // No script given: the person taps Post.
        #expect(screen.defaultScript == UIScript.composeSheetDefault)
        let run = await screen.run(screen.defaultScript)
        #expect(run.steps.map(\.outcome) == [.performed])
        await screen.settle()
        #expect(controller.posted)
        #expect(context.model.isFinished)
        guard case .completed(let count, _) = await context.model.outcome() else {
            Issue.record("the default didSelectPost completes the request")
            return
        }
        #expect(count == 0)
        #expect(
            ComposeScreen.calls(screen, "TemplateComposeController").suffix(3) == [
                "viewWillDisappear(true)", "viewDidDisappear(true)", "didSelectPost()",
            ])
        #expect(screen.isClosed)
        #expect(screen.diagnostics().isEmpty, "\(screen.diagnostics())")
    }

    @Test func typingRevalidatesAndPostIsIgnoredWhileContentIsInvalid() async throws {
        let controller = TemplateComposeController()
        controller.limit = 15
        let context = ComposeScreen.context(text: "Short")
        let screen = await ComposeScreen.present(controller, context: context)
        let before = controller.validations
        #expect(ComposeScreen.node(screen, text: "Post")?.enabled == nil, "Post starts enabled")

        let run = await screen.run(try UIScript.parse("type \" and far too long\"\ntap Post"))
        #expect(controller.validations - before == " and far too long".count, "one validation per typed character")
        #expect(controller.contentText == "Short and far too long")
        #expect(run.steps.map(\.outcome) == [.performed, .ignored])
        #expect(run.steps[1].note.contains("isContentValid() returned false"))
        #expect(run.steps[0].screen.allNodes.first { $0.text == "Post" }?.enabled == false)
        #expect(ComposeScreen.node(screen, text: "-7")?.textColor == UIColor.systemRed.hexString)
        #expect(!controller.posted)
        #expect(!context.model.isFinished)
        let diagnostics = screen.diagnostics()
        #expect(diagnostics.map(\.kind) == [.postWhileContentInvalid])
        #expect(diagnostics.first?.line == 2)

        // Code that shortens the text does not re-validate by itself (Apple: isContentValid runs "after
        // each change a user makes"); validateContent() does, and Post works again.
        let typed = controller.validations
        controller.textView.text = "Fine"
        #expect(controller.validations == typed)
        #expect(ComposeScreen.node(screen, text: "Post")?.enabled == false)
        controller.validateContent()
        #expect(ComposeScreen.node(screen, text: "Post")?.enabled == nil)
        let again = await screen.run(UIScript.composeSheetDefault)
        #expect(again.steps.map(\.outcome) == [.performed])
        await screen.settle()
        #expect(controller.posted)
    }

    @Test func aConfigurationRowRunsItsTapHandlerAndTheControllerIsPushed() async throws {
        let controller = TemplateComposeController()
        let screen = await ComposeScreen.present(controller, context: ComposeScreen.context(text: "Hi"))
        let run = await screen.run(try UIScript.parse("tap Audience"))
        #expect(run.steps.map(\.outcome) == [.performed])
        let bar = try #require(run.steps[0].screen.allNodes.first { $0.role == .navigationBar })
        #expect(bar.text == "Audience")
        #expect(bar.children.first?.role == .backButton)
        #expect(
            ComposeScreen.calls(screen, "AudienceViewController").prefix(6) == [
                "willMove(toParent: UINavigationController)", "loadView()", "viewDidLoad()", "viewWillAppear(true)",
                "viewIsAppearing(true)", "viewDidAppear(true)",
            ])

        let back = await screen.run(try UIScript.parse("tap Everyone"))
        #expect(back.steps.map(\.outcome) == [.performed])
        #expect(ComposeScreen.node(screen, text: "Audience")?.detail == "Everyone")
        #expect(controller.textView.isFirstResponder, "back on the sheet, the text view has the keyboard again")
        #expect(
            ComposeScreen.calls(screen, "AudienceViewController").suffix(2) == [
                "viewDidDisappear(true)", "didMove(toParent: nil)",
            ])

        // A pending value shows a spinner instead.
        controller.audience.valuePending = true
        let row = try #require(ComposeScreen.node(screen, text: "Audience"))
        #expect(row.detail == nil)
        #expect(row.children.contains { $0.role == .activityIndicator && $0.animating == true })

        // reloadConfigurationItems asks again.
        controller.reloadConfigurationItems()
        #expect(controller.log.filter { $0 == "configurationItems" }.count == 2)
        #expect(screen.diagnostics().isEmpty, "\(screen.diagnostics())")
    }

    @Test func cancelCancelsTheRequestWithNSUserCancelledError() async throws {
        let controller = TemplateComposeController()
        let context = ComposeScreen.context(text: "Hi")
        let screen = await ComposeScreen.present(controller, context: context)
        let run = await screen.run(try UIScript.parse("tap Cancel"))
        #expect(run.steps.map(\.outcome) == [.performed])
        await screen.settle()
        guard case .cancelled(let error) = await context.model.outcome() else {
            Issue.record("Cancel cancels the request")
            return
        }
        let code = (error as? ItemProviderError)?.code
        #expect(code == ItemProviderError.Code(domain: NSCocoaErrorDomain, rawValue: NSUserCancelledError))
        #expect(ComposeScreen.calls(screen, "TemplateComposeController").last == "didSelectCancel()")
        #expect(!controller.posted)
        #expect(screen.diagnostics().isEmpty, "\(screen.diagnostics())")
    }

    @Test func anOverriddenPreviewIsShownBesideTheText() async throws {
        let plain = await ComposeScreen.present(TemplateComposeController(), context: ComposeScreen.context())
        let fullWidth = try #require(plain.snapshot().allNodes.first { $0.role == .textView }).frame.width
        let screen = await ComposeScreen.present(PreviewComposeController(), context: ComposeScreen.context())
        let nodes = screen.snapshot().allNodes
        let preview = try #require(nodes.first { $0.identifier == "preview" })
        let text = try #require(nodes.first { $0.role == .textView })
        #expect(preview.role == .image && preview.frame.width == 80)
        #expect(text.frame.width == fullWidth - 88)
        #expect(text.frame.x + text.frame.width <= preview.frame.x)
    }

    @Test func anAutocompletionControllerShowsInPlaceOfTheRows() async throws {
        let controller = TaggingComposeController()
        let screen = await ComposeScreen.present(controller, context: ComposeScreen.context(text: "Hello"))
        #expect(ComposeScreen.node(screen, text: "Audience")?.tappable == true)
        let run = await screen.run(try UIScript.parse("type \" #\"\ntap \"#swift\""))
        #expect(run.steps.map(\.outcome) == [.performed, .performed], "\(run.steps.map(\.note))")
        let during = run.steps[0].screen
        #expect(during.allNodes.first { $0.text == "Audience" }?.hidden == true)
        #expect(during.allNodes.first { $0.text == "#swift" }?.tappable == true)
        #expect(
            ComposeScreen.calls(screen, "TagSuggestions").prefix(6) == [
                "willMove(toParent: ComposeSheetContent)", "loadView()", "viewDidLoad()", "viewWillAppear(false)",
                "viewIsAppearing(false)", "viewDidAppear(false)",
            ])
        // The tag completed the text and the suggestions went: the rows are back.
        #expect(controller.contentText == "Hello #swift")
        #expect(controller.autoCompletionViewController == nil)
        #expect(ComposeScreen.node(screen, text: "#swift") == nil)
        #expect(ComposeScreen.node(screen, text: "Audience")?.tappable == true)
        #expect(ComposeScreen.calls(screen, "TagSuggestions").suffix(1) == ["didMove(toParent: nil)"])
    }

    @Test func aPostThatNeverEndsTheRequestIsReported() async throws {
        let controller = ForgetfulComposeController()
        let context = ComposeScreen.context(text: "Hi")
        let screen = await ComposeScreen.present(controller, context: context)
        _ = await screen.run(screen.defaultScript)
        await screen.settle()
        #expect(!context.model.isFinished)
        let diagnostics = screen.diagnostics()
        #expect(diagnostics.map(\.kind) == [.requestNeverCompleted])
        #expect(diagnostics.first?.message.contains("Post was tapped") == true)
    }

    @Test func aConfigurationItemChangedOffTheMainThreadIsReported() async throws {
        let controller = TemplateComposeController()
        let screen = await ComposeScreen.present(controller, context: ComposeScreen.context(text: "Hi"))
        let item = SendableBox(controller.audience)
        await Task.detached { item.value.value = "Later" }.value
        await screen.settle()
        #expect(ComposeScreen.node(screen, text: "Audience")?.detail == "Later", "the row catches up on the main queue")
        let diagnostics = screen.diagnostics()
        #expect(diagnostics.map(\.kind) == [.offMainThread])
        #expect(diagnostics.first?.message.contains("SLComposeSheetConfigurationItem.value") == true)
    }
}

/// Carries a non-Sendable object to another thread on purpose (the test of what UIKit reports then).
final class SendableBox<Value: AnyObject>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
