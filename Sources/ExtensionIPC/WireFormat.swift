/// The fixed numbers of the host ↔ extension wire (one place, pinned by a golden-bytes test).
///
/// Every frame is a 16-byte header followed by its payload:
///
/// ```
/// offset size field
///  0     4    magic "EXHI" (45 58 48 49)
///  4     2    protocol version, big-endian (``protocolVersion``)
///  6     1    kind: 1 = message (JSON payload), 2 = data chunk (binary payload)
///  7     1    descriptors sent with this frame (SCM_RIGHTS), 0...``maximumDescriptorsPerFrame``
///  8     4    payload length, big-endian, 0...``maximumPayloadSize``
/// 12     4    reserved, zero
/// ```
///
/// A message payload is the UTF-8 JSON of one ``Message`` (`{"type":"…","body":{…}}`, sorted
/// keys). A data-chunk payload is the request id (8 bytes, big-endian), the offset of these bytes
/// in the representation (8 bytes, big-endian), then up to ``maximumChunkSize`` bytes.
///
/// Why JSON for messages and raw bytes for data: control messages are few (a handful per
/// attachment) and small, so JSON costs microseconds while keeping the contract readable in a
/// hex dump and easy to extend with optional fields; bulk bytes never go through it. Files never
/// travel as bytes at all: they go as descriptors.
public enum WireFormat {
    /// The version this build speaks; a peer with another version is refused in the handshake
    /// (and any frame carrying another version ends the connection).
    /// 2: the extension reports its principal object and a bundle it cannot run, and asks the host
    /// to open URLs (the hand-over to the app); the welcome carries the scripted user's steps and
    /// the extension sends its screens back.
    /// 3: a context of more attachments than one page travels in pages the extension asks for
    /// (``Welcome/paging``, ``Message/pageRequest(_:)``, ``Message/contextPage(_:)``).
    public static var protocolVersion: UInt16 { 3 }
    /// The first four bytes of every frame.
    public static var magic: [UInt8] { [0x45, 0x58, 0x48, 0x49] }
    /// The header size in bytes.
    public static var headerSize: Int { 16 }
    /// The largest payload accepted (1 MiB); a larger declared length ends the connection.
    public static var maximumPayloadSize: Int { 1 << 20 }
    /// The largest data chunk (256 KiB), so a data representation streams in bounded pieces.
    public static var maximumChunkSize: Int { 256 << 10 }
    /// The bytes before a data chunk's contents (request id and offset).
    public static var chunkPrefixSize: Int { 16 }
    /// The most descriptors one frame may carry.
    public static var maximumDescriptorsPerFrame: Int { 8 }
}

/// The kind byte of a frame header.
public enum FrameKind: UInt8, Hashable, Sendable {
    /// A JSON-encoded ``Message``.
    case message = 1
    /// A ``DataChunk``.
    case data = 2
}

/// The 16-byte header in front of every frame.
public struct FrameHeader: Hashable, Sendable {
    /// What the payload holds.
    public var kind: FrameKind
    /// How many descriptors travel with the frame.
    public var descriptorCount: Int
    /// The payload length in bytes.
    public var payloadLength: Int

    /// A header; the values are checked when encoding (see ``encoded()``).
    public init(kind: FrameKind, descriptorCount: Int, payloadLength: Int) {
        self.kind = kind
        self.descriptorCount = descriptorCount
        self.payloadLength = payloadLength
    }

    /// The 16 header bytes.
    /// - Precondition: the counts are within ``WireFormat`` limits (programmer error: traps).
    public func encoded() -> [UInt8] {
        // programmer error: the encoder never builds a frame past the limits.
        precondition(payloadLength >= 0 && payloadLength <= WireFormat.maximumPayloadSize)
        precondition(descriptorCount >= 0 && descriptorCount <= WireFormat.maximumDescriptorsPerFrame)
        var bytes = WireFormat.magic
        bytes += [UInt8(WireFormat.protocolVersion >> 8), UInt8(WireFormat.protocolVersion & 0xff)]
        bytes += [kind.rawValue, UInt8(descriptorCount)]
        bytes += bigEndianBytes(UInt32(payloadLength))
        bytes += [0, 0, 0, 0]
        return bytes
    }

    /// Decodes and validates 16 header bytes.
    /// - Throws: ``IPCError`` `.malformedFrame` (bad magic, kind, reserved bytes or descriptor
    ///   count), `.unsupportedVersion`, `.frameTooLarge`.
    public init(decoding bytes: some Collection<UInt8>) throws(IPCError) {
        let header = Array(bytes)
        guard header.count == WireFormat.headerSize else {
            throw IPCError(.malformedFrame, "a frame header is \(WireFormat.headerSize) bytes, got \(header.count)")
        }
        guard Array(header[0..<4]) == WireFormat.magic else {
            throw IPCError(.malformedFrame, "bad magic \(hex(header[0..<4])) (expected 45584849, \"EXHI\")")
        }
        let version = UInt16(header[4]) << 8 | UInt16(header[5])
        guard version == WireFormat.protocolVersion else {
            throw IPCError(
                .unsupportedVersion, "peer speaks protocol version \(version), this build \(WireFormat.protocolVersion)"
            )
        }
        guard let kind = FrameKind(rawValue: header[6]) else {
            throw IPCError(.malformedFrame, "unknown frame kind \(header[6])")
        }
        let descriptors = Int(header[7])
        guard descriptors <= WireFormat.maximumDescriptorsPerFrame, kind == .message || descriptors == 0 else {
            throw IPCError(.malformedFrame, "a \(kind) frame cannot carry \(descriptors) descriptors")
        }
        let length = header[8..<12].reduce(0) { $0 << 8 | Int($1) }
        guard length <= WireFormat.maximumPayloadSize else {
            throw IPCError(
                .frameTooLarge, "declared payload of \(length) bytes exceeds \(WireFormat.maximumPayloadSize)")
        }
        guard header[12..<16].allSatisfy({ $0 == 0 }) else {
            throw IPCError(.malformedFrame, "reserved header bytes are not zero: \(hex(header[12..<16]))")
        }
        self.init(kind: kind, descriptorCount: descriptors, payloadLength: length)
    }
}

// MARK: - Byte helpers

func bigEndianBytes(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
}

func bigEndianBytes(_ value: UInt64) -> [UInt8] {
    (0..<8).reversed().map { UInt8((value >> (UInt64($0) * 8)) & 0xff) }
}

func readBigEndianUInt64(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}

func hex(_ bytes: some Collection<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
}
