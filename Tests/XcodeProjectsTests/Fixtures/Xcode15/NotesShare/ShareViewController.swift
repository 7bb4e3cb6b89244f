import Foundation
import UIKit
import UniformTypeIdentifiers

/// Saves the names of the shared files as notes, through its Save action's selector.
class ShareViewController: UIViewController {
    @IBOutlet weak var titleLabel: UILabel?

    override func viewDidLoad() {
        super.viewDidLoad()
        // What a Save button does with its action: the selector, through the runtime.
        if responds(to: #selector(save(_:))) {
            perform(#selector(save(_:)), with: self)
        } else {
            print("NOTES-SHARE cannot save: no save: action")
        }
    }

    @IBAction func save(_ sender: Any) {
        let providers = (extensionContext?.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        var names: [String] = []
        let loads = DispatchGroup()
        for provider in providers where provider.hasItemConformingToTypeIdentifier(UTType.data.identifier) {
            loads.enter()
            provider.loadItem(forTypeIdentifier: UTType.data.identifier, options: nil) { item, _ in
                DispatchQueue.main.async {
                    if let url = item as? URL { names.append(url.lastPathComponent) }
                    loads.leave()
                }
            }
        }
        loads.notify(queue: .main) {
            NoteStore().add(names.sorted())
            print("NOTES-SHARE saved \(names.sorted().joined(separator: ","))")
            self.finish()
        }
    }

    @objc private func finish() {
        extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
    }
}
