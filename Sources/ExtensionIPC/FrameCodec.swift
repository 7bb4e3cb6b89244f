import FoundationEssentials
public import HostSystem

/// Turns frames into bytes (header + payload); the descriptors are the caller's to attach.
public enum FrameEncoder {
    /// The bytes of `frame`.
    /// - Throws: ``IPCError`` `.protocolViolation` when the descriptor count does not match the
    ///   message, `.frameTooLarge` when the payload or chunk exceeds the limits,
    ///   `.malformedFrame` when the message cannot be encoded.
    public static func encode(_ frame: Frame) throws(IPCError) -> [UInt8] {
        let payload: [UInt8]
        switch frame.content {
        case .message(let message):
            guard frame.descriptors.count == message.descriptorCount else {
                throw IPCError(
                    .protocolViolation,
                    "\(message.typeName) travels with \(message.descriptorCount) descriptors, not \(frame.descriptors.count)"
                )
            }
            do {
                payload = Array(try jsonEncoder.encode(message))
            } catch {
                throw IPCError(.malformedFrame, "cannot encode \(message.typeName)", cause: error)
            }
        case .data(let chunk):
            guard chunk.bytes.count <= WireFormat.maximumChunkSize else {
                throw IPCError(
                    .frameTooLarge,
                    "a data chunk holds at most \(WireFormat.maximumChunkSize) bytes, not \(chunk.bytes.count)")
            }
            payload = bigEndianBytes(chunk.requestID) + bigEndianBytes(chunk.offset) + chunk.bytes
        }
        guard payload.count <= WireFormat.maximumPayloadSize else {
            throw IPCError(.frameTooLarge, "payload of \(payload.count) bytes exceeds \(WireFormat.maximumPayloadSize)")
        }
        let kind: FrameKind = frame.message == nil ? .data : .message
        let header = FrameHeader(kind: kind, descriptorCount: frame.descriptors.count, payloadLength: payload.count)
        return header.encoded() + payload
    }

    private static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// Cuts a byte stream (plus the descriptors that arrived with it) into frames. Sans I/O: feed it
/// what `recvmsg` returned, then take frames until it returns nil.
///
/// Descriptors are queued in arrival order; each frame takes the count its header declares. The
/// kernel delivers a frame's descriptors no later than the frame's first byte, so once a whole
/// frame is buffered its descriptors are too; if not, the peer broke the contract.
/// The decoder owns queued descriptors until it hands them out in a ``Frame``; ``reset()``
/// closes them.
public struct FrameDecoder: ~Copyable {
    private var buffer: [UInt8] = []
    private var start = 0
    private var descriptors: [FileDescriptor] = []
    private var failed = false
    private var consumed = 0

    /// An empty decoder.
    public init() {}

    /// Adds received bytes and descriptors.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, descriptors received: [FileDescriptor] = []) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
        descriptors.append(contentsOf: received)
    }

    /// Adds received bytes and descriptors.
    public mutating func append(_ bytes: [UInt8], descriptors received: [FileDescriptor] = []) {
        bytes.withUnsafeBytes { append($0, descriptors: received) }
    }

    /// Bytes returned as frames so far: the stream offset of the next frame (for error messages).
    public var consumedByteCount: Int { consumed }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - start }

    /// The next complete frame, or nil when more bytes are needed.
    ///
    /// After an error the decoder stays failed (every later call throws the same code) and the
    /// queued descriptors are closed: the stream position is lost, so the connection must end.
    /// - Throws: ``IPCError`` `.malformedFrame`, `.unsupportedVersion`, `.frameTooLarge`,
    ///   `.protocolViolation`.
    public mutating func nextFrame() throws(IPCError) -> Frame? {
        if failed { throw IPCError(.protocolViolation, "the stream already failed; no more frames") }
        do throws(IPCError) {
            return try decodeNext()
        } catch {
            failed = true
            reset()
            throw error
        }
    }

    /// Checks for the end of the stream: throws `.truncatedFrame` when a partial frame is buffered.
    /// - Throws: ``IPCError`` `.truncatedFrame`.
    public mutating func finish() throws(IPCError) {
        if bufferedByteCount > 0 {
            let count = bufferedByteCount
            reset()
            throw IPCError(.truncatedFrame, "the peer closed the connection with \(count) bytes of a frame unread")
        }
    }

    /// Drops buffered bytes and closes queued descriptors.
    public mutating func reset() {
        buffer = []
        start = 0
        for descriptor in descriptors { try? descriptor.close() }
        descriptors = []
    }

    private mutating func decodeNext() throws(IPCError) -> Frame? {
        guard bufferedByteCount >= WireFormat.headerSize else {
            // Validate a partial header early, so garbage is refused without waiting for 16 bytes.
            let prefix = buffer[start...].prefix(4)
            if !prefix.elementsEqual(WireFormat.magic.prefix(prefix.count)) {
                throw IPCError(.malformedFrame, "bad magic \(hex(prefix)) (expected 45584849, \"EXHI\")")
            }
            return nil
        }
        let header = try FrameHeader(decoding: buffer[start..<start + WireFormat.headerSize])
        let total = WireFormat.headerSize + header.payloadLength
        guard bufferedByteCount >= total else { return nil }
        guard descriptors.count >= header.descriptorCount else {
            throw IPCError(
                .protocolViolation,
                "frame declares \(header.descriptorCount) descriptors but \(descriptors.count) arrived with it")
        }
        let payload = buffer[(start + WireFormat.headerSize)..<(start + total)]
        let content: Frame.Content
        switch header.kind {
        case .message:
            let message: Message
            do {
                message = try JSONDecoder().decode(Message.self, from: Data(payload))
            } catch {
                throw IPCError(.malformedFrame, "message payload is not a valid message", cause: error)
            }
            guard message.descriptorCount == header.descriptorCount else {
                throw IPCError(
                    .protocolViolation,
                    "\(message.typeName) travels with \(message.descriptorCount) descriptors, frame declares \(header.descriptorCount)"
                )
            }
            content = .message(message)
        case .data:
            guard payload.count >= WireFormat.chunkPrefixSize else {
                throw IPCError(
                    .malformedFrame, "data chunk payload of \(payload.count) bytes has no request id and offset")
            }
            let contents = payload.count - WireFormat.chunkPrefixSize
            guard contents <= WireFormat.maximumChunkSize else {
                throw IPCError(
                    .frameTooLarge, "a data chunk holds at most \(WireFormat.maximumChunkSize) bytes, not \(contents)")
            }
            let base = payload.startIndex
            content = .data(
                DataChunk(
                    requestID: readBigEndianUInt64(payload[base..<base + 8]),
                    offset: readBigEndianUInt64(payload[base + 8..<base + 16]),
                    bytes: Array(payload[(base + WireFormat.chunkPrefixSize)...])))
        }
        let taken = Array(descriptors.prefix(header.descriptorCount))
        descriptors.removeFirst(header.descriptorCount)
        start += total
        consumed += total
        return Frame(content: content, descriptors: taken)
    }

    deinit {
        for descriptor in descriptors { try? descriptor.close() }
    }
}
