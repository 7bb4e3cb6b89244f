// The app, written as for iOS: the extension opens it with myapp://shared, and it reads what the
// extension saved into the App Group's defaults.
import Foundation
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        true
    }
}
