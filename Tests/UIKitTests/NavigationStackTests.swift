import Foundation
import Testing

@testable import UIKit

/// `UINavigationController`'s stack as Apple documents it — push, pop to a controller or to the
/// root (returning what was popped, nil when nothing is), replacing the stack — and a view
/// controller's editing state and nib.
@MainActor
struct NavigationStackTests {
    func named(_ title: String) -> UIViewController {
        let controller = UIViewController(nibName: nil, bundle: nil)
        controller.title = title
        return controller
    }

    @Test func poppingReturnsWhatLeftTheStack() {
        let (root, second, third) = (named("root"), named("second"), named("third"))
        let navigation = UINavigationController(rootViewController: root)
        #expect(navigation.popToRootViewController(animated: false) == nil, "only the root: nothing to pop")
        navigation.pushViewController(second, animated: false)
        navigation.pushViewController(third, animated: true)
        #expect(navigation.viewControllers.map(\.title) == ["root", "second", "third"])
        #expect(navigation.visibleViewController === third && third.navigationController === navigation)
        #expect(navigation.popToViewController(third, animated: false) == nil, "already on top")
        #expect(navigation.popToViewController(named("stranger"), animated: false) == nil)
        #expect(navigation.popToViewController(second, animated: false)?.map(\.title) == ["third"])
        #expect(third.parent == nil)
        navigation.pushViewController(third, animated: false)
        #expect(navigation.popToRootViewController(animated: true)?.map(\.title) == ["second", "third"])
        #expect(navigation.viewControllers == [root])

        navigation.viewControllers = [second, third]
        #expect(navigation.topViewController === third && root.parent == nil && second.parent === navigation)
        navigation.setNavigationBarHidden(true, animated: false)
        #expect(navigation.isNavigationBarHidden && navigation.navigationBar.isHidden)
        navigation.setToolbarHidden(false, animated: false)
        #expect(!navigation.isToolbarHidden && navigation.toolbar != nil)
    }

    @Test func theEditButtonTogglesEditing() throws {
        let controller = UIViewController(nibName: "Card", bundle: nil)
        #expect(controller.nibName == "Card" && controller.nibBundle == nil)
        #expect(!controller.isEditing)
        let edit = controller.editButtonItem
        #expect(edit.systemItem == .edit)
        let action = try #require(edit.primaryAction)
        action.perform(sender: nil)
        #expect(controller.isEditing)
        #expect(controller.editButtonItem.systemItem == .done)
        controller.setEditing(false, animated: true)
        #expect(!controller.isEditing)
        #expect(controller.shouldPerformSegue(withIdentifier: "any", sender: nil))
    }
}
