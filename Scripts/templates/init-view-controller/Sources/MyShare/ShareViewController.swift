import UIKit
import UniformTypeIdentifiers

/// The share extension as the cross-platform share-intent plugins write it: a `UIViewController`
/// named by `NSExtensionPrincipalClass` (`$(PRODUCT_MODULE_NAME).ShareViewController`), made with
/// `init?(coder:)`. It reads what was shared in `viewDidLoad`, saves it into the App Group's
/// defaults — the group read from its Info.plist as a `String?` — then brings the app forward
/// through the responder chain with `UIApplication.open(_:options:completionHandler:)`.
class ShareViewController: UIViewController {
    let groupID = Bundle.main.object(forInfoDictionaryKey: "AppGroupIdentifier") as? String
    let scheme = Bundle.main.object(forInfoDictionaryKey: "HostAppURLScheme") as? String ?? "myapp"
    private let status = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        status.text = "Saving…"
        status.textAlignment = .center
        status.frame = view.bounds
        view.addSubview(status)

        let providers = (extensionContext?.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        var shared: [String] = []
        let loads = DispatchGroup()
        for provider in providers {
            guard let type = provider.registeredTypeIdentifiers.first else { continue }
            loads.enter()
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, _ in
                DispatchQueue.main.async {
                    if let url = item as? URL {
                        shared.append(url.isFileURL ? url.lastPathComponent : url.absoluteString)
                    } else if let text = item as? String {
                        shared.append(text)
                    }
                    loads.leave()
                }
            }
        }
        loads.notify(queue: .main) {
            UserDefaults(suiteName: self.groupID)?.set(shared.sorted(), forKey: "sharedItems")
            self.status.text = "Saved \(shared.count) item(s)"
            self.openHostApp(count: shared.count)
        }
    }

    /// Brings MyApp forward with its URL scheme: up the responder chain to the application, then
    /// `open(_:options:completionHandler:)`. (The older `perform(sel_registerName("openURL:"), with:)`
    /// opens nothing from iOS 18 on.) The request completes once the app was asked.
    private func openHostApp(count: Int) {
        guard let url = URL(string: "\(scheme)://shared?count=\(count)") else { return }
        var responder: UIResponder? = self
        while let current = responder {
            if let application = current as? UIApplication {
                application.open(url, options: [:]) { opened in
                    print("MyShare asked to open \(url.absoluteString): \(opened)")
                    self.extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
                }
                return
            }
            responder = current.next
        }
        extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
    }
}
