/// What a scripted user did to the screen: the screen when the sheet had appeared, then each step
/// with the screen after it.
public struct ScriptRun: Codable, Sendable, Equatable {
    /// One step and what followed.
    public struct StepResult: Codable, Sendable, Equatable {
        /// How a step went.
        public enum Outcome: String, Codable, Sendable {
            /// Done as a finger would.
            case performed
            /// Attempted, but a finger could not have done it (the control was disabled or hidden):
            /// nothing happened, and a diagnostic says why.
            case ignored
            /// The step names nothing on screen (no such control, no alert, no table, no field with
            /// the keyboard); the run stopped here.
            case failed
        }

        /// The step.
        public var step: UIScript.Step
        /// How it went.
        public var outcome: Outcome
        /// What happened, in a sentence (`tapped UIButton "Post"`, `no alert is on screen`).
        public var note: String
        /// The screen after the step.
        public var screen: ScreenSnapshot
        /// ``screen`` as text.
        public var screenText: String

        /// A result.
        public init(step: UIScript.Step, outcome: Outcome, note: String, screen: ScreenSnapshot) {
            self.step = step
            self.outcome = outcome
            self.note = note
            self.screen = screen
            self.screenText = screen.text
        }
    }

    /// The screen once the sheet had appeared, before the first step.
    public var initialScreen: ScreenSnapshot
    /// ``initialScreen`` as text.
    public var initialScreenText: String
    /// The steps done, in order (the last one `failed` when the run stopped early).
    public var steps: [StepResult]

    /// A run.
    public init(initialScreen: ScreenSnapshot, steps: [StepResult]) {
        self.initialScreen = initialScreen
        self.initialScreenText = initialScreen.text
        self.steps = steps
    }

    /// The step that stopped the run, as an error naming its line and column.
    /// - Parameter source: the script's file, named in the error (nil: inline).
    public func failure(source: String? = nil) -> UIScriptError? {
        guard let last = steps.last, last.outcome == .failed else { return nil }
        return UIScriptError(source: source, line: last.step.line, column: last.step.column, message: last.note)
    }
}
