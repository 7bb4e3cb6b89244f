@_exported public import Reporting

/// The one error type of the AppGroups module: a code, a message naming the path or identity
/// involved, and the underlying cause (usually an `Errno`).
public typealias AppGroupError = CodedError<AppGroupErrorCode>

/// What kind of failure this is; compare with the static members.
public struct AppGroupErrorCode: CodedErrorCode {
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
    public static var invalidIdentifier: Self { Self(.invalidIdentifier) }
    /// A ``ContainerPath`` that is absolute, empty, has `..`, `.`, an empty component or a NUL.
    public static var invalidPath: Self { Self(.invalidPath) }
    /// A path that leaves the container: `..`, or a symbolic link anywhere on the way.
    public static var escapesContainer: Self { Self(.escapesContainer) }
    /// The identity's entitlements do not list the group.
    public static var notEntitled: Self { Self(.notEntitled) }
    /// A bundle without a readable Info.plist, a bundle identifier or a readable entitlements file.
    public static var invalidBundle: Self { Self(.invalidBundle) }
    /// `$(NAME)` in a bundle's plist with no `--define NAME=…`.
    public static var undefinedVariable: Self { Self(.undefinedVariable) }
    /// A container, file or key that does not exist.
    public static var notFound: Self { Self(.notFound) }
    /// A name that is already taken.
    public static var alreadyExists: Self { Self(.alreadyExists) }
    /// A journal, metadata plist or defaults suite that cannot be decoded.
    public static var corrupt: Self { Self(.corrupt) }
    /// A wait that ended before the event.
    public static var timedOut: Self { Self(.timedOut) }
    /// An archive that would expand beyond a size, entry-count or compression-ratio limit.
    public static var tooLarge: Self { Self(.tooLarge) }
    /// Any other system-call failure.
    public static var io: Self { Self(.io) }

    /// The code's name, e.g. `not entitled`.
    public var description: String { storage.rawValue }
}

/// A non-Sendable Foundation error kept as its description, so ``AppGroupError`` stays Sendable.
struct UnderlyingFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = "\(error)" }
}
