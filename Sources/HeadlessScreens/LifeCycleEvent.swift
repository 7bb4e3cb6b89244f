/// One call UIKit made to a view controller, in the order the device makes them: `beginRequest(with:)`,
/// `loadView`, `viewDidLoad`, `viewWillAppear(_:)`, `viewIsAppearing(_:)`, `viewDidAppear(_:)`, and on
/// the way out `viewWillDisappear(_:)`, `viewDidDisappear(_:)`; containment (`willMove(toParent:)`,
/// `didMove(toParent:)`) and the compose sheet's calls (`presentationAnimationDidFinish`, `didSelectPost`,
/// `didSelectCancel`).
public struct LifeCycleEvent: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The view controller's class (`ShareViewController`).
    public var controller: String
    /// The method called, with its argument when it has one (`viewWillAppear(true)`).
    public var call: String

    /// An event.
    public init(controller: String, call: String) {
        self.controller = controller
        self.call = call
    }

    /// `ShareViewController.viewDidLoad()`.
    public var description: String { "\(controller).\(call)" }
}
