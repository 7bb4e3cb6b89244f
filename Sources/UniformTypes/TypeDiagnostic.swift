/// Something worth telling the user about a type declaration that was read: a declaration that
/// was not applied, or one that was applied but breaks Apple's rules.
///
/// Reading declarations never prints; callers decide where diagnostics go (the CLI prints them
/// to standard error).
public struct TypeDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Informational: a redundant declaration, a precedence decision.
        case note
        /// The declaration was ignored or is questionable, but reading went on.
        case warning
        /// The entry is broken and was skipped.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders by seriousness: note < warning < error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious it is.
    public var severity: Severity
    /// What happened, in one sentence naming the identifier.
    public var message: String
    /// The `Info.plist` the declaration came from (as given by the caller).
    public var sourcePath: String
    /// The identifier the diagnostic is about, if there is one.
    public var identifier: UniformTypeIdentifier?

    /// Creates a diagnostic.
    public init(severity: Severity, message: String, sourcePath: String, identifier: UniformTypeIdentifier? = nil) {
        self.severity = severity
        self.message = message
        self.sourcePath = sourcePath
        self.identifier = identifier
    }

    /// `PATH: warning: MESSAGE`.
    public var description: String { "\(sourcePath): \(severity.rawValue): \(message)" }
}
