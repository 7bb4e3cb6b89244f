import Foundation
import UIKit

/// The share extension opens MyApp with `myapp://shared?count=N`: when the app was not running the
/// URL arrives in `connectionOptions.urlContexts`, when it runs in `scene(_:openURLContexts:)`.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    static let group = "group.com.example.MyApp"
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        window = UIWindow(windowScene: windowScene)
        window?.makeKeyAndVisible()
        for context in connectionOptions.urlContexts { open(context.url, when: "at launch") }
    }

    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts { open(context.url, when: "while running") }
    }

    private func open(_ url: URL, when: String) {
        let shared = UserDefaults(suiteName: Self.group)?.stringArray(forKey: "sharedItems") ?? []
        print("MyApp opened \(url.absoluteString) \(when); shared: \(shared.joined(separator: ", "))")
    }
}
