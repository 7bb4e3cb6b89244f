public import ExtensionFoundation
public import Foundation

/// `UIResponder`: an object that takes part in the responder chain — views, view controllers,
/// windows, the application and its delegates.
///
/// As on iOS, ``next`` is `nil` here; `UIView`, `UIViewController` and `UIWindow` override it, so an
/// extension's view controller reaches a `UIApplication` by walking `next` (Apple: "UIView …
/// returns the UIViewController object that manages it (if it has one) or its superview …
/// UIWindow returns the application object").
///
/// `init?(coder:)` is `required` here (on iOS it comes from `NSCoding` on views and view
/// controllers): Swift on Linux can make an object from a class named at run time only through a
/// required initializer, and UIKit makes app delegates, scene delegates and a storyboard's view
/// controllers that way. A subclass that declares its own designated initializer therefore writes
/// `required init?(coder:)` — which view and view controller subclasses already do on iOS.
///
/// It answers `responds(to:)` and `perform(_:with:)` through `SelectorDispatching` (Linux has no
/// Objective-C runtime): a subclass that wants a selector answered overrides ``canDispatch(_:)``
/// and ``dispatch(_:arguments:)`` and calls `super` for the others (docs/objc-runtime.md).
@preconcurrency @MainActor
open class UIResponder: NSObject, SelectorDispatching {
    /// A responder.
    public override init() { super.init() }

    /// Whether the responder has a method `selector` names: none here; subclasses list theirs.
    nonisolated open func canDispatch(_ selector: Selector) -> Bool { false }

    /// Calls the method `selector` names: none here (nil); subclasses call theirs.
    nonisolated open func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? { nil }

    /// A responder made from an archive (a storyboard), or by UIKit from a class name.
    public required init?(coder: NSCoder) { super.init() }

    /// Makes an object of a responder class named at run time (an app or scene delegate), as UIKit
    /// does through the Objective-C runtime: through the required `init?(coder:)`, with an empty coder.
    package static func instantiate() -> Self? { Self(coder: UIKeyedCoder()) }

    /// The next responder in the chain, or `nil`: "The UIResponder class doesn’t store or set the next
    /// responder automatically, so this method returns nil by default" (Apple).
    open var next: UIResponder? { nil }

    /// Whether this object can become the first responder (`false` by default, as on iOS; text
    /// fields and text views say `true`).
    open var canBecomeFirstResponder: Bool { false }

    /// Whether this object gives up first-responder status when asked (`true`).
    open var canResignFirstResponder: Bool { true }

    /// Whether this object is its window's first responder.
    open var isFirstResponder: Bool { firstResponderWindow?.firstResponder === self }

    /// Asks UIKit to make this object the first responder in its window: the current one is asked to
    /// resign first, then ``canBecomeFirstResponder`` decides. Only objects in a window can (Apple:
    /// "Only call this method on views that are part of the active view hierarchy").
    /// - Returns: whether this object is now the first responder.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        UIKitThread.check("UIResponder.becomeFirstResponder()", self)
        guard let window = firstResponderWindow else { return false }
        if window.firstResponder === self { return true }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        guard canBecomeFirstResponder else { return false }
        window.firstResponder = self
        firstResponderDidBegin()
        UIKitThread.noteChange()
        return true
    }

    /// Gives up first-responder status.
    /// - Returns: `false` when ``canResignFirstResponder`` refuses.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        UIKitThread.check("UIResponder.resignFirstResponder()", self)
        guard let window = firstResponderWindow, window.firstResponder === self else { return true }
        guard canResignFirstResponder, firstResponderShouldEnd() else { return false }
        window.firstResponder = nil
        firstResponderDidEnd()
        UIKitThread.noteChange()
        return true
    }

    /// The window whose first responder this object can be (a view's window; nil otherwise).
    var firstResponderWindow: UIWindow? { nil }

    /// Called when this object has become the first responder (text fields begin editing).
    func firstResponderDidBegin() {}

    /// Asked before resigning (text fields ask their delegate).
    func firstResponderShouldEnd() -> Bool { true }

    /// Called when this object has resigned (text fields end editing).
    func firstResponderDidEnd() {}
}
