import Foundation
import UIKit

@main
final class ClipsAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let clips = UserDefaults(suiteName: "group.org.example.clips")?.stringArray(forKey: "clips") ?? []
        print("CLIPS launched clips=\(clips.joined(separator: ","))")
        return true
    }
}
