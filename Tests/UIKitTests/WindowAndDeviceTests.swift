import Foundation
import Testing
import UIKit

/// The headless phone's screen and device (an iPhone 15's: 393 × 852 points at 3×, iOS), and a
/// window whose root view controller is replaced while it is visible.
@MainActor
struct WindowAndDeviceTests {
    final class Recording: UIViewController {
        var calls: [String] = []
        override func viewWillAppear(_ animated: Bool) {
            super.viewWillAppear(animated)
            calls.append("willAppear")
        }
        override func viewWillDisappear(_ animated: Bool) {
            super.viewWillDisappear(animated)
            calls.append("willDisappear")
        }
        override func viewDidDisappear(_ animated: Bool) {
            super.viewDidDisappear(animated)
            calls.append("didDisappear")
        }
    }

    @Test func theScreenAndDeviceAreAnIPhone() {
        let screen = UIScreen.main
        #expect(screen.bounds.size == CGSize(width: 393, height: 852))
        #expect(screen.scale == 3 && screen.nativeScale == 3)
        #expect(screen.nativeBounds.size == CGSize(width: 1179, height: 2556), "the bounds in pixels")
        let device = UIDevice.current
        #expect(device.systemName == "iOS" && device.model == "iPhone" && device.localizedModel == "iPhone")
        #expect(device.userInterfaceIdiom == .phone && device.orientation == .portrait)
        #expect(!device.systemVersion.isEmpty && device.name == "iPhone")
        #expect(device.identifierForVendor != nil && device.identifierForVendor == UIDevice.current.identifierForVendor)
        #expect(UIWindow.Level.alert.rawValue == 2000 && UIWindow.Level.statusBar.rawValue == 1000)
    }

    @Test func replacingTheRootOfAVisibleWindowRunsTheAppearanceCalls() {
        let window = UIWindow(frame: UIScreen.main.bounds)
        #expect(window.screen === UIScreen.main)
        let first = Recording()
        let second = Recording()
        window.rootViewController = first
        #expect(first.calls.isEmpty, "a hidden window shows nothing yet")
        window.makeKeyAndVisible()
        #expect(window.isKeyWindow && !window.isHidden && first.calls == ["willAppear"])
        window.rootViewController = second
        #expect(first.calls == ["willAppear", "willDisappear", "didDisappear"])
        #expect(second.calls == ["willAppear"])
        #expect(first.viewIfLoaded?.superview == nil && second.view.superview === window)
        #expect(window.rootViewController === second)
        window.makeKey()
        #expect(window.isKeyWindow)
    }
}
