import ExtensionIPC
import HostSystem
import Testing

struct FrameDecoderTests {
    static let messages: [Message] = [
        .hello(Hello(role: .extension, pid: 1234, name: "Share")),
        .welcome(
            Welcome(
                context: ContextDescription(items: [ItemDescription(title: "many", attachments: [])]), appGroups: [],
                paging: ContextPaging(pageSize: 512, attachmentCounts: [100_000]))),
        .pageRequest(PageRequest(requestID: 7, page: 3)),
        .contextPage(
            ContextPage(
                requestID: 7, page: 3,
                attachments: [
                    AttachmentDescription(
                        index: 1536, suggestedName: "f001536.bin",
                        representations: [RepresentationDescription(typeIdentifier: "public.data", kind: .file)])
                ], more: true)),
        .contextPage(
            ContextPage(requestID: 8, page: 999, error: WireError(code: WireError.itemUnavailable, message: "no page"))),
        .welcome(
            Welcome(
                context: ContextDescription(items: [
                    ItemDescription(
                        title: "Photos", contentText: "two",
                        attachments: [
                            AttachmentDescription(
                                index: 0, suggestedName: "photo.png",
                                representations: [
                                    RepresentationDescription(typeIdentifier: "public.png", kind: .file, byteCount: 10),
                                    RepresentationDescription(
                                        typeIdentifier: "public.data", kind: .openInPlace, securityScopeToken: "tok-1"),
                                ])
                        ])
                ]), appGroups: ["group.com.example.carddrop"])),
        .loadRequest(LoadRequest(requestID: 1, attachment: 0, typeIdentifier: "public.png", kind: .data)),
        .loadCompleted(LoadCompleted(requestID: 1, byteCount: 10)),
        .loadFailed(
            LoadFailed(requestID: 2, error: WireError(code: WireError.unavailableCoercion, message: "no coercion"))),
        .cancelLoad(RequestReference(requestID: 3)),
        .startAccessing(SecurityScopeRequest(requestID: 4, token: "tok-1")),
        .stopAccessing(SecurityScopeRequest(requestID: 5, token: "tok-1")),
        .securityScopeReply(SecurityScopeReply(requestID: 5, granted: false, reason: "not started")),
        .progress(ProgressUpdate(requestID: 1, completedUnitCount: 5, totalUnitCount: 10, activity: "loading")),
        .completeRequest(
            CompleteRequest(outcomes: [
                AttachmentOutcome(
                    attachment: 0, typeIdentifier: "public.png", kind: .file, byteCount: 10, milliseconds: 1.5,
                    destination: "Inbox/photo.png")
            ])),
        .cancelRequest(CancelRequest(error: WireError(code: -1, message: "user cancelled"))),
        .log(LogLine(level: .info, text: "hello from the extension")),
        .bye(Bye(reason: "done")),
    ]

    @Test(arguments: messages)
    func everyMessageRoundTrips(_ message: Message) throws {
        var decoder = FrameDecoder()
        decoder.append(try FrameEncoder.encode(.message(message)))
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.message == message)
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func framesFedOneByteAtATimeComeOutWhole() throws {
        let chunk = DataChunk(requestID: 9, offset: 4096, bytes: Array(0..<200).map { UInt8($0) })
        let bytes =
            try FrameEncoder.encode(.message(.log(LogLine(level: .debug, text: "x"))))
            + FrameEncoder.encode(.data(chunk))
        var decoder = FrameDecoder()
        var frames: [Frame.Content] = []
        for byte in bytes {
            decoder.append([byte])
            while let frame = try decoder.nextFrame() { frames.append(frame.content) }
        }
        #expect(frames == [.message(.log(LogLine(level: .debug, text: "x"))), .data(chunk)])
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var code: IPCError.Code
        var testDescription: String { name }
    }

    static let header: [UInt8] = [0x45, 0x58, 0x48, 0x49, 0x00, 0x03, 0x01, 0x00]

