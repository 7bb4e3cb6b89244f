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
