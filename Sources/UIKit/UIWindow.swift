public import Foundation

/// `UIWindow`: the root of a view hierarchy. Nothing is drawn on Linux; a window keeps its root
/// view controller, its first responder, and the layers presented over it (each presented view
/// controller's view is a subview, front last).
@preconcurrency @MainActor
open class UIWindow: UIView {
    /// The scene the window belongs to.
    open weak var windowScene: UIWindowScene?
    /// Whether the window is the key window (``makeKeyAndVisible()`` or ``makeKey()`` was called).
    open private(set) var isKeyWindow = false
    /// The window's level (normal: 0).
    open var windowLevel: UIWindow.Level = .normal
    /// The screen it shows on.
    open var screen: UIScreen { UIScreen.main }
    /// The responder that has the keyboard.
    weak var firstResponder: UIResponder?
    /// The headless screen this window belongs to (an extension's sheet).
    package weak var extensionScreen: ExtensionScreen?
    private var storedRootViewController: UIViewController?

    /// A window with `frame`.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isHidden = true
    }

    /// A window from a storyboard.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isHidden = true
    }

    /// A window filling the screen, in `windowScene`.
    public convenience init(windowScene: UIWindowScene) {
        self.init(frame: UIScreen.main.bounds)
        self.windowScene = windowScene
    }

    /// The view controller whose view fills the window. Set on a visible window, the new controller
    /// appears and the old one disappears.
    open var rootViewController: UIViewController? {
        get { storedRootViewController }
        set {
            UIKitThread.check("UIWindow.rootViewController", self)
            guard newValue !== storedRootViewController else { return }
            let old = storedRootViewController
            if let old, !isHidden {
                old.systemWillDisappear(false)
                old.viewIfLoaded?.removeFromSuperview()
                old.systemDidDisappear(false)
            } else {
                old?.viewIfLoaded?.removeFromSuperview()
            }
            storedRootViewController = newValue
            if !isHidden, let newValue { show(newValue, animated: false) }
        }
    }

    /// The application object (Apple: "UIWindow returns the application object").
    open override var next: UIResponder? { UIApplication.shared }

    /// Makes the window key and shows it: its root view controller appears.
    open func makeKeyAndVisible() {
        UIKitThread.check("UIWindow.makeKeyAndVisible()", self)
        isKeyWindow = true
        guard isHidden else { return }
        isHidden = false
        if let root = storedRootViewController { show(root, animated: false) }
    }

    /// Makes the window key.
    open func makeKey() { isKeyWindow = true }

    /// Puts `controller`'s view in the window and runs its appearance.
    func show(_ controller: UIViewController, animated: Bool) {
        controller.flushLifeCycle()
        controller.systemWillAppear(animated)
        controller.view.frame = bounds
        insertSubview(controller.view, at: 0)
        controller.systemIsAppearing(animated)
        MainQueue.nextTurn { controller.systemDidAppear(animated) }
    }

    /// The window's own first responder record.
    override var firstResponderWindow: UIWindow? { self }
}

extension UIWindow {
    /// A window's level.
    public struct Level: RawRepresentable, Hashable, Sendable {
        /// The level.
        public var rawValue: CGFloat
        /// A level.
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        /// A level.
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        /// Ordinary windows (0).
        public static let normal = Level(0)
        /// Above the status bar (1000).
        public static let statusBar = Level(1000)
        /// Alerts (2000).
        public static let alert = Level(2000)
    }
}

/// `UIScreen`: the headless phone's screen — an iPhone 15's 393 × 852 points at 3×.
@preconcurrency @MainActor
open class UIScreen: NSObject {
    /// The screen (deprecated on iOS in favour of the window scene's screen; still used).
    public static let main = UIScreen()

    /// The screen in points.
    open var bounds: CGRect { CGRect(x: 0, y: 0, width: 393, height: 852) }
    /// Pixels per point.
    open var scale: CGFloat { 3 }
    /// Pixels per point of the panel.
    open var nativeScale: CGFloat { 3 }
    /// The screen in pixels.
    open var nativeBounds: CGRect { CGRect(x: 0, y: 0, width: 1179, height: 2556) }
    /// The traits.
    open var traitCollection: UITraitCollection { UITraitCollection.current }
    /// The brightness (0…1).
    open var brightness: CGFloat = 0.5
}

/// `UIDevice`: the headless phone.
@preconcurrency @MainActor
open class UIDevice: NSObject {
    /// The device.
    public static let current = UIDevice()

    /// The device's name (`iPhone`, as iOS 16 and later report it to apps).
    open var name: String { "iPhone" }
    /// The model (`iPhone`).
    open var model: String { "iPhone" }
    /// The localized model.
    open var localizedModel: String { "iPhone" }
    /// The operating system (`iOS`).
    open var systemName: String { "iOS" }
    /// The operating system's version: the device's iOS version.
    open var systemVersion: String { Self.systemVersion }
    /// The kind of device.
    open var userInterfaceIdiom: UIUserInterfaceIdiom { .phone }
    /// A stable identifier for the vendor's apps on this device.
    open var identifierForVendor: UUID? { Self.vendorIdentifier }
    /// The orientation (portrait).
    open var orientation: UIDeviceOrientation { .portrait }
    /// Whether the battery is monitored.
    open var isBatteryMonitoringEnabled = false

    /// The version `systemVersion` reports: the device's iOS version when the process runs on an
    /// exthost device that has one, else the current iOS (18.0), which devices default to.
    package static var systemVersion = "18.0"
    private static let vendorIdentifier = UUID()
}

/// `UIDeviceOrientation`.
public enum UIDeviceOrientation: Int, Sendable {
    /// Not known.
    case unknown = 0
    /// Upright.
    case portrait = 1
    /// Upside down.
    case portraitUpsideDown = 2
    /// Turned left.
    case landscapeLeft = 3
    /// Turned right.
    case landscapeRight = 4
    /// Face up.
    case faceUp = 5
    /// Face down.
    case faceDown = 6
}
