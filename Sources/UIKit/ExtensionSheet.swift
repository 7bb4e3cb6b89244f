import ExtensionFoundation
import ExtensionIPC
import ExtensionRuntime
import Foundation
import HeadlessScreens

/// A view-controller extension's sheet in the extension process: shown as iOS shows it
/// (``ExtensionScreen``), acted on by the scripted user (the host's `--ui`, else the default), with
/// each step's screen, the life cycle and the diagnostics sent to the host as they happen.
@MainActor
enum ExtensionSheet {
    /// Presents `controller` for `context`, runs the script, and returns the run the extension
    /// process keeps until the request ends (then the sheet closes and the last summary is sent).
    static func present(
        _ controller: UIViewController, context: NSExtensionContext, environment: ExtensionRuntime.Environment
    ) -> ExtensionPrincipalRun {
        let screen = ExtensionScreen(rootViewController: controller, context: context)
        screen.present()
        let given = environment.welcome.userScript
        let script = given ?? screen.defaultScript
        let reporter = Reporter(
            screen: screen, environment: environment, scriptSteps: script.steps.count, defaultScript: given == nil)
        let scripted = Task { @MainActor in
            await screen.settle()
            reporter.initialScreen = screen.snapshot()
            var last = reporter.initialScreen
            for (index, step) in script.steps.enumerated() {
                let (outcome, note) = await screen.perform(step, since: last)
                // The default step (a compose sheet's `tap Post`) is what a person would do if a Post
                // were there; when the sheet has already closed, or shows no Post, they do nothing —
                // no step is reported, and it is no mistake of the script.
                if given == nil, outcome == .failed { break }
                await screen.settle()
                let after = screen.snapshot()
                last = after
                reporter.send(
                    .uiStep(
                        UserInterfaceStep(
                            index: index,
                            result: ScriptRun.StepResult(step: step, outcome: outcome, note: note, screen: after))))
                if outcome == .failed { return }
            }
            reporter.sendSummary(isFinal: false)
        }
        return ExtensionPrincipalRun(object: screen) {
            await scripted.value
            // The request ended: the host dismisses the sheet (viewWillDisappear, then viewDidDisappear
            // at the next turn of the main queue).
            await screen.settle()
            reporter.sendSummary(isFinal: true)
        }
    }

    /// Sends the sheet's messages to the host.
    @MainActor
    final class Reporter {
        let screen: ExtensionScreen
        let environment: ExtensionRuntime.Environment
        let scriptSteps: Int
        let defaultScript: Bool
        var initialScreen: ScreenSnapshot?

        init(screen: ExtensionScreen, environment: ExtensionRuntime.Environment, scriptSteps: Int, defaultScript: Bool)
        {
            self.screen = screen
            self.environment = environment
            self.scriptSteps = scriptSteps
            self.defaultScript = defaultScript
        }

        func sendSummary(isFinal: Bool) {
            send(
                .uiSummary(
                    UserInterfaceSummary(
                        lifeCycle: screen.lifeCycle, initialScreen: initialScreen, finalScreen: screen.snapshot(),
                        diagnostics: screen.diagnostics(), scriptSteps: scriptSteps, defaultScript: defaultScript,
                        isFinal: isFinal)))
        }

        func send(_ message: Message) {
            do throws(IPCError) {
                try environment.host.send(message)
            } catch {
                environment.log("could not send the extension's screen to the host: \(error)", level: .error)
            }
        }
    }
}
