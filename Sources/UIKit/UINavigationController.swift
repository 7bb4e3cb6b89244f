public import Foundation

/// `UINavigationController`: a stack of view controllers under a navigation bar. Pushing and popping
/// run the life cycle as a device does (for a push from A to B: B loads, A `viewWillDisappear`, B
/// `viewWillAppear`, B `viewIsAppearing`, then A `viewDidDisappear`, B `viewDidAppear`). The bar
/// shows the top controller's navigation item; the scripted user taps its buttons by title and
/// `tap Back` pops.
@preconcurrency @MainActor
open class UINavigationController: UIViewController {
    private lazy var storedNavigationBar = UINavigationBar(controller: self)
    private lazy var storedToolbar = UIToolbar()

    /// A navigation controller whose stack is `rootViewController`.
    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        setViewControllers([rootViewController], animated: false)
    }

    /// An empty navigation controller.
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// A navigation controller from a storyboard.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The delegate, told before and after a controller shows.
    open weak var delegate: (any UINavigationControllerDelegate)?

    /// The stack, root first.
    open var viewControllers: [UIViewController] {
        get { children }
        set { setViewControllers(newValue, animated: false) }
    }

    /// The controller on top of the stack.
    open var topViewController: UIViewController? { children.last }

    /// The controller shown: the top one, or what it presented.
    open var visibleViewController: UIViewController? { presentedViewController ?? topViewController }

    /// The bar.
    open var navigationBar: UINavigationBar { storedNavigationBar }
    // Apple declares it implicitly unwrapped:
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The toolbar.
    open var toolbar: UIToolbar! { storedToolbar }
    /// Whether the bar is hidden.
    open var isNavigationBarHidden: Bool {
        get { storedNavigationBar.isHidden }
        set { storedNavigationBar.isHidden = newValue }
    }
    /// Whether the toolbar is hidden (`true`).
    open var isToolbarHidden = true
    /// Hides or shows the bar.
    open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) { isNavigationBarHidden = hidden }
    /// Hides or shows the toolbar.
    open func setToolbarHidden(_ hidden: Bool, animated: Bool) { isToolbarHidden = hidden }

    /// The view holds the bar and the top controller's view.
    open override func loadView() {
        view = UIView(frame: UIScreen.main.bounds)
        view.addSubview(storedNavigationBar)
        if let top = topViewController { install(top) }
    }

    /// Replaces the stack. The new top shows (when the navigation controller is on screen); controllers
    /// no longer in the stack leave it.
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        UIKitThread.check("UINavigationController.setViewControllers(_:animated:)", self)
        let old = children
        let oldTop = old.last
        for controller in old where !viewControllers.contains(where: { $0 === controller }) {
            controller.willMove(toParent: nil)
            if controller === oldTop { transitionOut(controller, animated: animated) }
            controller.removeFromParent()
        }
        for controller in viewControllers where controller.parent !== self {
            addChild(controller)
            controller.didMove(toParent: self)
        }
        storedChildren = viewControllers
        if let top = viewControllers.last, top !== oldTop { transitionIn(top, animated: animated) }
        storedNavigationBar.setNeedsLayout()
    }

    /// Pushes `viewController` on the stack and shows it.
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        UIKitThread.check("UINavigationController.pushViewController(_:animated:)", self)
        guard !children.contains(where: { $0 === viewController }) else { return }
        let oldTop = topViewController
        addChild(viewController)
        delegate?.navigationController(self, willShow: viewController, animated: animated)
        if isViewLoaded { viewController.loadViewIfNeeded() }
        if let oldTop { transitionOut(oldTop, animated: animated) }
        transitionIn(viewController, animated: animated) {
            viewController.didMove(toParent: self)
            self.delegate?.navigationController(self, didShow: viewController, animated: animated)
        }
    }

    /// Pops the top controller and shows the one below.
    /// - Returns: the popped controller (nil when the root is on top).
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        UIKitThread.check("UINavigationController.popViewController(animated:)", self)
        guard children.count > 1, let top = children.last else { return nil }
        pop([top], animated: animated)
        return top
    }

    /// Pops every controller above the root.
    /// - Returns: the popped controllers.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        guard children.count > 1 else { return nil }
        let popped = Array(children.dropFirst())
        pop(popped, animated: animated)
        return popped
    }

    /// Pops the controllers above `viewController`.
    /// - Returns: the popped controllers.
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        guard let index = children.firstIndex(where: { $0 === viewController }), index < children.count - 1 else {
            return nil
        }
        let popped = Array(children[(index + 1)...])
        pop(popped, animated: animated)
        return popped
    }

    private func pop(_ popped: [UIViewController], animated: Bool) {
        guard let top = popped.last else { return }
        for controller in popped { controller.willMove(toParent: nil) }
        let revealed = children[children.count - popped.count - 1]
        delegate?.navigationController(self, willShow: revealed, animated: animated)
        transitionOut(top, animated: animated)
        transitionIn(revealed, animated: animated) {
            for controller in popped { controller.removeFromParent() }
            self.delegate?.navigationController(self, didShow: revealed, animated: animated)
        }
        // Popped controllers leave the stack at once (as `viewControllers` shows on iOS); they keep
        // their parent until the transition ends.
        storedChildren.removeAll { controller in popped.contains { $0 === controller } }
    }

    private var isOnScreen: Bool { appearance == .appeared || appearance == .appearing }

    private func install(_ controller: UIViewController) {
        controller.view.frame = view.bounds
        view.insertSubview(controller.view, belowSubview: storedNavigationBar)
    }

    private func transitionOut(_ controller: UIViewController, animated: Bool) {
        guard isViewLoaded else { return }
        if isOnScreen { controller.systemWillDisappear(animated) }
        let wasOnScreen = isOnScreen
        MainQueue.nextTurn {
            controller.viewIfLoaded?.removeFromSuperview()
            if wasOnScreen { controller.systemDidDisappear(animated) }
        }
    }

    private func transitionIn(_ controller: UIViewController, animated: Bool, completion: (() -> Void)? = nil) {
        guard isViewLoaded else {
            completion?()
            return
        }
        let onScreen = isOnScreen
        if onScreen { controller.systemWillAppear(animated) }
        install(controller)
        storedNavigationBar.setNeedsLayout()
        if onScreen { controller.systemIsAppearing(animated) }
        MainQueue.nextTurn {
            if onScreen { controller.systemDidAppear(animated) }
            completion?()
        }
    }

    /// The back button's tap: pops, as a finger on the back button does.
    func backButtonTapped() { popViewController(animated: true) }
}

