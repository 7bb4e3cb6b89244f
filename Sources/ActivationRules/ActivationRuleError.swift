/// A rule file that cannot be read at all.
///
/// Everything wrong *inside* a readable file (a malformed plist, a predicate that does not parse,
/// a misspelt key) is a ``RuleDiagnostic`` on the loaded ``ActivationRule`` instead, so `lint` can
/// report many findings and many files at once.
public struct ActivationRuleError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Storage: Hashable, Sendable { case unreadable, invalidPayload }
        private let storage: Storage
        /// The file does not exist or cannot be read.
        public static var unreadable: Self { Self(storage: .unreadable) }
        /// A payload (the evaluated object) is not a dictionary of `extensionItems` whose attachments list `registeredTypeIdentifiers`.
        public static var invalidPayload: Self { Self(storage: .invalidPayload) }
        /// The kebab-case name.
        public var description: String {
            switch storage {
            case .unreadable: return "unreadable"
            case .invalidPayload: return "invalid-payload"
            }
        }
    }

    /// What kind of failure.
    public var code: Code
    /// What went wrong, naming the file and, for a payload, the path to the bad value.
    public var message: String
    /// The underlying error, if any.
    public var cause: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// `code: message (cause: …)`.
    public var description: String {
        var text = "\(code): \(message)"
        if let cause { text += " (cause: \(cause))" }
        return text
    }
}
