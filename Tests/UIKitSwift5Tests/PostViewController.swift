// A share extension that posts what it was given to a server, in Swift 5 language mode with only
// `import UIKit` — as on iOS, where URLRequest and URLSession come with Foundation — and whose button
// is wired with `addTarget(_:action:for:)`; the two members are what `exthost import` writes for an
// `@objc func post(_:)` (docs/objc-runtime.md).
import UIKit

class PostViewController: UIViewController {
    let postButton = UIButton(type: .system)
    var request: URLRequest?

    override func viewDidLoad() {
        super.viewDidLoad()
        postButton.setTitle("Post", for: .normal)
        postButton.addTarget(self, action: Selector("post:"), for: .touchUpInside)
        view.addSubview(postButton)
    }

    func post(_ sender: UIButton) {
        // swift-format-ignore: NeverForceUnwrap
        var request = URLRequest(url: URL(string: "https://example.com/api/share")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{\"from\":\"\(sender.title(for: .normal) ?? "")\"}".utf8)
        self.request = request
        extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }

    nonisolated override func canDispatch(_ selector: Selector) -> Bool {
        switch selector {
        case "post:": return true
        default: return super.canDispatch(selector)
        }
    }

    nonisolated override func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
        switch selector {
        case "post:":
            let sender = arguments[0]
            guard let sender = sender as? UIButton else { return .returned(nil) }
            MainActor.assumeIsolated { post(sender) }
            return .returned(nil)
        default: return super.dispatch(selector, arguments: arguments)
        }
    }
}
