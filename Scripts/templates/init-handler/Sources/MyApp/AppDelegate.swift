// The app, written as for iOS: what the share extension saved, read from the App Group at launch;
// the extension saves into the group while the app is not running.
import Foundation
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static let group = "group.com.example.MyApp"

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.group) else {
            print("MyApp is not entitled to \(Self.group)")
            return false
        }
        let shared = container.appendingPathComponent("Shared", isDirectory: true)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []).sorted()
        print("MyApp: \(names.count) shared item(s)")
        for name in names {
            let size = (try? FileManager.default.attributesOfItem(atPath: shared.appendingPathComponent(name).path)[.size]) ?? 0
            print("  \(name) (\(size) bytes)")
        }
        let last = UserDefaults(suiteName: Self.group)?.stringArray(forKey: "lastShare") ?? []
        print("last share: \(last.joined(separator: ", "))")
        return true
    }
}
