/// Why an import failed: bad input (a located error in the project, exit 2) or a failure of the
/// machine or the build (exit 1).
public struct XcodeProjectError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The project is not one exthost can import as it is: exit 2.
        case input
        /// Reading or writing failed, or the build did: exit 1.
        case failed
    }

    public var kind: Kind
    /// Where the fault is written, when it is in a file.
    public var location: SourceLocation?
    public var message: String

    public init(_ kind: Kind, _ message: String, at location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// `file:line:column: message`, or the message alone.
    public var description: String { location.map { "\($0): \(message)" } ?? message }

    static func input(_ message: String, at location: SourceLocation? = nil) -> XcodeProjectError {
        XcodeProjectError(.input, message, at: location)
    }
}
