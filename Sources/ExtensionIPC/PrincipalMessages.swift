/// Extension → host, instead of anything else: the bundle cannot run as it stands — its principal
/// class does not exist or is neither a view controller nor a request handler, its storyboard
/// cannot be read. No code of the extension ran; the host reports bad input naming the file and
/// line (`exthost share` exits 2).
public struct BundleFailure: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// The file at fault (an `Info.plist`, a storyboard).
    public var file: String?
    /// The 1-based line in ``file``.
    public var line: Int?
    /// The 1-based column in ``file``.
    public var column: Int?

    /// A failure.
    public init(message: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: message` (as much of the location as is known).
    public var description: String {
        guard let file else { return message }
        return "\(file)\(line.map { ":\($0)" } ?? "")\(column.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// Extension → host, before the principal's first call: which object the process made to run the
/// request, and how — as iOS reads the extension's `Info.plist`.
public struct PrincipalDescription: Codable, Hashable, Sendable {
    /// How the principal was found.
    public enum Source: String, Codable, Hashable, Sendable {
        /// `NSExtensionPrincipalClass` names the class.
        case principalClass = "NSExtensionPrincipalClass"
        /// `NSExtensionMainStoryboard` names a storyboard whose initial scene is the class.
        case mainStoryboard = "NSExtensionMainStoryboard"
        /// An executable's `main.swift` called `NSExtensionMain(Class.self)`.
        case extensionMain = "NSExtensionMain"
    }

    /// What kind of object it is.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// An `NSObject` adopting `NSExtensionRequestHandling` (made with `init()`).
        case requestHandler = "request-handler"
        /// A `UIViewController` (made with `init?(coder:)`).
        case viewController = "view-controller"
    }

    /// The class, qualified by its module (`MyShare.ShareViewController`).
    public var className: String
    /// How it was found.
    public var source: Source
    /// What it is.
    public var kind: Kind
    /// The storyboard file, for ``Source/mainStoryboard`` (its path in the bundle).
    public var storyboard: String?
    /// The initializer it was made with (`init()`, `init(coder:)`).
    public var initializer: String

    /// A description.
    public init(className: String, source: Source, kind: Kind, storyboard: String? = nil, initializer: String) {
        self.className = className
        self.source = source
        self.kind = kind
        self.storyboard = storyboard
        self.initializer = initializer
    }
}
