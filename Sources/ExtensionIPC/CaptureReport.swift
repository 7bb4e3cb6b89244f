/// A captured host ↔ extension byte stream (what one side wrote to the socket) decoded frame by
/// frame: `exthost ipc decode --json`, and the frames its text lists.
public struct CaptureReport: Codable, Sendable, Equatable {
    /// One frame; a message frame has `type`, a data frame `requestID`, `chunkOffset` and `bytes`
    /// (the others are null).
    public struct Frame: Codable, Sendable, Equatable {
        /// The frame's byte offset in the capture.
        public var offset: Int
        /// `message` or `data`.
        public var kind: String
        /// The message's type (`hello`, `loadRequest`, …).
        public var type: String?
        /// The data chunk's request, as a decimal string (a 64-bit number).
        public var requestID: String?
        /// The chunk's offset in the representation, as a decimal string (a 64-bit number).
        public var chunkOffset: String?
        /// The chunk's length.
        public var bytes: Int?

        /// Creates a frame's entry.
        public init(
            offset: Int, kind: String, type: String? = nil, requestID: String? = nil, chunkOffset: String? = nil,
            bytes: Int? = nil
        ) {
            self.offset = offset
            self.kind = kind
            self.type = type
            self.requestID = requestID
            self.chunkOffset = chunkOffset
            self.bytes = bytes
        }

        /// The entry of `frame`, found at `offset`.
        public init(_ frame: ExtensionIPC.Frame, at offset: Int) {
            switch frame.content {
            case .message(let message):
                self.init(offset: offset, kind: "message", type: message.typeName)
            case .data(let chunk):
                self.init(
                    offset: offset, kind: "data", requestID: String(chunk.requestID), chunkOffset: String(chunk.offset),
                    bytes: chunk.bytes.count)
            }
        }
    }

    /// Why a capture does not decode: the frame error and where it happened.
    public struct DecodingError: Error, Sendable {
        /// The byte offset the decoder had reached.
        public var byteOffset: Int
        /// The 1-based number of the frame that failed.
        public var frameNumber: Int
        /// The frame error (malformed, oversized, truncated, a protocol violation).
        public var error: IPCError
    }

    /// The capture's path, as given.
    public var file: String
    /// Every frame, in order.
    public var frames: [Frame]

    /// Creates a report.
    public init(file: String, frames: [Frame]) {
        self.file = file
        self.frames = frames
    }

    /// Every frame of `bytes` with its byte offset, decoded to the end.
    /// - Throws: ``DecodingError`` at the first frame that does not decode (a frame that must carry
    ///   a descriptor is a protocol violation: descriptors cannot be captured in a file).
    public static func frames(in bytes: [UInt8]) throws(DecodingError) -> [(offset: Int, frame: ExtensionIPC.Frame)] {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var frames: [(offset: Int, frame: ExtensionIPC.Frame)] = []
        do throws(IPCError) {
            while true {
                let offset = decoder.consumedByteCount
                guard let frame = try decoder.nextFrame() else { break }
                frames.append((offset, frame))
            }
            try decoder.finish()
        } catch {
            throw DecodingError(byteOffset: decoder.consumedByteCount, frameNumber: frames.count + 1, error: error)
        }
        return frames
    }
}
