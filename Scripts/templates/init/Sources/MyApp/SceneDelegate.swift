import Foundation
import UIKit

/// Documents opened in MyApp (Open With, Copy to, AirDrop): when the app was not running they
/// arrive in `connectionOptions.urlContexts`, when it runs in `scene(_:openURLContexts:)` — handle
/// both, or one of the two cases loses the document.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        window = UIWindow(windowScene: windowScene)
        window?.makeKeyAndVisible()
        for context in connectionOptions.urlContexts { open(context, when: "at launch") }
    }

    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts { open(context, when: "while running") }
    }

    private func open(_ context: UIOpenURLContext, when: String) {
        // A copy in Documents/Inbox is the app's own; an in-place original needs its security scope.
        let scoped = context.options.openInPlace && context.url.startAccessingSecurityScopedResource()
        defer { if scoped { context.url.stopAccessingSecurityScopedResource() } }
        let text = (try? String(contentsOf: context.url, encoding: .utf8)) ?? ""
        print("MyApp opened \(context.url.lastPathComponent) \(when): \(text.trimmingCharacters(in: .newlines))")
    }
}