    /// A well-formed header (version 3) in front of `payload`.
    static func frame(kind: UInt8 = 1, descriptors: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [0x45, 0x58, 0x48, 0x49, 0, 3, kind, descriptors]
            + [UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff), UInt8(length & 0xff)]
            + [0, 0, 0, 0] + payload
    }
    static let badInputs: [BadInput] = [
        BadInput(name: "bad magic", bytes: Array("GET / HTTP/1.1\r\n".utf8), code: .malformedFrame),
        BadInput(name: "one wrong byte is enough", bytes: [0x45, 0x00], code: .malformedFrame),
        BadInput(
            name: "future version", bytes: [0x45, 0x58, 0x48, 0x49, 0x00, 0x04, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            code: .unsupportedVersion),
        BadInput(
            name: "unknown kind", bytes: [0x45, 0x58, 0x48, 0x49, 0, 3, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            code: .malformedFrame),
        BadInput(name: "oversized length", bytes: header + [0x00, 0x10, 0x00, 0x01, 0, 0, 0, 0], code: .frameTooLarge),
        BadInput(name: "4 GiB length", bytes: header + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0], code: .frameTooLarge),
        BadInput(name: "reserved bytes set", bytes: header + [0, 0, 0, 0, 0, 0, 0, 1], code: .malformedFrame),
        BadInput(
            name: "too many descriptors", bytes: [0x45, 0x58, 0x48, 0x49, 0, 3, 1, 200, 0, 0, 0, 0, 0, 0, 0, 0],
            code: .malformedFrame),
        BadInput(
            name: "descriptors on data", bytes: [0x45, 0x58, 0x48, 0x49, 0, 3, 2, 1, 0, 0, 0, 16, 0, 0, 0, 0],
            code: .malformedFrame),
        BadInput(name: "payload not JSON", bytes: frame(Array("{{{".utf8)), code: .malformedFrame),
        BadInput(
            name: "unknown message type", bytes: frame(Array(#"{"type":"nope","body":{}}"#.utf8)),
            code: .malformedFrame),
        BadInput(
            name: "body of the wrong shape", bytes: frame(Array(#"{"type":"hello","body":true}"#.utf8)),
            code: .malformedFrame),
        BadInput(
            name: "data chunk without prefix",
            bytes: [0x45, 0x58, 0x48, 0x49, 0, 3, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 2, 3],
            code: .malformedFrame),
        BadInput(
            name: "fileReply without its descriptor",
            bytes: frame(
                Array(#"{"type":"fileReply","body":{"requestID":1,"typeIdentifier":"a","byteCount":1}}"#.utf8)),
            code: .protocolViolation),
        BadInput(
            name: "log with a descriptor that never came",
            bytes: frame(descriptors: 1, Array(#"{"type":"log","body":{"level":"info","text":"x"}}"#.utf8)),
            code: .protocolViolation),
    ]

    @Test(arguments: badInputs)
    func malformedInputIsATypedErrorNeverATrap(_ input: BadInput) {
        var decoder = FrameDecoder()
        decoder.append(input.bytes)
        #expect { _ = try decoder.nextFrame() } throws: { ($0 as? IPCError)?.code == input.code }
        // The decoder stays failed: the stream position is lost.
        #expect(throws: IPCError.self) { _ = try decoder.nextFrame() }
    }

    @Test func oversizedChunkContentsAreRefusedWhenDecoding() throws {
        let size = WireFormat.maximumChunkSize + WireFormat.chunkPrefixSize + 1
        var bytes: [UInt8] = [0x45, 0x58, 0x48, 0x49, 0, 3, 2, 0]
        bytes += [
            UInt8(size >> 24), UInt8((size >> 16) & 0xff), UInt8((size >> 8) & 0xff), UInt8(size & 0xff), 0, 0, 0, 0,
        ]
        bytes += [UInt8](repeating: 0, count: size)
        var decoder = FrameDecoder()
        decoder.append(bytes)
        #expect { _ = try decoder.nextFrame() } throws: { ($0 as? IPCError)?.code == .frameTooLarge }
    }

    @Test func endOfStreamInsideAFrameIsTruncation() throws {
        let bytes = try FrameEncoder.encode(.message(.bye(Bye(reason: "x"))))
        var decoder = FrameDecoder()
        decoder.append(Array(bytes.dropLast(3)))
        #expect(try decoder.nextFrame() == nil)
        #expect { try decoder.finish() } throws: { ($0 as? IPCError)?.code == .truncatedFrame }
    }

    @Test func endOfStreamBetweenFramesIsClean() throws {
        var decoder = FrameDecoder()
        decoder.append(try FrameEncoder.encode(.message(.bye(Bye(reason: "x")))))
        _ = try decoder.nextFrame()
        try decoder.finish()
    }
}
