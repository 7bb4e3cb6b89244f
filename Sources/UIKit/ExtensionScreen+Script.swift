import Foundation
package import HeadlessScreens
import ItemProviders

extension ExtensionScreen {
    /// Performs `script`'s steps one by one on the main thread, as a finger would, letting the main
    /// queue run after each; returns each step with the screen after it. A step that names nothing
    /// on screen stops the run (its result is `failed`, with the step's line in ``ScriptRun/failure(source:)``).
    package func run(_ script: UIScript) async -> ScriptRun {
        await settle()
        let initial = snapshot()
        var results: [ScriptRun.StepResult] = []
        var last = initial
        for step in script.steps {
            let (outcome, note) = await perform(step, since: last)
            await settle()
            last = snapshot()
            results.append(ScriptRun.StepResult(step: step, outcome: outcome, note: note, screen: last))
            if outcome == .failed { break }
        }
        return ScriptRun(initialScreen: initial, steps: results)
    }

    /// Performs one step.
    /// - Parameters:
    ///   - step: the step.
    ///   - screen: what the person last saw (a `wait` returns at once when the screen already differs
    ///     from it); nil: the screen now.
    /// - Returns: how it went and what happened.
    package func perform(_ step: UIScript.Step, since screen: ScreenSnapshot? = nil) async -> (
        ScriptRun.StepResult.Outcome, String
    ) {
        if case .wait(let seconds) = step.action { return await wait(seconds ?? 5, since: screen ?? snapshot()) }
        // Once the request has ended the sheet is going away (it closes at the next turn): a finger
        // can no longer reach it.
        if isClosed || context?.model.isFinished == true {
            let reason = closedBecause ?? "the request ended"
            return (.failed, "the extension's sheet has closed (\(reason)): nothing is on screen")
        }
        switch step.action {
        case .tap(let target): return tap(target, step: step)
        case .type(let text): return type(text)
        case .alert(let title): return chooseAlertAction(title, step: step)
        case .select(let row): return select(row, step: step)
        case .wait: return (.performed, "")
        }
    }

