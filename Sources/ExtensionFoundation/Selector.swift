public import Foundation
import HostSystem

// Linux Swift has no Objective-C runtime: `@objc`, `#selector`, `@IBAction` do not compile, and
// swift-corelibs-foundation has no `Selector`, `responds(to:)` or `perform`. These are their
// equivalents: a selector is its Objective-C name, and an object answers the selectors it lists
// through ``SelectorDispatching`` (exthost's UIKit classes do; `exthost import` writes the
// conformance for a user class whose methods were `@objc`). docs/objc-runtime.md has the rules.

/// Apple's `Selector`: the Objective-C name of a method, such as `"openURL:"` or
/// `"open:options:completionHandler:"` (one colon per argument).
///
/// `#selector(open(_:options:completionHandler:))` does not compile on Linux; write
/// `Selector("open:options:completionHandler:")` (or a string literal where a `Selector` is
/// expected). The name follows Objective-C's rules: `f()` is `"f"`, `f(_:)` is `"f:"`, `f(with:)`
/// is `"fWith:"`, `f(_:options:)` is `"f:options:"`.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The selector's name (`"openURL:"`).
    public let name: String

    /// The selector named `name` (`"openURL:"`).
    public init(_ name: String) { self.name = name }

    /// The selector a string literal names: `let open: Selector = "openURL:"`.
    public init(stringLiteral value: String) { self.name = value }

    /// The name.
    public var description: String { name }

    /// How many arguments a method of this selector takes: one per colon.
    public var argumentCount: Int { name.reduce(0) { $1 == ":" ? $0 + 1 : $0 } }
}

/// Apple's `sel_registerName`: the selector named by the C string `str` (a string literal passes,
/// as in `sel_registerName("openURL:")`).
public func sel_registerName(_ str: UnsafePointer<CChar>) -> Selector { Selector(String(cString: str)) }

/// Apple's `NSSelectorFromString`: the selector named `aSelectorName`.
public func NSSelectorFromString(_ aSelectorName: String) -> Selector { Selector(aSelectorName) }

/// Apple's `NSStringFromSelector`: the name of `aSelector`.
public func NSStringFromSelector(_ aSelector: Selector) -> String { aSelector.name }

/// What the Objective-C runtime's method lookup does for an object: which selectors it answers,
/// and calling the method one names.
///
/// exthost's UIKit classes implement it for the selectors they answer (`UIApplication`:
/// `"openURL:"`, `"open:options:completionHandler:"`, `"canOpenURL:"`); code that `exthost import`
/// generates implements it for a user class whose methods were `@objc` or `@IBAction`. A subclass
/// of a UIKit class overrides both methods and calls `super` for the selectors it does not know:
///
/// ```swift
/// nonisolated override func canDispatch(_ selector: Selector) -> Bool {
///     selector == "shareTapped:" || super.canDispatch(selector)
/// }
/// nonisolated override func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
///     switch selector {
///     case "shareTapped:":
///         let sender = arguments[0]
///         MainActor.assumeIsolated { shareTapped(sender as Any) }
///         return .returned(nil)  // built outside the closure: SelectorResult is not Sendable
///     default: return super.dispatch(selector, arguments: arguments)
///     }
/// }
/// ```
///
/// Both are nonisolated, as the Objective-C runtime is: `perform(_:with:)` and
/// `Thread.detachNewThreadSelector(_:toTarget:with:)` call them on whatever thread they run.
public protocol SelectorDispatching: AnyObject {
    /// Whether the object has a method `selector` names (what `responds(to:)` answers).
    func canDispatch(_ selector: Selector) -> Bool

    /// Calls the method `selector` names with `arguments` (one per colon of the selector; fewer
    /// are filled with nil, as registers are for a method called with fewer arguments than it
    /// takes); nil when the object has no such method.
    func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult?
}

/// What a dispatched method did.
public enum SelectorResult {
    /// The method ran and returned this (nil for a `Void` method).
    case returned(Any?)
}

