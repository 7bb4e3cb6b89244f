import UIKit

/// The app runtime UIKit finds by name (`AppRuntime.AppRuntimeBackend`, see UIKit's
/// `ApplicationBackend`): linked into a program through the `ExtHostApp` product, never imported.
final class AppRuntimeBackend: ApplicationBackend {
    static func runApplication(delegateClass: any (UIResponder & UIApplicationDelegate).Type) -> Int32 {
        ApplicationRuntime.run(delegateClass: delegateClass)
    }
}
