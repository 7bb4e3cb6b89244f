import Foundation
import UIKit

/// The fixture's Info.plist values (`Bundle.main` is the extension's bundle; the bundle exthost
/// names is read when it is not).
enum FixtureInfo {
    static func value(_ key: String) -> Any? {
        if let value = Bundle.main.object(forInfoDictionaryKey: key) { return value }
        guard let path = ProcessIdentity.environment?.bundlePath else { return nil }
        return Bundle(path: path)?.object(forInfoDictionaryKey: key)
    }
}

/// The ways extensions hand over to their app, chosen by the Info.plist's `FixtureMode`.
@MainActor
enum HandOffModes {
    static func run(_ mode: String?, context: NSExtensionContext, done: @escaping () -> Void) {
        guard let target = URL(string: "fixapp://shared/items?count=2") else { return done() }
        let application = UIApplication.shared
        switch mode {
        case "open":
            // UIApplication.open through the application (works on iOS 18).
            application.open(target, options: [:]) { success in
                print("FIXTURE open success=\(success) main-thread=\(Thread.isMainThread)")
                done()
            }
        case "selector":
            // The openURL: path the cross-platform templates use.
            let selector = sel_registerName("openURL:")
            if application.responds(to: selector) {
                let result = application.perform(selector, with: target)
                print(
                    "FIXTURE openURL: sent, returned \((result?.takeUnretainedValue() as? Bool).map { "\($0)" } ?? "nil")"
                )
            }
            done()
        case "context":
            context.open(target) { success in
                print("FIXTURE context.open success=\(success)")
                DispatchQueue.main.async { done() }
            }
        default:
            done()
        }
    }
}
