import Foundation
import StampKit
import UIKit
import UniformTypeIdentifiers

/// Keeps the text and file names shared with it as stamps in the App Group's defaults.
final class ShareViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let providers = (extensionContext?.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        var stamps: [String] = []
        let loads = DispatchGroup()
        for provider in providers {
            guard let type = provider.registeredTypeIdentifiers.first else { continue }
            loads.enter()
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, _ in
                DispatchQueue.main.async {
                    stamps.append(Stamp(item).title)
                    loads.leave()
                }
            }
        }
        loads.notify(queue: .main) {
            UserDefaults(suiteName: "group.org.example.stamps")?.set(stamps.sorted(), forKey: "stamps")
            print("STAMPS-SHARE kept \(stamps.sorted().joined(separator: ","))")
            self.extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
        }
    }
}
