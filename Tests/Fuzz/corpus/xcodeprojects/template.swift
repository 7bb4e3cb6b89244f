// swift-format-ignore-file
// The share-intent templates' view controller, as apps ship it (force unwraps and all).
import UIKit
import Social
import MobileCoreServices
import UniformTypeIdentifiers

class ShareViewController: UIViewController {
  let hostAppGroup = "group.com.example.sharedemo"
  let shareProtocol = "sharedemo"
  var sharedFiles: [String] = []

  override func viewDidLoad() {
    super.viewDidLoad()
    let attachments = (extensionContext?.inputItems.first as? NSExtensionItem)?.attachments ?? []
    let group = DispatchGroup()
    for attachment in attachments {
      if attachment.hasItemConformingToTypeIdentifier(kUTTypeData as String) {
        group.enter()
        attachment.loadItem(forTypeIdentifier: kUTTypeData as String, options: nil) { [weak self] data, error in
          DispatchQueue.main.async {
            if error == nil, let url = data as? URL {
              self?.sharedFiles.append(url.lastPathComponent)
            }
            group.leave()
          }
        }
      }
    }
    group.notify(queue: .main) {
      let userDefaults = UserDefaults(suiteName: self.hostAppGroup)
      userDefaults?.set(self.sharedFiles.sorted(), forKey: "names")
      userDefaults?.synchronize()
      print("SHARE-DEMO saved \(self.sharedFiles.sorted().joined(separator: ","))")
      self.redirectToHostApp()
    }
  }

  private func redirectToHostApp() {
    let url = URL(string: "\(shareProtocol)://dataUrl=sharedKey")
    var responder = self as UIResponder?
    let selectorOpenURL = sel_registerName("openURL:")
    while (responder != nil) {
      if (responder?.responds(to: selectorOpenURL))! {
        let _ = responder?.perform(selectorOpenURL, with: url)
      }
      responder = responder!.next
    }
    extensionContext!.completeRequest(returningItems: [], completionHandler: nil)
  }
}
