import Foundation

extension UIViewController {
    /// The child view controllers, in the order they were added.
    public var children: [UIViewController] { storedChildren }

    /// The container this controller is a child of.
    public var parent: UIViewController? { storedParent }

    /// Whether the controller is being added to a parent (during its appearance).
    public var isMovingToParent: Bool { containmentPhase == .adding }
    /// Whether the controller is being removed from its parent.
    public var isMovingFromParent: Bool { containmentPhase == .removing }

    /// Makes `childController` a child: it is removed from any other parent, gets
    /// `willMove(toParent: self)`, and is added (Apple: a container "must call the didMove(toParent:)
    /// method of the child view controller after the transition … or … immediately after calling
    /// the addChild(_:) method": that call is the container's).
    public func addChild(_ childController: UIViewController) {
        UIKitThread.check("UIViewController.addChild(_:)", self)
        guard childController !== self, childController.storedParent !== self else { return }
        childController.removeFromParent()
        childController.containmentPhase = .adding
        childController.record("willMove(toParent: \(String(describing: type(of: self))))")
        childController.willMove(toParent: self)
        storedChildren.append(childController)
        childController.storedParent = self
        childController.flushLifeCycle()
    }

    /// Removes the controller from its parent and calls `didMove(toParent: nil)` (Apple: "The
    /// removeFromParent() method automatically calls the didMove(toParent:) method of the child view
    /// controller after it removes the child"). The container calls `willMove(toParent: nil)` first.
    public func removeFromParent() {
        guard let parent = storedParent else { return }
        UIKitThread.check("UIViewController.removeFromParent()", self)
        containmentPhase = .removing
        record("didMove(toParent: nil)")
        parent.storedChildren.removeAll { $0 === self }
        storedParent = nil
        didMove(toParent: nil)
        containmentPhase = nil
    }
}

/// Where a controller is in being added to or removed from a parent.
enum ContainmentPhase {
    case adding, removing
}
