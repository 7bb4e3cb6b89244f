@_exported public import Reporting

/// A rule file that cannot be read at all.
///
/// Everything wrong *inside* a readable file (a malformed plist, a predicate that does not parse,
/// a misspelt key) is a ``RuleDiagnostic`` on the loaded ``ActivationRule`` instead, so `lint` can
/// report many findings and many files at once.
public typealias ActivationRuleError = CodedError<ActivationRuleErrorCode>

/// What kind of failure.
public struct ActivationRuleErrorCode: CodedErrorCode {
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
