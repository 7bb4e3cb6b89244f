// An extension written as the cross-platform share templates write theirs, in Swift 5 language
// mode with no upcoming features: a UIViewController that reads its attachments in viewDidLoad with
// completion handlers, updates its UI, asks with an alert and completes the request.
import Foundation
import MobileCoreServices
import UIKit

class ShareViewController: UIViewController {
    let hostAppBundleIdentifier = "com.example.app"
    var sharedText: [String] = []
    var sharedURLs: [URL] = []
    let titleLabel = UILabel()
    let countLabel = UILabel()
    let doneButton = UIButton(type: .system)
    let activity = UIActivityIndicatorView(style: .large)
    let textField = UITextField(frame: CGRect(x: 16, y: 120, width: 300, height: 34))

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = UIColor(white: 0, alpha: 0.2)
        titleLabel.text = "Saving…"
        titleLabel.font = UIFont.boldSystemFont(ofSize: 20)
        titleLabel.textAlignment = .center
        countLabel.accessibilityIdentifier = "count"
        doneButton.setTitle("Done", for: .normal)
        doneButton.isHidden = true
        doneButton.addAction(UIAction { _ in self.done() }, for: .touchUpInside)
        textField.placeholder = "Add a note"
        let stack = UIStackView(arrangedSubviews: [titleLabel, countLabel, activity, doneButton])
        stack.axis = .vertical
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        view.addSubview(textField)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            stack.widthAnchor.constraint(equalToConstant: 280),
        ])
        activity.startAnimating()

        guard let item = extensionContext?.inputItems.first as? NSExtensionItem,
            let attachments = item.attachments
        else { return }
        let group = DispatchGroup()
        for provider in attachments {
            if provider.hasItemConformingToTypeIdentifier(kUTTypeURL as String) {
                group.enter()
                provider.loadItem(forTypeIdentifier: kUTTypeURL as String, options: nil) { item, error in
                    if let url = item as? URL {
                        DispatchQueue.main.async { self.sharedURLs.append(url) }
                    }
                    group.leave()
                }
            } else if provider.hasItemConformingToTypeIdentifier(kUTTypeText as String) {
                group.enter()
                provider.loadItem(forTypeIdentifier: kUTTypeText as String, options: nil) { item, error in
                    if let text = item as? String {
                        DispatchQueue.main.async { self.sharedText.append(text) }
                    }
                    group.leave()
                }
            }
        }
        group.notify(queue: .main) {
            self.activity.stopAnimating()
            self.titleLabel.text = "Saved"
            self.countLabel.text = "\(self.sharedURLs.count + self.sharedText.count) items"
            self.doneButton.isHidden = false
        }
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        if extensionContext?.inputItems.isEmpty ?? true {
            let alert = UIAlertController(title: "Nothing to share", message: nil, preferredStyle: .alert)
            alert.addAction(
                UIAlertAction(
                    title: "OK", style: .default,
                    handler: { _ in
                        // as the extension templates write it:
                        // swift-format-ignore: NeverForceUnwrap
                        self.extensionContext!.cancelRequest(withError: NSError(domain: "share", code: 1))
                    }))
            present(alert, animated: true, completion: nil)
        }
    }

    func done() {
        // as the extension templates write it:
        // swift-format-ignore: NeverForceUnwrap
        extensionContext!.completeRequest(returningItems: [], completionHandler: nil)
    }
}

/// A controller of a table, as an app's "choose a list" screen is.
class ListPickerViewController: UITableViewController {
    var lists = ["Inbox", "Work", "Later"]
    var chosen: String?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Lists"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "cell")
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Done",
            primaryAction: UIAction { _ in
                self.dismiss(animated: true)
            })
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { lists.count }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = lists[indexPath.row]
        cell.contentConfiguration = content
        cell.accessoryType = lists[indexPath.row] == chosen ? .checkmark : .none
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        chosen = lists[indexPath.row]
        tableView.reloadData()
    }
}
