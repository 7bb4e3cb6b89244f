//
//  ShareViewController.swift
//  The shape of Xcode's Share Extension template (Swift 5 language mode, `import UIKit` and
//  `import Social`), with a length limit in isContentValid so the scripted user can make the
//  content invalid.
//

import Social
import UIKit

class ShareViewController: SLComposeServiceViewController {

    override func isContentValid() -> Bool {
        // Do validation of contentText and/or NSExtensionContext attachments here
        let remaining = 60 - contentText.count
        charactersRemaining = NSNumber(value: remaining)
        return remaining >= 0
    }

    override func didSelectPost() {
        // This is called after the user selects Post. Do the upload of contentText and/or NSExtensionContext attachments.
        print("FIXTURE ShareViewController.didSelectPost text=\(contentText ?? "") main-thread=\(Thread.isMainThread)")
        // Inform the host that we're done, so it un-blocks its UI. Note: Alternatively you could call super's -didSelectPost, which will similarly complete the extension context.
        self.extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
    }

    override func configurationItems() -> [Any]! {
        // To add configuration options via table cells at the bottom of the sheet, return an array of SLComposeSheetConfigurationItem here.
        return []
    }

}
