import Foundation
package import SheetReports

/// What UIKit needs from the app runtime: running an app's life cycle and the share sheet of an app
/// that shares. The runtime (module `AppRuntime`, in the `ExtHostApp` product) implements it in a
/// class UIKit finds by name, as iOS finds a principal class — so UIKit itself links nothing of the
/// host side, and an extension (which links UIKit, never the app runtime) stays light.
@MainActor
package protocol ApplicationBackend: AnyObject {
    /// Runs the app with a delegate of `delegateClass` (launch sequence, then what exthost sends,
    /// until it is terminated); returns the exit status.
    static func runApplication(delegateClass: any (UIResponder & UIApplicationDelegate).Type) -> Int32
    /// What the sheet of `controller` shows on the device at `root` (nil: the current process's).
    /// - Throws: ``UIActivityViewControllerError``.
    static func sheet(of controller: UIActivityViewController, on root: URL?) throws -> SheetReport
    /// Chooses `activityType` on the sheet of `controller`, as a tap, and calls its completion handler.
    /// - Throws: ``UIActivityViewControllerError``.
    static func perform(
        _ activityType: UIActivity.ActivityType, of controller: UIActivityViewController, on root: URL?
    ) async throws
}

/// The running app as UIKit's own defaults see it: the default of an optional delegate method
/// records that the app lacks it; the default scene configuration is the Info.plist's.
@MainActor
package protocol RunningApplication: AnyObject {
    /// The app object (``UIApplication/shared``).
    var application: UIApplication { get }
    /// Records that the default of the optional method `method` ran: the app does not implement it.
    func notImplemented(_ method: String)
    /// The configuration the Info.plist's `UIApplicationSceneManifest` gives `role`.
    func manifestConfiguration(for role: UISceneSession.Role) -> UISceneConfiguration?
}

/// Finds the app runtime.
enum ApplicationBackendLookup {
    /// The runtime's class, by its module-qualified name.
    static let className = "AppRuntime.AppRuntimeBackend"

    /// The runtime linked into this process.
    /// - Throws: ``UIActivityViewControllerError`` naming the `ExtHostApp` product when it is not linked.
    static func backend() throws(UIActivityViewControllerError) -> any ApplicationBackend.Type {
        guard let backend = _typeByName(className) as? any ApplicationBackend.Type else {
            throw UIActivityViewControllerError(
                "UIKit's app runtime is not linked into this program: an app (and a program that presents "
                    + "UIActivityViewController) depends on exthost's ExtHostApp product, which holds it "
                    + "(an extension's ExtHostExtension product does not)")
        }
        return backend
    }

    /// Runs the app with `delegateClass`; without the runtime, says why on standard error and returns 1.
    @MainActor
    static func run(delegateClass: any (UIResponder & UIApplicationDelegate).Type) -> Int32 {
        do {
            return try backend().runApplication(delegateClass: delegateClass)
        } catch {
            FileHandle.standardError.write(Data("UIApplicationMain: \(error.description)\n".utf8))
            return 1
        }
    }
}
