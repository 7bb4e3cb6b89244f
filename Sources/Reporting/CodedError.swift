/// The one shape of the error a module throws across its boundary: a code to compare, a message
/// naming what failed, and the underlying cause.
///
/// Each module names its own specialisation with its own ``Code`` type (`ActivationRuleError`,
/// `TypeRegistryError`, `AppGroupError`, `IPCError`, `ItemProviderError` are typealiases of this
/// struct), so a `catch` tells the modules apart and each code's static members stay in the module
/// that owns them.
public struct CodedError<ErrorCode: CodedErrorCode>: Error, Sendable, CustomStringConvertible {
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

    /// One line, as the code type words it: by default `<code>: <message> (cause: <cause>)`.
    public var description: String { ErrorCode.describe(self) }
}

/// What a module's error code is: a value to compare and a name, and how an error with it reads.
public protocol CodedErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The one-line description of `error`.
    static func describe(_ error: CodedError<Self>) -> String
}

extension CodedErrorCode {
    /// `<code>: <message> (cause: <cause>)`.
    public static func describe(_ error: CodedError<Self>) -> String {
        var text = "\(error.code): \(error.message)"
        if let cause = error.cause { text += " (cause: \(cause))" }
        return text
    }
}
