/// An error reading type declarations: the file could not be read, or it is not a property list
/// of the expected shape. The message names the file.
///
/// Problems inside one declaration entry (a missing `UTTypeIdentifier`, a redefined system type)
/// are not errors but ``TypeDiagnostic``s, so one bad entry does not hide the others.
public struct TypeRegistryError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Storage: Hashable, Sendable {
            case unreadable, malformed
        }
        private let storage: Storage

        /// The file (or bundle directory's `Info.plist`) could not be read.
        public static var unreadable: Self { Self(storage: .unreadable) }
        /// The file is not a property list, or its declaration keys have the wrong shape.
        public static var malformed: Self { Self(storage: .malformed) }

        /// `unreadable` or `malformed`.
        public var description: String {
            switch storage {
            case .unreadable: "unreadable"
            case .malformed: "malformed"
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, naming the file.
    public var message: String
    /// The underlying error (a Foundation or POSIX error), if any.
    public var cause: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// `<code>: <message> (cause: <cause>)`.
    public var description: String {
        var text = "\(code): \(message)"
        if let cause { text += " (cause: \(cause))" }
        return text
    }
}