/// `UINavigationControllerDelegate`: told when a controller shows. Every method is optional (a
/// default here).
@preconcurrency @MainActor
public protocol UINavigationControllerDelegate: NSObjectProtocol {
    /// `viewController` is about to show.
    func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    /// `viewController` showed.
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
}

extension UINavigationControllerDelegate {
    /// Nothing.
    public func navigationController(
        _ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool
    ) {}
    /// Nothing.
    public func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool
    ) {}
}

/// `UINavigationBar`: the bar at the top of a navigation controller. The screen shows the top
/// controller's title and bar buttons in it, and a back button when the stack is deeper than one.
@preconcurrency @MainActor
open class UINavigationBar: UIView {
    weak var controller: UINavigationController?

    init(controller: UINavigationController) {
        self.controller = controller
        super.init(frame: CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: 44))
    }

    /// A bar with `frame`.
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// A bar from a storyboard.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Whether large titles are shown.
    open var prefersLargeTitles = false
    /// Whether the bar is translucent.
    open var isTranslucent = true
    /// The bar's colour.
    open var barTintColor: UIColor?
    /// The title's attributes.
    open var titleTextAttributes: [NSAttributedString.Key: Any]?

    /// The items shown: the top controller's navigation item.
    open var topItem: UINavigationItem? { controller?.topViewController?.navigationItem }

    /// The item under the top one (its title is the back button's).
    open var backItem: UINavigationItem? {
        guard let stack = controller?.children, stack.count > 1 else { return nil }
        return stack[stack.count - 2].navigationItem
    }
}

/// `UIToolbar`: a bar of items at the bottom.
@preconcurrency @MainActor
open class UIToolbar: UIView {
    /// The items.
    open var items: [UIBarButtonItem]?
    /// Sets the items.
    open func setItems(_ items: [UIBarButtonItem]?, animated: Bool) { self.items = items }
}