extension NSObject {
    /// Apple's `responds(to:)`: whether the object has a method `aSelector` names. True only for
    /// an object that lists it through ``SelectorDispatching`` (exthost's UIKit classes, code
    /// `exthost import` generates); false otherwise and for nil.
    public func responds(to aSelector: Selector?) -> Bool {
        guard let aSelector, let target = self as? any SelectorDispatching else { return false }
        return target.canDispatch(aSelector)
    }

    /// Apple's `perform(_:)`: calls the method `aSelector` names, with no argument.
    ///
    /// Returns the method's result, unretained (as Objective-C returns it, autoreleased: take it
    /// with `takeUnretainedValue()` at once), or nil for a `Void` method. An object that does not
    /// answer `aSelector` raises "unrecognized selector" on iOS; here the call returns nil and the
    /// host's report says so.
    @discardableResult
    public func perform(_ aSelector: Selector?) -> Unmanaged<AnyObject>? {
        SelectorCall.perform(aSelector, on: self, arguments: [])
    }

    /// Apple's `perform(_:with:)`: calls the method `aSelector` names with `object`; see
    /// ``perform(_:)`` for the result.
    @discardableResult
    public func perform(_ aSelector: Selector?, with object: Any?) -> Unmanaged<AnyObject>? {
        SelectorCall.perform(aSelector, on: self, arguments: [object])
    }

    /// Apple's `perform(_:with:with:)`: calls the method `aSelector` names with two arguments;
    /// see ``perform(_:)`` for the result.
    @discardableResult
    public func perform(_ aSelector: Selector?, with object1: Any?, with object2: Any?) -> Unmanaged<AnyObject>? {
        SelectorCall.perform(aSelector, on: self, arguments: [object1, object2])
    }
}

extension Thread {
    /// Apple's `detachNewThreadSelector(_:toTarget:with:)`: runs the method `selector` names on
    /// `target` with `argument`, on a new thread. A target that does not answer the selector
    /// raises on iOS; here nothing runs and the host's report says so.
    public class func detachNewThreadSelector(_ selector: Selector, toTarget target: Any, with argument: Any?) {
        guard let dispatching = target as? any SelectorDispatching, dispatching.canDispatch(selector) else {
            SelectorCall.unrecognized(selector, target)
            return
        }
        let call = UncheckedBox((dispatching, argument))
        Thread.detachNewThread {
            _ = call.value.0.dispatch(selector, arguments: SelectorCall.padded([call.value.1], for: selector))
        }
    }
}

/// The work behind `perform`: dispatch, keep the result alive, report unknown selectors.
enum SelectorCall {
    /// The last results handed out, kept alive as an autorelease pool keeps them until the event
    /// ends (the caller takes them unretained).
    private static let recent = Locked<[UncheckedBox<AnyObject>]>([])
    private static let keptCount = 64

    static func perform(_ selector: Selector?, on object: NSObject, arguments: [Any?]) -> Unmanaged<AnyObject>? {
        guard let selector else { return nil }
        guard let target = object as? any SelectorDispatching, target.canDispatch(selector),
            let result = target.dispatch(selector, arguments: padded(arguments, for: selector))
        else {
            unrecognized(selector, object)
            return nil
        }
        guard case .returned(let value) = result, let value, !(value is Void) else { return nil }
        let boxed = value as AnyObject
        let kept = UncheckedBox(boxed)
        recent.withLock { list in
            list.append(kept)
            if list.count > keptCount { list.removeFirst(list.count - keptCount) }
        }
        return Unmanaged.passUnretained(boxed)
    }

    /// `arguments` with one entry per colon of `selector` (missing ones nil).
    static func padded(_ arguments: [Any?], for selector: Selector) -> [Any?] {
        let count = selector.argumentCount
        if arguments.count >= count { return arguments }
        return arguments + Array(repeating: nil, count: count - arguments.count)
    }

    static func unrecognized(_ selector: Selector, _ target: Any) {
        ExtensionLog.error(
            "-[\(type(of: target)) \(selector.name)]: unrecognized selector sent to instance (on iOS this raises "
                + "NSInvalidArgumentException and ends the process); exthost answers only selectors an object lists "
                + "through SelectorDispatching")
    }
}
