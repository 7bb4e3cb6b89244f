import Foundation
import UIKit

@main
final class StampsAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let stamps = UserDefaults(suiteName: "group.org.example.stamps")?.stringArray(forKey: "stamps") ?? []
        print("STAMPS launched stamps=\(stamps.joined(separator: ","))")
        return true
    }
}
