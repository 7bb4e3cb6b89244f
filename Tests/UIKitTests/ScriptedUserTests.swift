import ExtensionFoundation
import Foundation
import HeadlessScreens
import ItemProviders
import Testing

@testable import UIKit

/// A controller that asks before saving, as many share extensions do.
final class ConfirmingViewController: UIViewController, UITextFieldDelegate {
    let field = UITextField()
    let button = UIButton(type: .system)
    let result = UILabel()
    var refusedDigits = true
    var returnPressed = false
    var presentedInViewDidLoad = false

    override func viewDidLoad() {
        super.viewDidLoad()
        field.placeholder = "Title"
        field.delegate = self
        button.setTitle("Save", for: .normal)
        button.addAction(UIAction { [weak self] _ in self?.confirm() }, for: .primaryActionTriggered)
        result.text = "Nothing yet"
        view.addSubview(field)
        view.addSubview(button)
        view.addSubview(result)
    }

    func confirm() {
        let alert = UIAlertController(
            title: "Save \"\(field.text ?? "")\"?", message: "It goes to the group.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(
            UIAlertAction(title: "Save", style: .default) { [weak self] _ in
                guard let self else { return }
                self.result.text = "Saved \(self.field.text ?? "")"
                self.extensionContext?.completeRequest(returningItems: nil)
            })
        present(alert, animated: true)
    }

    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String)
        -> Bool
    {
        !(refusedDigits && string.allSatisfy(\.isNumber))
    }

    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        returnPressed = true
        return textField.resignFirstResponder()
    }
}

@MainActor
struct ScriptedUserTests {
    @Test func aFingerTapsTypesAndAnswersTheAlert() async throws {
        let controller = ConfirmingViewController()
        let context = Screen.context()
        let screen = await Screen.present(controller, context: context)
        let run = try await Screen.run(
            """
            # give the item a title, then save it
            tap Title
            type "Trip 2024\\n"
            tap Save
            alert Save
            """, on: screen)
        #expect(
            run.steps.map(\.outcome) == [.performed, .performed, .performed, .performed], "\(run.steps.map(\.note))")
        #expect(controller.field.text == "Trip ", "digits were refused by the delegate")
        #expect(controller.returnPressed)
        #expect(run.steps[1].note.contains("its delegate refused 4"))
        let afterTap = run.steps[2].screen
        #expect(afterTap.layers.map(\.kind) == [.sheet, .alert])
        #expect(afterTap.front?.title == "Save \"Trip \"?")
        #expect(afterTap.front?.root.children.compactMap(\.text) == ["Cancel", "Save"])
        #expect(
            run.steps[2].screenText.contains(
                "▸ alert UIAlertController \"Save \\\"Trip \\\"?\" — \"It goes to the group.\""))
        // The handler ran after the alert went, and completed the request: the sheet closed.
        #expect(controller.result.text == "Saved Trip ")
        #expect(context.model.isFinished)
        #expect(run.steps[3].screen.closed == true)
        #expect(screen.diagnostics().isEmpty, "\(screen.diagnostics())")
        // The life cycle includes the alert's own.
        #expect(
            calls(screen, "UIAlertController").prefix(3) == ["loadView()", "viewDidLoad()", "viewWillAppear(true)"])
    }

    @Test func aStepNamingNoControlStopsTheRunWithItsLine() async throws {
        let screen = await Screen.present(ConfirmingViewController())
        let run = try await Screen.run("tap Title\n\ntap Publish\ntap Save", on: screen)
        #expect(run.steps.count == 2)
        #expect(run.steps.last?.outcome == .failed)
        let failure = try #require(run.failure(source: "steps.txt"))
        #expect(failure.line == 3)
        #expect(failure.column == 1)
        #expect(failure.description.hasPrefix("steps.txt:3:1: no control \"Publish\" is on screen"))
        #expect(failure.message.contains("\"Save\""), "the note lists what can be tapped: \(failure.message)")
    }

    @Test func aDisabledOrHiddenControlIsNotTapped() async throws {
        let controller = ConfirmingViewController()
        let screen = await Screen.present(controller)
        controller.button.isEnabled = false
        var run = try await Screen.run("tap Save", on: screen)
        #expect(run.steps[0].outcome == .ignored)
        #expect(screen.snapshot().front?.root.allNodes.first { $0.text == "Save" }?.enabled == false)
        controller.button.isEnabled = true
        controller.view.isUserInteractionEnabled = false
        run = try await Screen.run("tap #nothing\n", on: screen)
        #expect(run.steps[0].outcome == .failed)
        run = try await Screen.run("tap Save", on: screen)
        #expect(run.steps[0].outcome == .ignored)
        #expect(run.steps[0].note.contains("user interaction is off"))
        controller.view.isUserInteractionEnabled = true
        controller.button.alpha = 0
        run = try await Screen.run("tap Save", on: screen)
        #expect(run.steps[0].outcome == .ignored)
        #expect(screen.presentedViewControllerCount == 0)
        #expect(screen.diagnostics().map(\.kind) == [.tapIgnored, .tapIgnored, .tapIgnored], "\(screen.diagnostics())")
    }

    @Test func anUnansweredAlertAndAnUncompletedRequestAreReported() async throws {
        let controller = ConfirmingViewController()
        let screen = await Screen.present(controller)
        _ = try await Screen.run("tap Save", on: screen)
        #expect(screen.diagnostics().map(\.kind) == [.alertNeverAnswered])
        _ = try await Screen.run("alert Cancel", on: screen)
        #expect(screen.diagnostics().isEmpty)
        controller.dismiss(animated: true)
        await screen.settle()
        #expect(screen.isClosed)
        #expect(screen.diagnostics().map(\.kind) == [.requestNeverCompleted])
        let run = try await Screen.run("tap Save", on: screen)
        #expect(run.steps[0].outcome == .failed)
        #expect(run.steps[0].note.contains("has closed"))
    }

    @Test func waitReturnsWhenTheScreenChanges() async throws {
        let controller = ConfirmingViewController()
        let screen = await Screen.present(controller)
        let gate = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            gate.wait()
            DispatchQueue.main.async { MainActor.assumeIsolated { controller.result.text = "Loaded" } }
        }
        let step = try #require(try UIScript.parse("wait 30").steps.first)
        // The wait starts (and looks at the screen) before the change is even queued.
        let waiting = Task { @MainActor in await screen.perform(step) }
        gate.signal()
        let (outcome, note) = await waiting.value
        #expect(outcome == .performed)
        #expect(note == "the screen changed")
        #expect(screen.snapshot().allNodes.contains { $0.text == "Loaded" })
    }

    @Test func waitReturnsAtOnceWhenTheScreenChangedSinceTheLastStep() async throws {
        let controller = ConfirmingViewController()
        let screen = await Screen.present(controller)
        let before = screen.snapshot()
        controller.result.text = "Changed"
        let step = try #require(try UIScript.parse("wait 30").steps.first)
        let (_, note) = await screen.perform(step, since: before)
        #expect(note == "the screen changed")
    }
}

extension ExtensionScreen {
    /// How many controllers are presented over the sheet.
    var presentedViewControllerCount: Int {
        var count = 0
        var controller = rootViewController.presentedViewController
        while let current = controller {
            count += 1
            controller = current.presentedViewController
        }
        return count
    }
}