    /// Waits until what is on screen differs from `before`, the request ends, or `seconds` pass. Every
    /// change of UIKit state wakes the wait; the screen is compared after each (a change elsewhere
    /// in the process, or one that leaves the screen as it was, keeps waiting).
    private func wait(_ seconds: Double, since before: ScreenSnapshot) async -> (ScriptRun.StepResult.Outcome, String) {
        let ended = requestEnded
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { break }
            let generation = UIKitThread.generation
            if snapshot() != before || requestEnded != ended { break }
            _ = await UIKitThread.waitForChange(after: generation, seconds: remaining)
            await settle()
        }
        if requestEnded != ended { return (.performed, "the request ended") }
        if snapshot() != before { return (.performed, "the screen changed") }
        return (.performed, "nothing changed in \(UIFont.number(CGFloat(seconds))) s")
    }

    // MARK: - tap

    private func tap(_ target: UIScript.Step.Target, step: UIScript.Step) -> (ScriptRun.StepResult.Outcome, String) {
        let (_, targets) = snapshotWithTargets()
        let matches: [TapTarget]
        let named: String
        switch target {
        case .identifier(let identifier):
            matches = targets.filter { $0.identifier == identifier }
            named = "#" + identifier
        case .title(let title):
            let exact = targets.filter { $0.titles.contains(title) }
            matches =
                exact.isEmpty
                ? targets.filter {
                    $0.titles.contains { $0.compare(title, options: [.caseInsensitive]) == .orderedSame }
                }
                : exact
            named = "\"\(title)\""
        }
        guard !matches.isEmpty else {
            let available = targets.filter { $0.blocked == nil }.compactMap {
                $0.titles.first ?? $0.identifier.map { "#" + $0 }
            }
            let list =
                available.isEmpty
                ? "nothing on screen can be tapped"
                : "tappable: " + available.map { "\"\($0)\"" }.joined(separator: ", ")
            return (.failed, "no control \(named) is on screen (\(list))")
        }
        guard
            let reachable = matches.last(where: { $0.blocked == nil && $0.layer == matches.map(\.layer).max() })
                ?? matches.first(where: { $0.blocked == nil })
        else {
            let first = matches[0]
            let reason = first.blocked ?? ""
            let kind = first.ignoredKind ?? .tapIgnored
            let message =
                kind == .postWhileContentInvalid
                ? "Post was tapped while isContentValid() returned false: the Post button is disabled, so nothing happened"
                : "\(first.description) was tapped but a finger cannot use it (\(reason)): nothing happened"
            addDiagnostic(UIDiagnostic(kind: kind, message: message, line: step.line > 0 ? step.line : nil))
            return (.ignored, message)
        }
        perform(reachable)
        return (.performed, "tapped \(reachable.description)")
    }

    private func perform(_ target: TapTarget) {
        switch target.kind {
        case .control(let control):
            if control is UITextField {
                control.becomeFirstResponder()
            } else {
                control.tapAsFinger()
            }
        case .barButton(let item): item.tapAsFinger()
        case .backButton(let navigation): navigation.backButtonTapped()
        case .alertAction(let alert, let action): alert.choose(action)
        case .cell(let table, let indexPath): table.selectAsFinger(indexPath)
        case .gesture(_, let recognizer): recognizer.recognize()
        }
    }

    // MARK: - type

    private func type(_ text: String) -> (ScriptRun.StepResult.Outcome, String) {
        let responder = window.firstResponder
        if let field = responder as? UITextField {
            let refused = field.typeAsKeyboard(text)
            return (.performed, typedNote(text, into: "UITextField", refused: refused))
        }
        if let textView = responder as? UITextView {
            let refused = textView.typeAsKeyboard(text)
            return (.performed, typedNote(text, into: "UITextView", refused: refused))
        }
        return (.failed, "no text field or text view has the keyboard (tap one first)")
    }

    private func typedNote(_ text: String, into name: String, refused: Int) -> String {
        let count = text.count
        var note = "typed \(count) character\(count == 1 ? "" : "s") into the \(name)"
        if refused > 0 { note += "; its delegate refused \(refused)" }
        return note
    }

    // MARK: - alert

    private func chooseAlertAction(_ title: String, step: UIScript.Step) -> (ScriptRun.StepResult.Outcome, String) {
        var controller = rootViewController.storedPresented
        var alert: UIAlertController?
        while let current = controller {
            if let found = current as? UIAlertController { alert = found }
            controller = current.storedPresented
        }
        guard let alert, alert.presentationPhase != .dismissing else { return (.failed, "no alert is on screen") }
        guard
            let action = alert.actions.first(where: { $0.title == title })
                ?? alert.actions.first(where: {
                    $0.title?.compare(title, options: [.caseInsensitive]) == .orderedSame
                })
        else {
            let titles = alert.actions.compactMap(\.title).map { "\"\($0)\"" }.joined(separator: ", ")
            return (.failed, "the alert \"\(alert.title ?? "")\" has no action \"\(title)\" (its actions: \(titles))")
        }
        guard action.isEnabled else {
            let message = "the alert action \"\(title)\" is disabled: nothing happened"
            addDiagnostic(UIDiagnostic(kind: .tapIgnored, message: message, line: step.line > 0 ? step.line : nil))
            return (.ignored, message)
        }
        alert.choose(action)
        return (.performed, "chose \"\(title)\" in the alert \"\(alert.title ?? "")\"")
    }

    // MARK: - select

    private func select(_ row: UIScript.Step.Row, step: UIScript.Step) -> (ScriptRun.StepResult.Outcome, String) {
        let (_, targets) = snapshotWithTargets()
        let cells = targets.compactMap { target -> (TapTarget, UITableView, IndexPath)? in
            guard case .cell(let table, let indexPath) = target.kind else { return nil }
            return (target, table, indexPath)
        }
        guard let table = cells.last(where: { $0.0.blocked == nil })?.1 ?? cells.first?.1 else {
            return (.failed, "no table is on screen")
        }
        let ownCells = cells.filter { $0.1 === table }
        let found: (TapTarget, UITableView, IndexPath)?
        switch row {
        case .number(let number):
            guard number <= table.rowCount else {
                return (
                    .failed,
                    "the table has \(table.rowCount) row\(table.rowCount == 1 ? "" : "s"); there is no row \(number)"
                )
            }
            if let loaded = ownCells.first(where: { table.flatIndex(of: $0.2) == number - 1 }) {
                found = loaded
            } else {
                let indexPath = table.indexPath(flatIndex: number - 1)
                table.selectAsFinger(indexPath)
                return (.performed, "selected row \(number)")
            }
        case .title(let title):
            found = ownCells.first { $0.0.titles.contains(title) }
        }
        guard let (target, _, indexPath) = found else {
            return (.failed, "no row of the table shows \(row)")
        }
        if let blocked = target.blocked {
            let message = "\(target.description) was selected but a finger cannot use it (\(blocked)): nothing happened"
            addDiagnostic(UIDiagnostic(kind: .tapIgnored, message: message, line: step.line > 0 ? step.line : nil))
            return (.ignored, message)
        }
        table.selectAsFinger(indexPath)
        return (.performed, "selected \(target.description)")
    }
}
