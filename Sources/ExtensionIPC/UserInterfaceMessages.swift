public import HeadlessScreens

/// Extension → host, as the scripted user goes: one step of the script and the screen after it.
public struct UserInterfaceStep: Codable, Equatable, Sendable {
    /// The step's index in the script (from 0).
    public var index: Int
    /// What the step did and the screen after it.
    public var result: ScriptRun.StepResult

    /// A step.
    public init(index: Int, result: ScriptRun.StepResult) {
        self.index = index
        self.result = result
    }
}

/// Extension → host: the extension's screen as a whole — the view-controller life-cycle calls in
/// order, the screen once the sheet appeared and now, what went wrong. Sent when the script has run
/// and again when the request ends and the sheet is gone (``isFinal``); the host keeps the last.
public struct UserInterfaceSummary: Codable, Equatable, Sendable {
    /// The life-cycle calls UIKit made, in order (`beginRequest(with:)`, `loadView`, `viewDidLoad`…).
    public var lifeCycle: [LifeCycleEvent]
    /// The screen once the sheet had appeared, before the first step.
    public var initialScreen: ScreenSnapshot?
    /// The screen now.
    public var finalScreen: ScreenSnapshot?
    /// What went wrong, explained.
    public var diagnostics: [UIDiagnostic]
    /// The steps the script had; how many ran is the number of ``UserInterfaceStep`` messages.
    public var scriptSteps: Int
    /// Whether the script was the default one (no `--ui`).
    public var defaultScript: Bool
    /// Whether this is the last summary (the request ended and the sheet is gone).
    public var isFinal: Bool

    /// A summary.
    public init(
        lifeCycle: [LifeCycleEvent], initialScreen: ScreenSnapshot?, finalScreen: ScreenSnapshot?,
        diagnostics: [UIDiagnostic], scriptSteps: Int, defaultScript: Bool, isFinal: Bool
    ) {
        self.lifeCycle = lifeCycle
        self.initialScreen = initialScreen
        self.finalScreen = finalScreen
        self.diagnostics = diagnostics
        self.scriptSteps = scriptSteps
        self.defaultScript = defaultScript
        self.isFinal = isFinal
    }
}
