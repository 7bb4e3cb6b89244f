public import ExtensionIPC
public import HeadlessScreens

/// What a view-controller extension showed and went through: the `userInterface` of `exthost
/// share --json`.
public struct UserInterfaceReport: Codable, Sendable, Equatable {
    /// The life-cycle calls UIKit made to the extension's view controllers, in order
    /// (`ShareViewController.beginRequest(with:)`, `.loadView`, `.viewDidLoad`, …).
    public var lifeCycle: [LifeCycleEvent]
    /// Whether the script was the default (`tap Post` for a compose sheet; nothing otherwise).
    public var defaultScript: Bool
    /// How many steps the script had.
    public var scriptSteps: Int
    /// The screen once the sheet had appeared, as JSON.
    public var initialScreen: ScreenSnapshot?
    /// ``initialScreen`` as text.
    public var initialScreenText: String?
    /// Each step the scripted user took, with the screen after it (as JSON and as text).
    public var steps: [ScriptRun.StepResult]
    /// The screen at the end (the sheet closed when the request ended).
    public var finalScreen: ScreenSnapshot?
    /// ``finalScreen`` as text.
    public var finalScreenText: String?
    /// What went wrong, explained: UI touched off the main thread, a tap a finger could not make
    /// (Post while `isContentValid()` was false), a request never completed after the sheet closed,
    /// an alert never answered.
    public var diagnostics: [UIDiagnostic]

    /// The report from the extension's last summary and its steps.
    public init(summary: UserInterfaceSummary, steps: [UserInterfaceStep]) {
        lifeCycle = summary.lifeCycle
        defaultScript = summary.defaultScript
        scriptSteps = summary.scriptSteps
        initialScreen = summary.initialScreen
        initialScreenText = summary.initialScreen?.text
        self.steps = steps.sorted { $0.index < $1.index }.map(\.result)
        finalScreen = summary.finalScreen
        finalScreenText = summary.finalScreen?.text
        diagnostics = summary.diagnostics
    }

    /// The step that named nothing on screen, as an error with its line and column.
    public func failure(source: String?) -> UIScriptError? {
        guard let failed = steps.last, failed.outcome == .failed else { return nil }
        return UIScriptError(source: source, line: failed.step.line, column: failed.step.column, message: failed.note)
    }
}
