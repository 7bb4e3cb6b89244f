/// `exthost sheet --perform ID --json` for an activity the sheet does not show (exit 3): it cannot
/// be chosen, so nothing was performed.
public struct ActivityNotShown: Codable, Sendable, Equatable {
    /// The activity asked for.
    public var activity: String
    /// Always false.
    public var shown: Bool
    /// Why it is not shown, and so cannot be chosen.
    public var error: String

    /// The report for `activity`, not shown because of `error`.
    public init(activity: String, error: String) {
        self.activity = activity
        shown = false
        self.error = error
    }
}
