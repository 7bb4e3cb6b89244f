public import HostSystem

/// Why a connection to the peer ended or a frame was refused.
///
/// Any of these ends the connection: the reader has lost its place in the stream (or the peer
/// broke the contract), so the only safe move is to close, report and tear the peer down.
public struct IPCError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Storage: String, Hashable, Sendable {
            case malformedFrame = "malformed frame"
            case frameTooLarge = "frame too large"
            case unsupportedVersion = "unsupported protocol version"
            case truncatedFrame = "truncated frame"
            case connectionClosed = "connection closed"
            case protocolViolation = "protocol violation"
            case timedOut = "timed out"
            case io = "I/O error"
        }
        private let storage: Storage
        private init(_ storage: Storage) { self.storage = storage }

        /// The bytes are not a frame: bad magic, kind, reserved bytes, descriptor count or payload.
        public static var malformedFrame: Code { Code(.malformedFrame) }
        /// The declared payload is larger than ``WireFormat/maximumPayloadSize`` (or a chunk's
        /// contents larger than ``WireFormat/maximumChunkSize``).
        public static var frameTooLarge: Code { Code(.frameTooLarge) }
        /// The peer speaks another protocol version.
        public static var unsupportedVersion: Code { Code(.unsupportedVersion) }
        /// The peer closed the connection in the middle of a frame.
        public static var truncatedFrame: Code { Code(.truncatedFrame) }
        /// The peer closed the connection (between frames) or this side already closed it.
        public static var connectionClosed: Code { Code(.connectionClosed) }
        /// A well-formed frame the contract does not allow here (wrong descriptor count, a message
        /// out of order, an oversized chunk request).
        public static var protocolViolation: Code { Code(.protocolViolation) }
        /// Nothing arrived within the timeout.
        public static var timedOut: Code { Code(.timedOut) }
        /// The socket failed; see ``IPCError/cause``.
        public static var io: Code { Code(.io) }

        /// The code's name, e.g. `malformed frame`.
        public var description: String { storage.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, with the offending values.
    public var message: String
    /// The underlying error (an ``Errno`` for `.io`, a decoding error for a bad JSON payload).
    public var cause: (any Error)?

    /// An error with `code`, `message` and an optional `cause`.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// An `.io` error for a failed socket call.
    public static func io(_ operation: String, _ errno: Errno) -> IPCError {
        IPCError(.io, "\(operation) failed: \(errno)", cause: errno)
    }

    /// `<code>: <message> (cause: <cause>)`.
    public var description: String {
        "\(code): \(message)" + (cause.map { " (cause: \($0))" } ?? "")
    }
}
