// The app, written as for iOS: what the share extension posted, read from the App Group's defaults.
import Foundation
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static let group = "group.com.example.MyApp"

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let post = UserDefaults(suiteName: Self.group)?.string(forKey: "lastPost")
        print("MyApp: last post: \(post ?? "(none)")")
        return true
    }
}
