public import HostSystem
@_exported public import Reporting

/// Why a connection to the peer ended or a frame was refused.
///
/// Any of these ends the connection: the reader has lost its place in the stream (or the peer
/// broke the contract), so the only safe move is to close, report and tear the peer down.
public typealias IPCError = CodedError<IPCErrorCode>

/// The kind of failure.
public struct IPCErrorCode: CodedErrorCode {
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
    public static var malformedFrame: Self { Self(.malformedFrame) }
    /// The declared payload is larger than ``WireFormat/maximumPayloadSize`` (or a chunk's
    /// contents larger than ``WireFormat/maximumChunkSize``).
    public static var frameTooLarge: Self { Self(.frameTooLarge) }
    /// The peer speaks another protocol version.
    public static var unsupportedVersion: Self { Self(.unsupportedVersion) }
    /// The peer closed the connection in the middle of a frame.
    public static var truncatedFrame: Self { Self(.truncatedFrame) }
    /// The peer closed the connection (between frames) or this side already closed it.
    public static var connectionClosed: Self { Self(.connectionClosed) }
    /// A well-formed frame the contract does not allow here (wrong descriptor count, a message
    /// out of order, an oversized chunk request).
    public static var protocolViolation: Self { Self(.protocolViolation) }
    /// Nothing arrived within the timeout.
    public static var timedOut: Self { Self(.timedOut) }
    /// The socket failed; see ``IPCError/cause``.
    public static var io: Self { Self(.io) }

    /// The code's name, e.g. `malformed frame`.
    public var description: String { storage.rawValue }
}

extension IPCError {
    /// An `.io` error for a failed socket call.
    public static func io(_ operation: String, _ errno: Errno) -> IPCError {
        IPCError(.io, "\(operation) failed: \(errno)", cause: errno)
    }
}
