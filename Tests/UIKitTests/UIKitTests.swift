import ExtHostTestSupport
import Foundation
import HostSystem
import Testing
import UIKit

/// UIKit on its own: the façade's objects without a running app, and a program that links UIKit
/// but not the app runtime (`exthost-uikit-only`), which must say which product is missing.
@Suite(.timeLimit(.minutes(5)))
@MainActor
struct UIKitTests {
    final class Favorite: UIActivity, @unchecked Sendable {
        override var activityType: UIActivity.ActivityType? { UIActivity.ActivityType("com.example.favorite") }
    }

    @Test func withoutTheAppRuntimeUIApplicationMainNamesTheProductAndFails() async throws {
        let run = try await TestSupport.runProgram(TestSupport.program("exthost-uikit-only"))
        #expect(run.status == .exited(1))
        #expect(run.errors.contains("UIApplicationMain: UIKit's app runtime is not linked"), "\(run.errors)")
        #expect(run.errors.contains("ExtHostApp product"), "\(run.errors)")
    }

    @Test func withoutTheAppRuntimeTheSheetIsAnErrorNotATrap() async throws {
        let run = try await TestSupport.runProgram(TestSupport.program("exthost-uikit-only"), ["sheet"])
        #expect(run.status == .exited(1))
        #expect(run.errors.contains("sheet: UIKit's app runtime is not linked"), "\(run.errors)")
    }

    @Test func outsideARunningAppSharedIsADelegatelessApplication() {
        #expect(UIApplication.shared.delegate == nil)
        #expect(UIApplication.shared.connectedScenes.isEmpty)
    }

    @Test func anActivityDefaultsToTheActionListAndPerformsNothing() {
        #expect(UIActivity.activityCategory == .action)
        let favorite = Favorite()
        #expect(favorite.activityType?.rawValue == "com.example.favorite")
        #expect(!favorite.canPerform(withActivityItems: ["text"]))
        #expect(UIActivity.ActivityType.airDrop.rawValue == "com.apple.UIKit.activity.AirDrop")
    }

    @Test func dismissingTheSheetWithoutChoosingCallsTheCompletionAtOnce() async throws {
        let controller = UIActivityViewController(activityItems: ["hello"], applicationActivities: nil)
        var received: (UIActivity.ActivityType?, Bool)?
        controller.completionWithItemsHandler = { type, completed, _, _ in received = (type, completed) }
        try await controller.perform(nil)
        #expect(received?.0 == nil && received?.1 == false)
    }
}
