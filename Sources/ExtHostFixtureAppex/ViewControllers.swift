import Foundation
import UIKit

/// A plain view controller named by `NSExtensionPrincipalClass`: a label and a Done button that
/// completes the request.
class PlainViewController: UIViewController {
    private let label = UILabel()
    private let done = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        print("FIXTURE PlainViewController.viewDidLoad main-thread=\(Thread.isMainThread)")
        view.backgroundColor = .systemBackground
        label.text = "Hello from the extension"
        done.setTitle("Done", for: .normal)
        done.accessibilityIdentifier = "done"
        done.addAction(
            UIAction { [weak self] _ in
                self?.extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
            }, for: .touchUpInside)
        let stack = UIStackView(arrangedSubviews: [label, done])
        stack.axis = .vertical
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
        ])
    }
}

/// The cross-platform templates' shape: reads the attachments in viewDidLoad, writes the App
/// Group's defaults with the group read from the Info.plist as a `String?`, then brings the app
/// forward by walking the responder chain to the application and calling `open`.
class OpeningViewController: UIViewController {
    let groupID = FixtureInfo.value("AppGroupId") as? String

    override func viewDidLoad() {
        super.viewDidLoad()
        let providers = (extensionContext?.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        var names: [String] = []
        let loads = DispatchGroup()
        for provider in providers {
            guard let type = provider.registeredTypeIdentifiers.first else { continue }
            loads.enter()
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, _ in
                DispatchQueue.main.async {
                    if let url = item as? URL { names.append(url.lastPathComponent) }
                    loads.leave()
                }
            }
        }
        loads.notify(queue: .main) {
            UserDefaults(suiteName: self.groupID)?.set(names.sorted(), forKey: "names")
            self.openHostApp()
        }
    }

    private func openHostApp() {
        guard let url = URL(string: "fixapp://shared/items?count=2") else { return }
        var responder: UIResponder? = self
        while let current = responder {
            if let application = current as? UIApplication {
                application.open(url, options: [:]) { success in
                    print("FIXTURE OpeningViewController opened=\(success)")
                    self.extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
                }
                return
            }
            responder = current.next
        }
        print("FIXTURE OpeningViewController: no UIApplication in the responder chain")
        extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
    }
}

/// The initial view controller of a storyboard (`NSExtensionMainStoryboard`): its label and button
/// are outlets the storyboard connects before `viewDidLoad`, and the button's action `post:` is
/// listed as `exthost import` writes an `@IBAction` (Linux has no Objective-C runtime).
class StoryboardViewController: UIViewController {
    // The shape Xcode writes for an outlet (`@IBOutlet weak var messageLabel: UILabel!`):

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    weak var messageLabel: UILabel!
    var postButton: UIButton?

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        print(
            "FIXTURE StoryboardViewController.init(coder:) title=\(title ?? "nil") "
                + "outlets-before-load=\(messageLabel == nil && postButton == nil)")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        print(
            "FIXTURE StoryboardViewController.viewDidLoad label=\(messageLabel?.text ?? "nil") "
                + "button=\(postButton?.title(for: .normal) ?? "nil") in-view=\(postButton?.superview != nil)")
    }

    func post(_ sender: Any?) {
        print("FIXTURE post: from-button=\(sender is UIButton) main-thread=\(Thread.isMainThread)")
        UserDefaults(suiteName: FixtureInfo.value("AppGroupId") as? String)?.set(["posted"], forKey: "names")
        extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
    }

    nonisolated override func canDispatch(_ selector: Selector) -> Bool {
        selector == "post:" || super.canDispatch(selector)
    }

    nonisolated override func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
        guard selector == "post:" else { return super.dispatch(selector, arguments: arguments) }
        let sender = arguments.first ?? nil
        MainActor.assumeIsolated { post(sender) }
        return .returned(nil)
    }
}
