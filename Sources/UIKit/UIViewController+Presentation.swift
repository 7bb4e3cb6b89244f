import Foundation
import HeadlessScreens

extension UIViewController {
    /// The controller this one presented (or one of its ancestors presented), if any.
    public var presentedViewController: UIViewController? {
        storedPresented ?? presentationContext.storedPresented.flatMap { $0 === self ? nil : $0 }
    }

    /// The controller that presented this one (or one of its ancestors), if any.
    public var presentingViewController: UIViewController? {
        storedPresenting ?? storedParent?.presentingViewController
    }

    /// Whether the controller is being presented right now (until its `viewDidAppear`).
    public var isBeingPresented: Bool { presentationPhase == .presenting }
    /// Whether the controller is being dismissed right now (until its `viewDidDisappear`).
    public var isBeingDismissed: Bool { presentationPhase == .dismissing }

    /// The controller that handles presentations for this one: its topmost parent (Apple: "If the
    /// current view controller is unable to fulfill a request, it forwards the request up the view
    /// controller hierarchy to its nearest parent").
    var presentationContext: UIViewController {
        var controller = self
        while let parent = controller.storedParent { controller = parent }
        return controller
    }

    /// Presents `viewControllerToPresent` modally: it loads its view, gets `viewWillAppear`, its
    /// view goes on screen, `viewIsAppearing`, then at the next turn of the main queue
    /// `viewDidAppear` and `completion` (Apple: "The completion handler is called after the
    /// viewDidAppear(_:) method is called on the presented view controller").
    ///
    /// As on iOS, nothing is presented (and the screen's diagnostics say why) when the presenting
    /// controller's view is not in a window yet — presenting from `viewDidLoad` or `viewWillAppear` —
    /// or when it is already presenting another controller.
    public func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil
    ) {
        UIKitThread.check("UIViewController.present(_:animated:completion:)", self)
        let presenter = presentationContext
        let name = String(describing: type(of: viewControllerToPresent))
        let presenterName = String(describing: type(of: presenter))
        guard let window = presenter.viewIfLoaded?.window else {
            UIKitDiagnostics.record(
                .presentationRefused,
                "Attempt to present \(name) on \(presenterName) whose view is not in the window hierarchy "
                    + "(present it from viewDidAppear or later): nothing was presented", object: presenter)
            return
        }
        if let current = presenter.storedPresented {
            let what = current.isBeingDismissed ? "while a dismissal is in progress" : "which is already presenting"
            UIKitDiagnostics.record(
                .presentationRefused,
                "Attempt to present \(name) on \(presenterName) \(what) \(String(describing: type(of: current))): "
                    + "nothing was presented", object: presenter)
            return
        }
        guard viewControllerToPresent.storedPresenting == nil, viewControllerToPresent.storedParent == nil,
            viewControllerToPresent !== presenter
        else {
            UIKitDiagnostics.record(
                .presentationRefused,
                "Application tried to present modally a view controller (\(name)) that is already presented or "
                    + "contained: iOS raises NSInvalidArgumentException", object: presenter)
            return
        }
        presenter.storedPresented = viewControllerToPresent
        viewControllerToPresent.storedPresenting = presenter
        viewControllerToPresent.presentationPhase = .presenting
        viewControllerToPresent.flushLifeCycle()
        viewControllerToPresent.loadViewIfNeeded()
        let covers = viewControllerToPresent.resolvedPresentationStyle == .fullScreen
        if covers { presenter.systemWillDisappear(flag) }
        viewControllerToPresent.systemWillAppear(flag)
        viewControllerToPresent.view.frame = window.bounds
        window.addSubview(viewControllerToPresent.view)
        viewControllerToPresent.systemIsAppearing(flag)
        viewControllerToPresent.didAppearOnScreen()
        MainQueue.nextTurn {
            viewControllerToPresent.systemDidAppear(flag)
            if covers {
                presenter.viewIfLoaded?.isHidden = true
                presenter.systemDidDisappear(flag)
            }
            viewControllerToPresent.presentationPhase = nil
            completion?()
        }
    }

    /// Dismisses the controller this one presented — or, called on a presented controller, itself
    /// (Apple: "If you call this method on the presented view controller itself, UIKit asks the
    /// presenting view controller to handle the dismissal"). Controllers presented above go too.
    /// `viewWillDisappear` now; at the next turn the views leave the screen, `viewDidDisappear`, then
    /// `completion` (Apple: "called after the viewDidDisappear(_:) method is called on the presented
    /// view controller").
    ///
    /// Called on the extension's principal view controller (presented by the host, not by a
    /// controller of the extension), it closes the extension's sheet.
    public func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        UIKitThread.check("UIViewController.dismiss(animated:completion:)", self)
        let context = presentationContext
        if let presented = context.storedPresented {
            context.dismissPresented(presented, animated: flag, completion: completion)
        } else if let presenter = context.storedPresenting {
            presenter.dismissPresented(context, animated: flag, completion: completion)
        } else if let screen = context.viewIfLoaded?.window?.extensionScreen, screen.rootViewController === context {
            screen.closeSheet(animated: flag, because: "\(String(describing: type(of: self))).dismiss(animated:)") {
                completion?()
            }
        }
    }

    private func dismissPresented(_ presented: UIViewController, animated flag: Bool, completion: (() -> Void)?) {
        guard presented.presentationPhase != .dismissing else { return }
        var stack = [presented]
        while let above = stack.last?.storedPresented { stack.append(above) }
        let covers = presented.resolvedPresentationStyle == .fullScreen
        for controller in stack.reversed() {
            controller.presentationPhase = .dismissing
            controller.systemWillDisappear(flag)
        }
        if covers {
            viewIfLoaded?.isHidden = false
            systemWillAppear(flag)
            systemIsAppearing(flag)
        }
        MainQueue.nextTurn {
            for controller in stack.reversed() {
                controller.viewIfLoaded?.removeFromSuperview()
                controller.systemDidDisappear(flag)
                controller.storedPresenting?.storedPresented = nil
                controller.storedPresenting = nil
                controller.presentationPhase = nil
                controller.didLeaveScreen()
            }
            if covers { self.systemDidAppear(flag) }
            completion?()
        }
    }

    /// The style used: `.automatic` (and the styles a compact phone adapts) become a page sheet.
    var resolvedPresentationStyle: UIModalPresentationStyle {
        switch modalPresentationStyle {
        case .fullScreen, .overFullScreen, .custom, .currentContext, .overCurrentContext: modalPresentationStyle
        case .automatic, .pageSheet, .formSheet, .popover, .none: .pageSheet
        }
    }
}

/// Where a controller is in a presentation.
enum PresentationPhase {
    case presenting, dismissing
}
