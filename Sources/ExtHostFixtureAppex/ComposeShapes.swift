import MobileCoreServices
import Social
import UIKit

/// Shapes real compose-sheet extensions use beyond Xcode's template, kept compiling in Swift 5
/// language mode with warnings as errors: the configuration item's failable `init!()` unwrapped in
/// the three ways iOS code does, a method reference as the tap handler, `charactersRemaining` from
/// an `Int` bridged with `as NSNumber`, the text view's keyboard, a load in `didSelectPost`.
class ComposeShapesViewController: SLComposeServiceViewController {
    let maxCharacterCount = 280
    var tagName = "None"

    // swift-format-ignore: NeverForceUnwrap
    lazy var tagItem: SLComposeSheetConfigurationItem = {
        let item = SLComposeSheetConfigurationItem()
        item!.title = "Tags"
        item!.value = self.tagName
        item!.tapHandler = self.showTags
        return item!
    }()

    func showTags() {
        let chooser = UIViewController()
        chooser.preferredContentSize = CGSize(width: 0, height: 200)
        pushConfigurationViewController(chooser)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        self.placeholder = "Add a comment"
        self.textView.keyboardType = .twitter
        self.title = "Share"
    }

    override func isContentValid() -> Bool {
        charactersRemaining = (maxCharacterCount - contentText.count) as NSNumber
        if let remaining = charactersRemaining, remaining.intValue < 0 { return false }
        return !self.contentText.isEmpty
    }

    override func didSelectPost() {
        guard let item = extensionContext?.inputItems.first as? NSExtensionItem,
            let provider = item.attachments?.first
        else {
            super.didSelectPost()
            return
        }
        provider.loadItem(forTypeIdentifier: kUTTypeURL as String, options: nil) { url, _ in
            print("FIXTURE ComposeShapes url=\(String(describing: url)) text=\(self.contentText ?? "")")
            self.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
        }
    }

    override func configurationItems() -> [Any]! {
        var items = [SLComposeSheetConfigurationItem]()
        if let item = SLComposeSheetConfigurationItem() {
            item.title = "Channel"
            item.value = "Pick one"
            item.tapHandler = { [weak self] in self?.reloadConfigurationItems() }
            items.append(item)
        }
        let audience = SLComposeSheetConfigurationItem()
        audience?.title = "Audience"
        audience?.valuePending = true
        items.append(contentsOf: [tagItem, audience].compactMap { $0 })
        return items
    }
}

/// A compose sheet that never waits for Post — a common shape: it hands the shared item over in
/// `viewDidAppear` and completes the request at once, so the sheet closes before anyone could tap.
class SilentComposeViewController: SLComposeServiceViewController {
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        print("FIXTURE SilentCompose text=\(contentText ?? "")")
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }
}
