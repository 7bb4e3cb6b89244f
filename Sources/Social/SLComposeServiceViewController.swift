import ExtensionFoundation
import ExtensionIPC
public import Foundation
import HeadlessScreens
public import UIKit

/// `SLComposeServiceViewController`: the standard compose sheet of a share extension — Xcode's
/// share-extension template subclasses it. Apple: "The compose view controller gets items for the
/// content and preview areas from the extensionContext property of the extension's
/// NSExtensionContext object"
/// (https://developer.apple.com/documentation/social/slcomposeserviceviewcontroller).
///
/// Headless, the sheet is a card with a navigation bar (Cancel, the title, Post), the editable
/// ``textView`` filled with the shared item's content text, the characters-remaining count when
/// ``charactersRemaining`` is set, and a row per configuration item. The flow is Apple's:
///
/// 1. `beginRequest(with:)`, `loadView` (which makes ``textView``), `viewDidLoad`; the
///    configuration items are asked for; `viewWillAppear`, `viewIsAppearing`, `viewDidAppear`; the
///    text view takes the keyboard, the content is validated, then ``presentationAnimationDidFinish()``.
/// 2. Each change the person types calls ``isContentValid()`` again (through ``validateContent()``);
///    Post is disabled while it returns `false` — a tap on it then does nothing, and the report says
///    why. Code that changes the text or what validation reads calls ``validateContent()`` itself.
/// 3. Post: the sheet animates away (`viewWillDisappear`, `viewDidDisappear`), then
///    ``didSelectPost()`` runs; Cancel (or ``cancel()``): the same, then ``didSelectCancel()``.
///
/// With no `--ui` script the scripted user taps Post, as the person sharing usually does.
@preconcurrency @MainActor
open class SLComposeServiceViewController: UIViewController, UITextViewDelegate {
    private var sheetNavigation: UINavigationController?
    private var sheetContent: ComposeSheetContent?
    private var storedTextView: UITextView?
    private var itemsLoaded = false
    private var previewLoaded = false
    private var hasAppeared = false
    private var isClosing = false
    private lazy var cancelItem = UIBarButtonItem(
        systemItem: .cancel, primaryAction: UIAction { [weak self] _ in self?.cancel() })
    private lazy var postItem: UIBarButtonItem = {
        let item = UIBarButtonItem(title: "Post", primaryAction: UIAction { [weak self] _ in self?.postTapped() })
        item.style = .done
        item.disabledTapDiagnostic = .postWhileContentInvalid
        return item
    }()

