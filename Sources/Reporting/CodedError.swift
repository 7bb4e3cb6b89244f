/// The one shape of the error a module throws across its boundary: a code to compare, a message
/// naming what failed, and the underlying cause.
///
/// Each module names its own specialisation with its own ``Code`` type (`ActivationRuleError`,
/// `TypeRegistryError`, `AppGroupError`, `IPCError` are typealiases of this struct), so a `catch`
/// tells the modules apart and each code's static members stay in the module that owns them.
public struct CodedError<ErrorCode: Hashable & Sendable & CustomStringConvertible>: Error, Sendable,
    CustomStringConvertible
{
    /// What kind of failure this is; compare with the code type's static members.
    public typealias Code = ErrorCode

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong and, where possible, how to fix it; names the file, path or identity.
    public var message: String
    /// The underlying error, if any (an `Errno`, a decoding error).
    public var cause: (any Error)?

    /// Creates an error with `code`, `message` and an optional `cause`.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// `<code>: <message> (cause: <cause>)` on one line.
    public var description: String {
        var text = "\(code): \(message)"
        if let cause { text += " (cause: \(cause))" }
        return text
    }
}
