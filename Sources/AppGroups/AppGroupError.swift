/// The one error type of the AppGroups module: a code, a message naming the path or identity
/// involved, and the underlying cause (usually an `Errno`).
public struct AppGroupError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; compare with the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Storage: String, Hashable, Sendable {
            case invalidIdentifier = "invalid identifier"
            case invalidPath = "invalid path"
            case escapesContainer = "escapes container"
            case notEntitled = "not entitled"
            case invalidBundle = "invalid bundle"
            case undefinedVariable = "undefined variable"
            case notFound = "not found"
            case alreadyExists = "already exists"
            case corrupt = "corrupt"
            case timedOut = "timed out"
            case tooLarge = "too large"
            case io = "I/O error"
        }
        private let storage: Storage
        private init(_ storage: Storage) { self.storage = storage }

        /// A group identifier that is not `group.` + a name, or a bad bundle identifier.
        public static var invalidIdentifier: Code { Code(.invalidIdentifier) }
        /// A ``ContainerPath`` that is absolute, empty, has `..`, `.`, an empty component or a NUL.
        public static var invalidPath: Code { Code(.invalidPath) }
        /// A path that leaves the container: `..`, or a symbolic link anywhere on the way.
        public static var escapesContainer: Code { Code(.escapesContainer) }
        /// The identity's entitlements do not list the group.
        public static var notEntitled: Code { Code(.notEntitled) }
        /// A bundle without a readable Info.plist, a bundle identifier or a readable entitlements file.
        public static var invalidBundle: Code { Code(.invalidBundle) }
        /// `$(NAME)` in a bundle's plist with no `--define NAME=…`.
        public static var undefinedVariable: Code { Code(.undefinedVariable) }
        /// A container, file or key that does not exist.
        public static var notFound: Code { Code(.notFound) }
        /// A name that is already taken.
        public static var alreadyExists: Code { Code(.alreadyExists) }
        /// A journal, metadata plist or defaults suite that cannot be decoded.
        public static var corrupt: Code { Code(.corrupt) }
        /// A wait that ended before the event.
        public static var timedOut: Code { Code(.timedOut) }
        /// An archive that would expand beyond a size, entry-count or compression-ratio limit.
        public static var tooLarge: Code { Code(.tooLarge) }
        /// Any other system-call failure.
        public static var io: Code { Code(.io) }

        /// The code's name, e.g. `not entitled`.
        public var description: String { storage.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong and, where possible, how to fix it; names the path or identity.
    public var message: String
    /// The underlying error, usually an `Errno`.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
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

/// A non-Sendable Foundation error kept as its description, so ``AppGroupError`` stays Sendable.
struct UnderlyingFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = "\(error)" }
}
