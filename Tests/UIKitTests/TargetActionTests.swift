import ExtensionFoundation
import Foundation
import HeadlessScreens
import Testing

@testable import UIKit

/// A view controller wired as Xcode projects wire one: `addTarget(_:action:for:)` with selectors, and
/// the members `exthost import` writes for its `@objc` methods (docs/objc-runtime.md; in Swift 6 mode,
/// as here, the call inside `MainActor.assumeIsolated` returns `Void`: `SelectorResult` is not `Sendable`).
final class TargetActionViewController: UIViewController {
    let save = UIButton(type: .system)
    let close = UIButton(type: .system)
    let detail = UIButton(type: .system)
    var saved: [AnyObject] = []
    var closed = 0
    var events: [UIEvent.EventType] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        save.setTitle("Save", for: .normal)
        save.addTarget(self, action: Selector("saveTapped:"), for: .touchUpInside)
        // The same pair again only adds events: one tap still saves once.
        save.addTarget(self, action: Selector("saveTapped:"), for: .touchUpInside)
        close.setTitle("Close", for: .normal)
        // No target: the action goes up the responder chain (button → view → this controller).
        close.addTarget(nil, action: "close", for: .touchUpInside)
        detail.setTitle("Detail", for: .normal)
        detail.addTarget(self, action: "detailTapped:forEvent:", for: .primaryActionTriggered)
        view.addSubview(save)
        view.addSubview(close)
        view.addSubview(detail)
    }

    func saveTapped(_ sender: Any) { saved.append(sender as AnyObject) }
    func closeSheet() { closed += 1 }
    var detailCalls = 0
    func detailTapped(_ sender: Any, forEvent event: UIEvent?) {
        detailCalls += 1
        if let event { events.append(event.type) }
    }

    nonisolated override func canDispatch(_ selector: Selector) -> Bool {
        switch selector {
        case "saveTapped:", "close", "detailTapped:forEvent:": return true
        default: return super.canDispatch(selector)
        }
    }

    nonisolated override func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
        switch selector {
        case "saveTapped:":
            nonisolated(unsafe) let sender = arguments[0]
            MainActor.assumeIsolated { saveTapped(sender as Any) }
            return .returned(nil)
        case "close":
            MainActor.assumeIsolated { closeSheet() }
            return .returned(nil)
        case "detailTapped:forEvent:":
            nonisolated(unsafe) let sender = arguments[0]
            nonisolated(unsafe) let event = arguments[1]
            MainActor.assumeIsolated { detailTapped(sender as Any, forEvent: event as? UIEvent) }
            return .returned(nil)
        default: return super.dispatch(selector, arguments: arguments)
        }
    }
}

/// A target that is not a responder: it answers through a `SelectorDispatching` conformance.
final class Counter: NSObject, SelectorDispatching {
    var count = 0
    func canDispatch(_ selector: Selector) -> Bool { selector == "increment" }
    func dispatch(_ selector: Selector, arguments: [Any?]) -> SelectorResult? {
        guard selector == "increment" else { return nil }
        count += 1
        return .returned(nil)
    }
}

/// `UIControl.addTarget(_:action:for:)`, bar button items' and gesture recognizers' targets and actions.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct TargetActionTests {
    @Test func aTapSendsTheActionToTheTargetWithTheButtonAsSender() async throws {
        let controller = TargetActionViewController()
        let screen = await Screen.present(controller)
        let run = try await Screen.run("tap Save", on: screen)
        #expect(run.steps.map(\.outcome) == [.performed], "\(run.steps.map(\.note))")
        #expect(controller.saved.count == 1)
        #expect(controller.saved.first === controller.save)
        #expect(controller.closed == 0)
    }

    @Test func aNilTargetReachesTheFirstResponderOfTheChainThatAnswers() async throws {
        let controller = TargetActionViewController()
        let screen = await Screen.present(controller)
        _ = try await Screen.run("tap Close", on: screen)
        #expect(controller.closed == 1)
        #expect(controller.saved.isEmpty)
    }

    @Test func anActionWithTwoColonsGetsTheSenderAndTheEvent() async throws {
        let controller = TargetActionViewController()
        let screen = await Screen.present(controller)
        _ = try await Screen.run("tap Detail", on: screen)
        #expect(controller.events == [.touches])
        // Sent from code, the action gets no event (and still runs).
        controller.detail.sendActions(for: .primaryActionTriggered)
        #expect(controller.events == [.touches] && controller.detailCalls == 2)
    }

    @Test func targetsAreListedAndRemovedByTargetActionAndEvent() {
        let button = UIButton(type: .system)
        let counter = Counter()
        button.addTarget(counter, action: "increment", for: [.touchUpInside, .valueChanged])
        button.addTarget(nil, action: "close", for: .touchUpInside)
        // Linux Foundation's NSNull is not a singleton: look for one by type.
        #expect(button.allTargets.count == 2 && button.allTargets.contains(AnyHashable(counter)))
        #expect(button.allTargets.contains { $0.base is NSNull })
        #expect(button.actions(forTarget: counter, forControlEvent: .valueChanged) == ["increment"])
        #expect(button.actions(forTarget: counter, forControlEvent: .editingChanged) == nil)
        #expect(button.actions(forTarget: nil, forControlEvent: .touchUpInside) == nil)
        #expect(button.allControlEvents == [.touchUpInside, .valueChanged])

        button.sendActions(for: .valueChanged)
        #expect(counter.count == 1)
        // Removed for one event, it still answers the other.
        button.removeTarget(counter, action: "increment", for: .valueChanged)
        button.sendActions(for: .valueChanged)
        #expect(counter.count == 1)
        button.sendActions(for: .touchUpInside)
        #expect(counter.count == 2)
        // A nil target removes that action from every target (here the responder-chain one).
        button.removeTarget(nil, action: "close", for: .allEvents)
        #expect(button.allTargets == [AnyHashable(counter)])
        // A nil action removes every action of the target.
        button.removeTarget(counter, action: nil, for: .allEvents)
        #expect(button.allTargets.isEmpty && button.allControlEvents.isEmpty)
    }

    @Test func aReleasedTargetIsNotCalledAndNotRetained() {
        let button = UIButton(type: .system)
        weak var gone: Counter?
        do {
            let counter = Counter()
            gone = counter
            button.addTarget(counter, action: "increment", for: .touchUpInside)
        }
        #expect(gone == nil)
        button.sendActions(for: .touchUpInside)
        #expect(button.allTargets.isEmpty)
    }

    @Test func sendActionToAnExplicitTargetCallsIt() {
        let button = UIButton(type: .system)
        let counter = Counter()
        button.sendAction("increment", to: counter, for: nil)
        #expect(counter.count == 1)
        // A selector the target does not answer calls nothing (iOS raises "unrecognized selector").
        button.sendAction("decrement", to: counter, for: nil)
        #expect(counter.count == 1)
    }

    @Test func aBarButtonItemAndAGestureRecognizerCallTheirTargets() {
        let counter = Counter()
        let item = UIBarButtonItem(title: "Count", style: .plain, target: counter, action: "increment")
        #expect(item.target === counter && item.action == "increment" && item.title == "Count")
        item.tapAsFinger()
        let system = UIBarButtonItem(barButtonSystemItem: .done, target: counter, action: "increment")
        #expect(system.systemItem == .done)
        system.tapAsFinger()
        #expect(counter.count == 2)

        let tap = UITapGestureRecognizer(target: counter, action: "increment")
        tap.recognize()
        #expect(counter.count == 3)
        tap.removeTarget(counter, action: "increment")
        tap.recognize()
        #expect(counter.count == 3)
    }
}
