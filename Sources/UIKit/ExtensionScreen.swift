package import ExtensionFoundation
import Foundation
package import HeadlessScreens
import ItemProviders

/// The extension's screen, headless: a phone-sized window that shows the principal view controller
/// as the extension's sheet, runs its life cycle as a device does, and records every call.
///
/// The extension runtime makes one per request: `present()` gives the controller the request
/// (`beginRequest(with:)`) and shows it (`loadView`, `viewDidLoad`, `viewWillAppear`,
/// `viewIsAppearing`, then `viewDidAppear`); ``run(_:)`` lets a scripted user act on it; when the
/// request ends the sheet goes (`viewWillDisappear`, `viewDidDisappear`), as the host dismisses it.
/// ``snapshot()`` is what is on screen, ``diagnostics()`` what went wrong.
@MainActor
package final class ExtensionScreen {
    /// The extension's principal view controller.
    package let rootViewController: UIViewController
    /// The request, when the controller serves one.
    package let context: NSExtensionContext?
    /// The window the sheet is in.
    package let window: UIWindow
    /// The calls UIKit made, in order.
    package let journal = LifeCycleJournal()
    /// Why the sheet closed (nil while it is up).
    package private(set) var closedBecause: String?
    /// Whether the request ended (completed or cancelled).
    package private(set) var requestEnded = false
    private var stepDiagnostics: [UIDiagnostic] = []
    private var presented = false
    private static var liveScreens = 0
    private let firstSequence: UInt64
    /// UIKit's change count when the screen was made: a violation on an object gone since is this
    /// screen's only if it came later.
    private let firstGeneration: UInt64

    /// A screen for `rootViewController`, serving `context`.
    package init(rootViewController: UIViewController, context: NSExtensionContext?) {
        self.rootViewController = rootViewController
        self.context = context
        window = UIWindow(frame: UIScreen.main.bounds)
        firstSequence = LifeCycleClock.tick()
        firstGeneration = UIKitThread.generation
        window.extensionScreen = self
        rootViewController.hostedJournal = journal
        Self.liveScreens += 1
        UIKitThread.screenCount(adding: 1)
    }

    isolated deinit {
        Self.liveScreens -= 1
        UIKitThread.screenCount(adding: -1)
    }

    /// Whether the sheet has closed.
    package var isClosed: Bool { closedBecause != nil }

    /// Gives the controller its request and shows the sheet. `viewDidAppear` (and a compose sheet's
    /// `presentationAnimationDidFinish`) follow at the next turn of the main queue.
    package func present() {
        guard !presented else { return }
        presented = true
        if let context {
            rootViewController.record("beginRequest(with:)")
            rootViewController.beginRequest(with: context)
            let model = context.model
            Task { @MainActor [weak self] in
                _ = await model.outcome()
                self?.requestDidEnd()
            }
        }
        window.rootViewController = rootViewController
        window.makeKeyAndVisible()
    }

    /// Lets the main queue run what is already scheduled (the end of a presentation, an animation's
    /// completion), a few turns deep, so the screen shows where the last step led.
    package func settle() async {
        for _ in 0..<8 {
            let before = UIKitThread.generation
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async { continuation.resume() }
            }
            if UIKitThread.generation == before { break }
        }
    }

    /// What is on screen now.
    package func snapshot() -> ScreenSnapshot {
        var walker = ScreenWalker()
        return walker.snapshot(of: window, root: rootViewController, closed: isClosed)
    }

    /// What is on screen now, and what a finger could tap.
    func snapshotWithTargets() -> (ScreenSnapshot, [TapTarget]) {
        var walker = ScreenWalker()
        let screen = walker.snapshot(of: window, root: rootViewController, closed: isClosed)
        return (screen, walker.targets)
    }

    /// The steps a person takes when given none: `tap Post` for a compose sheet, nothing otherwise.
    package var defaultScript: UIScript { rootViewController.defaultUserScript }

    /// The calls UIKit made to the view controllers of this screen, in order.
    package var lifeCycle: [LifeCycleEvent] { journal.events }

    /// Closes the extension's sheet: its controllers disappear (`viewWillDisappear` now,
    /// `viewDidDisappear` at the next turn), then `completion` runs.
    package func closeSheet(animated: Bool, because reason: String, completion: (() -> Void)? = nil) {
        guard closedBecause == nil else {
            completion?()
            return
        }
        closedBecause = reason
        var stack = [rootViewController]
        while let above = stack.last?.storedPresented { stack.append(above) }
        for controller in stack.reversed() { controller.systemWillDisappear(animated) }
        if let responder = window.firstResponder {
            window.firstResponder = nil
            responder.firstResponderDidEnd()
        }
        UIKitThread.noteChange()
        MainQueue.nextTurn {
            for controller in stack.reversed() {
                controller.viewIfLoaded?.removeFromSuperview()
                controller.systemDidDisappear(animated)
            }
            UIKitThread.noteChange()
            completion?()
        }
    }

    private func requestDidEnd() {
        requestEnded = true
        UIKitThread.noteChange()
        if closedBecause == nil { closeSheet(animated: true, because: "the request ended") }
    }

    func addDiagnostic(_ diagnostic: UIDiagnostic) { stepDiagnostics.append(diagnostic) }

    /// What went wrong, explained: UI touched off the main thread, taps a finger could not make (Post
    /// while `isContentValid()` was false), presentations UIKit refused, constraints without a common
    /// ancestor; and at the end, a sheet that closed without the request ending, an alert left
    /// unanswered.
    package func diagnostics() -> [UIDiagnostic] {
        var list: [UIDiagnostic] = []
        for violation in UIKitThread.violations where belongs(violation) {
            list.append(
                UIDiagnostic(
                    kind: .offMainThread,
                    message: "\(violation.api) was set off the main thread (UIKit must be used from the main "
                        + "thread only; on a device the Main Thread Checker reports it and the UI may not update)",
                    callSite: violation.callSite, count: violation.count))
        }
        for record in UIKitDiagnostics.records where record.sequence > firstSequence && belongs(record.object) {
            list.append(record.diagnostic)
        }
        list += stepDiagnostics
        // The model says at once whether the request ended (``requestEnded`` follows a turn later).
        if isClosed, let context, !requestEnded, !context.model.isFinished {
            list.append(
                UIDiagnostic(
                    kind: .requestNeverCompleted,
                    message: "the sheet closed (\(closedBecause ?? "")) but the extension never called "
                        + "completeRequest(returningItems:completionHandler:) or cancelRequest(withError:): on a "
                        + "device the host app waits until the system ends the extension"))
        }
        var controller = rootViewController.storedPresented
        while let current = controller {
            if let alert = current as? UIAlertController, !alert.answered {
                list.append(
                    UIDiagnostic(
                        kind: .alertNeverAnswered,
                        message: "the alert \"\(alert.title ?? "")\" is still on screen: no action was chosen "
                            + "(answer it with `alert ACTION-TITLE`)"))
            }
            controller = current.storedPresented
        }
        return list
    }

    /// Whether `object` (a view, controller, constraint, gesture recognizer) is part of this screen;
    /// an object that is gone or in no hierarchy counts when this is the only screen.
    private func belongs(_ violation: UIKitThread.Violation) -> Bool {
        // An object gone since (another screen's, in a process that shows several — a test process)
        // is this one's only if the change came after this screen was made, while it was the only
        // screen alive: then it was this screen's.
        guard let object = violation.object.object else {
            return violation.sequence > firstGeneration && violation.screensLive == 1
        }
        return belongs(object)
    }

    private func belongs(_ object: AnyObject?) -> Bool {
        switch object {
        case let view as UIView:
            if view.window === window { return true }
            var top = view
            while let superview = top.superview { top = superview }
            if let owner = top.owningViewController { return belongs(owner) }
        case let controller as UIViewController:
            if controller.journal === journal { return true }
        case let constraint as NSLayoutConstraint:
            return belongs(NSLayoutConstraint.view(of: constraint.firstItem))
        case let item as any ScreenAttributable:
            return item.isOnScreen(self)
        default:
            break
        }
        return Self.liveScreens == 1
    }
}

/// An object of another module that knows whether it is on a screen (a compose sheet's
/// configuration item), so the screen reports only its own diagnostics.
@MainActor
package protocol ScreenAttributable: AnyObject {
    /// Whether the object is shown on `screen`.
    func isOnScreen(_ screen: ExtensionScreen) -> Bool
}

extension UIViewController {
    /// Closes the extension's sheet this controller is on — what the compose sheet's Post and Cancel
    /// animations end with — then runs `completion`; a controller on no extension screen (made by a
    /// test) runs `completion` at the next turn of the main queue.
    package func closeExtensionSheet(because reason: String, completion: @escaping () -> Void) {
        if let screen = viewIfLoaded?.window?.extensionScreen {
            screen.closeSheet(animated: true, because: reason, completion: completion)
        } else {
            MainQueue.nextTurn(completion)
        }
    }
}