    /// A compose sheet (its view is made by ``loadView()``).
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
        setUpSheet()
    }

    /// A compose sheet made as iOS makes an extension's principal class or a storyboard's scene.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUpSheet()
    }

    private func setUpSheet() {
        defaultUserScript = .composeSheetDefault
        beforeAppearing = { [weak self] in self?.sheetWillAppear() }
        afterAppearing = { [weak self] in self?.sheetDidAppear() }
    }

    // MARK: - The view

    /// Makes the sheet: the card with its navigation bar, the text view and the rows (Apple, on
    /// ``textView``: "the SLComposeServiceViewController base class creates textView in its loadView()
    /// method and sets itself to be the textView delegate"). The text view starts with the shared
    /// item's content text (`attributedContentText` of the first input item: the page title Safari
    /// shares, the text Notes shares). An override that does not call `super` has no sheet, as on iOS.
    open override func loadView() {
        let bounds = UIScreen.main.bounds
        let root = UIView(frame: bounds)
        root.backgroundColor = UIColor(white: 0, alpha: 0.4)
        let card = CGRect(x: 16, y: 96, width: bounds.width - 32, height: ComposeSheetContent.height(rows: 0))
        let textView = UITextView(
            frame: CGRect(x: 16, y: ComposeSheetContent.barHeight + 8, width: card.width - 32, height: 140))
        textView.font = UIFont.systemFont(ofSize: 17)
        textView.placeholderText = placeholder
        textView.text = Self.sharedText(in: extensionContext)
        textView.delegate = self
        textView.textDidChangeHandlers.append { [weak self] in self?.textDidChange() }
        storedTextView = textView

        let content = ComposeSheetContent(size: card.size, textView: textView)
        content.recordsLifeCycle = false
        content.navigationItem.leftBarButtonItem = cancelItem
        content.navigationItem.rightBarButtonItem = postItem
        let navigation = UINavigationController(rootViewController: content)
        navigation.recordsLifeCycle = false
        view = root
        addChild(navigation)
        navigation.view.frame = card
        content.view.frame = CGRect(origin: .zero, size: card.size)
        navigation.view.backgroundColor = .systemBackground
        navigation.navigationBar.frame = CGRect(x: 0, y: 0, width: card.width, height: ComposeSheetContent.barHeight)
        root.addSubview(navigation.view)
        navigation.didMove(toParent: self)
        sheetNavigation = navigation
        sheetContent = content
        if autoCompletionViewController != nil { showAutoCompletion() }
        updateSheetTitle()
        updateCounter()
    }

    /// The text of the first shared item (its `attributedContentText`), if any.
    private static func sharedText(in context: NSExtensionContext?) -> String {
        let items = context?.inputItems.compactMap { $0 as? NSExtensionItem } ?? []
        return items.lazy.compactMap { $0.attributedContentText?.string }.first ?? ""
    }

    // Apple declares these implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The editable text view of the sheet (Apple: "When a user activates a Post or Send button, you
    /// can send their text by sending self.textView.text"); nil until ``loadView()`` made it. It has
    /// the keyboard once the sheet is up, so the scripted user's `type TEXT` types into it.
    open var textView: UITextView! { storedTextView }

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The text in the text view (Apple: "A string that represents the text which the user entered
    /// into the compose view's text view"): the shared item's content text, as edited.
    open var contentText: String! { storedTextView?.text }

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// Shown in the text view while it is empty (Apple: "A string that's displayed in the compose
    /// view's text view when the text view is empty").
    open var placeholder: String! {
        didSet {
            UIKitThread.check("SLComposeServiceViewController.placeholder", self)
            storedTextView?.placeholderText = placeholder
        }
    }

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The count shown under the text (Apple: "Set this property to a non-nil value when you want to
    /// make the character count view appear in the compose view (changing the value redraws the
    /// character count view). The default value of this property is nil"). A negative count shows
    /// in red.
    open var charactersRemaining: NSNumber! {
        didSet {
            UIKitThread.check("SLComposeServiceViewController.charactersRemaining", self)
            updateCounter()
        }
    }

    /// The sheet's title (the navigation bar shows it; the extension's display name when nil).
    open override var title: String? {
        didSet { updateSheetTitle() }
    }

    // MARK: - Validation

    /// Whether the content can be posted (Apple: "This method is automatically called after each
    /// change a user makes to the text in the compose view. You can use this method to determine
    /// whether the Post button should be enabled and to update charactersRemaining, if necessary …
    /// The default return value is true"). Post is disabled while it returns `false`.
    open func isContentValid() -> Bool { true }

    /// Calls ``isContentValid()`` and enables or disables Post with its answer (Apple: "By default,
    /// validateContent calls isContentValid(), performs internal content validation, and updates the
    /// state of the Post button, if necessary. You should call this method if you change any data
    /// that your implementation of isContentValid uses to test for content validity").
    open func validateContent() {
        postItem.isEnabled = isContentValid()
    }

    private func textDidChange() {
        guard hasAppeared, !isClosing else { return }
        validateContent()
    }

    // MARK: - Configuration items

    /// The rows to show under the text (Apple: "An array of SLComposeSheetConfigurationItem objects, or
    /// nil if no configuration items need to be displayed"): asked for once the view is loaded,
    /// before the sheet appears, and again by ``reloadConfigurationItems()``. Nil by default.
    open func configurationItems() -> [Any]! { nil }

    /// Asks ``configurationItems()`` again and shows the rows it returns (Apple: "Reloads the list of
    /// configuration items"). Before the view is loaded it does nothing: the items are asked for when
    /// the sheet appears.
    open func reloadConfigurationItems() {
        guard let sheetContent, let sheetNavigation else { return }
        itemsLoaded = true
        let items = (configurationItems() ?? []).compactMap { $0 as? SLComposeSheetConfigurationItem }
        sheetContent.show(items)
        var frame = sheetNavigation.view.frame
        frame.size.height = sheetContent.view.frame.height
        sheetNavigation.view.frame = frame
    }

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// A view controller shown under the text in place of the configuration rows while it is set
    /// (Apple: "An autocompletion view can appear in place of the list of configuration items, just
    /// below the text view in the compose view. The compose view controller allows only one
    /// autocompletion view controller to be present at a time"); its height is its
    /// `preferredContentSize.height` (three rows' height when that is zero). Setting nil brings the
    /// rows back. It is a child of the sheet and appears and disappears with it.
    open var autoCompletionViewController: UIViewController! {
        didSet {
            UIKitThread.check("SLComposeServiceViewController.autoCompletionViewController", self)
            guard oldValue !== autoCompletionViewController else { return }
            showAutoCompletion()
        }
    }

    private func showAutoCompletion() {
        guard let sheetContent, let sheetNavigation else { return }
        sheetContent.showAutoCompletion(autoCompletionViewController)
        var frame = sheetNavigation.view.frame
        frame.size.height = sheetContent.view.frame.height
        sheetNavigation.view.frame = frame
    }

    /// Shows `viewController` in the sheet, over the text and rows, with a back button (Apple:
    /// "Typically, this method is called in the tap handler for a configuration item … Only one
    /// configuration view controller can be visible at a time"). It gets its life cycle as a pushed
    /// controller does.
    open func pushConfigurationViewController(_ viewController: UIViewController!) {
        guard let viewController, let sheetNavigation else { return }
        sheetNavigation.pushViewController(viewController, animated: true)
    }

    /// Goes back from the configuration view controller to the sheet (Apple: "Dismisses the current
    /// configuration view controller").
    open func popConfigurationViewController() {
        sheetNavigation?.popViewController(animated: true)
    }

    // MARK: - The flow

    /// Called once the sheet is up (Apple: "Implement this method to avoid performing lengthy work
    /// during initialization or the iOS view controller methods viewWillAppear(_:) and
    /// viewDidAppear(_:)"). Does nothing by default.
    open func presentationAnimationDidFinish() {}

    /// Called after Post was tapped and the sheet went away (Apple: "Sent to the compose view after the
    /// post animation finishes … By default, this method calls the completeRequestReturningItems:
    /// method of the associated extensionContext property, passing nil in the items array"). An
    /// override that does not call `super` must end the request itself; a request it never ends is
    /// reported.
    open func didSelectPost() {
        extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
    }

    /// Called after Cancel was tapped (or ``cancel()`` called) and the sheet went away (Apple: "Sent to
    /// the compose view after the cancel animation finishes"): by default it cancels the request with
    /// `NSUserCancelledError` in `NSCocoaErrorDomain`, as the host app sees when the person cancels.
    open func didSelectCancel() {
        extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
    }

    /// Starts the sheet's animated dismissal, then calls ``didSelectCancel()`` (Apple: "When the cancel
    /// animation finishes, this method calls didSelectCancel(). A subclass shouldn't need to override
    /// cancel"). The Cancel button calls it.
    open func cancel() {
        close(because: "the compose sheet was cancelled") { [self] in
            record("didSelectCancel()")
            didSelectCancel()
        }
    }

    private func postTapped() {
        close(because: "Post was tapped") { [self] in
            record("didSelectPost()")
            didSelectPost()
        }
    }

    private func close(because reason: String, then finish: @escaping () -> Void) {
        guard !isClosing else { return }
        isClosing = true
        _ = storedTextView?.resignFirstResponder()
        closeExtensionSheet(because: reason, completion: finish)
    }

    // MARK: - Preview

    // Apple declares it implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The view shown beside the text as the attachments' preview (Apple: "Loads a view that displays a
    /// preview of the attachments in the extension context"); asked for once, before the sheet
    /// appears. An override's view is shown on the right of the text view. Headless, the default
    /// returns nil: exthost draws no thumbnail of the attachments (iOS shows one).
    open func loadPreviewView() -> UIView! { nil }

    private func sheetWillAppear() {
        if !itemsLoaded { reloadConfigurationItems() }
        if !previewLoaded {
            previewLoaded = true
            if let preview = loadPreviewView() { sheetContent?.showPreview(preview) }
        }
        updateSheetTitle()
    }

    private func sheetDidAppear() {
        guard !hasAppeared else { return }
        hasAppeared = true
        _ = storedTextView?.becomeFirstResponder()
        validateContent()
        record("presentationAnimationDidFinish()")
        presentationAnimationDidFinish()
    }

    private func updateSheetTitle() {
        sheetContent?.navigationItem.title = title ?? Self.extensionDisplayName
    }

    private func updateCounter() {
        sheetContent?.showCounter(charactersRemaining?.intValue)
    }

    /// The extension's `CFBundleDisplayName` (else `CFBundleName`): the title iOS gives the sheet.
    private static var extensionDisplayName: String? {
        guard let path = ProcessIdentity.environment?.bundlePath, let bundle = Bundle(path: path) else { return nil }
        return bundle.object(forInfoDictionaryKey: "CFBundleDisplayName") as? String
            ?? bundle.object(forInfoDictionaryKey: "CFBundleName") as? String
    }
}

/// The sheet's own content controller, under the navigation bar: the text view, the count, the rows.
@MainActor
final class ComposeSheetContent: UIViewController {
    static let barHeight: CGFloat = 44
    static let rowHeight: CGFloat = 44
    private static let rowsTop: CGFloat = barHeight + 180

    /// The card's height with `rows` configuration rows.
    static func height(rows: Int) -> CGFloat { rowsTop + CGFloat(rows) * rowHeight + 8 }

    private let size: CGSize
    private let textView: UITextView
    private let counter = UILabel()
    private var rows: [ConfigurationRow] = []
    private var autoCompletion: UIViewController?

    init(size: CGSize, textView: UITextView) {
        self.size = size
        self.textView = textView
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func loadView() {
        view = UIView(frame: CGRect(origin: .zero, size: size))
        view.addSubview(textView)
        counter.frame = CGRect(x: size.width - 76, y: Self.barHeight + 152, width: 60, height: 20)
        counter.textAlignment = .right
        counter.font = UIFont.systemFont(ofSize: 15)
        counter.accessibilityIdentifier = "charactersRemaining"
        counter.isHidden = true
        view.addSubview(counter)
    }

    /// The text view takes the keyboard whenever the sheet's content shows — when the sheet appears,
    /// and when a configuration view controller is popped.
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        _ = textView.becomeFirstResponder()
    }

    /// Shows `remaining` under the text (hidden when nil; red when negative).
    func showCounter(_ remaining: Int?) {
        loadViewIfNeeded()
        counter.isHidden = remaining == nil
        counter.text = remaining.map(String.init)
        counter.textColor = (remaining ?? 0) < 0 ? .systemRed : .secondaryLabel
    }

    /// Shows `preview` on the right of the text view, which gets narrower.
    func showPreview(_ preview: UIView) {
        loadViewIfNeeded()
        let side: CGFloat = 80
        preview.frame = CGRect(x: size.width - 16 - side, y: Self.barHeight + 8, width: side, height: side)
        textView.frame.size.width = max(0, size.width - 32 - side - 8)
        view.addSubview(preview)
    }

    /// Replaces the rows with one per item.
    func show(_ items: [SLComposeSheetConfigurationItem]) {
        loadViewIfNeeded()
        for row in rows {
            row.removeFromSuperview()
            if row.item.link.row === row { row.item.link.row = nil }
        }
        rows = items.enumerated().map { index, item in
            ConfigurationRow(
                item: item,
                frame: CGRect(
                    x: 0, y: Self.rowsTop + CGFloat(index) * Self.rowHeight, width: size.width, height: Self.rowHeight))
        }
        for row in rows {
            row.isHidden = autoCompletion != nil
            view.addSubview(row)
        }
        layOut()
    }

    /// Shows `controller`'s view in place of the rows (nil: the rows again).
    func showAutoCompletion(_ controller: UIViewController?) {
        loadViewIfNeeded()
        if let old = autoCompletion {
            old.willMove(toParent: nil)
            old.viewIfLoaded?.removeFromSuperview()
            old.removeFromParent()
        }
        autoCompletion = controller
        for row in rows { row.isHidden = controller != nil }
        if let controller {
            addChild(controller)
            let preferred = controller.preferredContentSize.height
            controller.view.frame = CGRect(
                x: 0, y: Self.rowsTop, width: size.width, height: preferred > 0 ? preferred : 3 * Self.rowHeight)
            view.addSubview(controller.view)
            controller.didMove(toParent: self)
        }
        layOut()
    }

    /// The card's height: the rows', or the autocompletion view's in their place.
    private func layOut() {
        let below = autoCompletion?.viewIfLoaded.map { $0.frame.height } ?? CGFloat(rows.count) * Self.rowHeight
        view.frame.size.height = Self.rowsTop + below + 8
    }
}
