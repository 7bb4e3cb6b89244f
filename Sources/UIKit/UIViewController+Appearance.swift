import Foundation

extension UIViewController {
    /// Tells a child it starts appearing (`true`) or disappearing (`false`), for containers that
    /// forward appearance themselves.
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        if isAppearing {
            systemWillAppear(animated)
            systemIsAppearing(animated)
        } else {
            systemWillDisappear(animated)
        }
    }

    /// Ends the transition ``beginAppearanceTransition(_:animated:)`` began.
    public func endAppearanceTransition() {
        switch appearance {
        case .appearing: systemDidAppear(false)
        case .disappearing: systemDidDisappear(false)
        case .appeared, .disappeared: break
        }
    }

    /// Children whose views are inside this controller's view: they appear and disappear with it.
    private var appearanceChildren: [UIViewController] {
        guard shouldAutomaticallyForwardAppearanceMethods, let view = viewIfLoaded else { return [] }
        return storedChildren.filter { child in child.viewIfLoaded.map { $0.isDescendant(of: view) } ?? false }
    }

    func systemWillAppear(_ animated: Bool) {
        guard appearance == .disappeared || appearance == .disappearing else { return }
        loadViewIfNeeded()
        beforeAppearing?()
        appearance = .appearing
        record("viewWillAppear(\(animated))")
        viewWillAppear(animated)
        for child in appearanceChildren { child.systemWillAppear(animated) }
    }

    func systemIsAppearing(_ animated: Bool) {
        guard appearance == .appearing else { return }
        record("viewIsAppearing(\(animated))")
        viewIsAppearing(animated)
        for child in appearanceChildren { child.systemIsAppearing(animated) }
        systemLayout()
    }

    func systemDidAppear(_ animated: Bool) {
        guard appearance == .appearing else { return }
        appearance = .appeared
        if containmentPhase == .adding { containmentPhase = nil }
        record("viewDidAppear(\(animated))")
        viewDidAppear(animated)
        for child in appearanceChildren { child.systemDidAppear(animated) }
        afterAppearing?()
    }

    func systemWillDisappear(_ animated: Bool) {
        guard appearance == .appeared || appearance == .appearing else { return }
        appearance = .disappearing
        record("viewWillDisappear(\(animated))")
        viewWillDisappear(animated)
        for child in appearanceChildren { child.systemWillDisappear(animated) }
    }

    func systemDidDisappear(_ animated: Bool) {
        guard appearance == .disappearing else { return }
        appearance = .disappeared
        record("viewDidDisappear(\(animated))")
        viewDidDisappear(animated)
        for child in appearanceChildren { child.systemDidDisappear(animated) }
    }

    /// A layout pass, as UIKit makes one before the view shows (not recorded: it happens often).
    func systemLayout() {
        viewWillLayoutSubviews()
        viewIfLoaded?.layoutSubviews()
        viewDidLayoutSubviews()
    }

    /// A child whose view enters or leaves a window while its parent is on screen appears or
    /// disappears with it, as UIKit forwards appearance to contained controllers.
    func rootViewDidMove(toWindow window: UIWindow?) {
        guard let parent = storedParent, parent.shouldAutomaticallyForwardAppearanceMethods else { return }
        if window != nil, appearance == .disappeared, parent.appearance == .appeared || parent.appearance == .appearing
        {
            systemWillAppear(false)
            systemIsAppearing(false)
            if parent.appearance == .appeared { systemDidAppear(false) }
        } else if window == nil, appearance == .appeared || appearance == .appearing {
            systemWillDisappear(false)
            systemDidDisappear(false)
        }
    }
}
