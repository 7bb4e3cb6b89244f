public import HostSystem

/// Bytes of a data representation (host → extension), at most ``WireFormat/maximumChunkSize``.
public struct DataChunk: Hashable, Sendable {
    /// The ``LoadRequest`` these bytes answer.
    public var requestID: UInt64
    /// Where these bytes start in the representation.
    public var offset: UInt64
    /// The bytes.
    public var bytes: [UInt8]

    /// A chunk.
    public init(requestID: UInt64, offset: UInt64, bytes: [UInt8]) {
        self.requestID = requestID
        self.offset = offset
        self.bytes = bytes
    }
}

/// One unit on the wire: a message or a data chunk, and the descriptors that came with it.
public struct Frame: Sendable {
    /// What a frame holds.
    public enum Content: Equatable, Sendable {
        /// A control message.
        case message(Message)
        /// Bytes of a data load.
        case data(DataChunk)
    }

    /// What the frame holds.
    public var content: Content
    /// Descriptors that travelled with the frame (received ones are close-on-exec and owned by
    /// the receiver). Their count always equals ``Message/descriptorCount``.
    public var descriptors: [FileDescriptor]

    /// A message frame; `descriptors` must match ``Message/descriptorCount`` when it is encoded.
    public static func message(_ message: Message, descriptors: [FileDescriptor] = []) -> Frame {
        Frame(content: .message(message), descriptors: descriptors)
    }

    /// A data frame.
    public static func data(_ chunk: DataChunk) -> Frame { Frame(content: .data(chunk), descriptors: []) }

    /// The message, if this is a message frame.
    public var message: Message? {
        if case .message(let message) = content { return message }
        return nil
    }

    /// Closes the descriptors this frame carries (for a receiver that does not use them).
    public func closeDescriptors() {
        for descriptor in descriptors { try? descriptor.close() }
    }
}
