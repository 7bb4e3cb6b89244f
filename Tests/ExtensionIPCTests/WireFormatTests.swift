import ExtensionIPC
import Foundation
import HostSystem
import Testing

/// Pins the bytes on the wire: a change here breaks every extension built against an older runtime.
struct WireFormatTests {
    @Test func helloFrameHasTheseExactBytes() throws {
        let frame = Frame.message(.hello(Hello(protocolVersion: 3, role: .extension, pid: 42, name: "demo")))
        let json = #"{"body":{"name":"demo","pid":42,"protocolVersion":3,"role":"extension"},"type":"hello"}"#
        let expected: [UInt8] =
            [0x45, 0x58, 0x48, 0x49, 0x00, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, UInt8(json.utf8.count), 0, 0, 0, 0]
            + Array(json.utf8)
        #expect(try FrameEncoder.encode(frame) == expected)
    }

    @Test func dataChunkFrameHasTheseExactBytes() throws {
        let frame = Frame.data(DataChunk(requestID: 7, offset: 0x0102, bytes: [0xAA, 0xBB, 0xCC]))
        let expected: [UInt8] = [
            0x45, 0x58, 0x48, 0x49, 0x00, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00, 0x00,
            0, 0, 0, 0, 0, 0, 0, 7,
            0, 0, 0, 0, 0, 0, 0x01, 0x02,
            0xAA, 0xBB, 0xCC,
        ]
        #expect(try FrameEncoder.encode(frame) == expected)
    }

    @Test func fileReplyHeaderDeclaresItsDescriptor() throws {
        let reply = FileReply(requestID: 1, typeIdentifier: "public.png", byteCount: 3)
        // Encoding checks the count against the message; an arbitrary descriptor number is enough.
        let bytes = try FrameEncoder.encode(.message(.fileReply(reply), descriptors: [.standardInput]))
        #expect(bytes[7] == 1)
        #expect(throws: IPCError.self) { try FrameEncoder.encode(.message(.fileReply(reply))) }
    }

    @Test func principalAndBundleFailureFramesHaveTheseExactBytes() throws {
        let principal = Frame.message(
            .principal(
                PrincipalDescription(
                    className: "MyShare.ShareViewController", source: .mainStoryboard, kind: .viewController,
                    storyboard: "Base.lproj/MainInterface.storyboard", initializer: "init(coder:)")))
        let principalJSON =
            #"{"body":{"className":"MyShare.ShareViewController","initializer":"init(coder:)","kind":"view-controller","#
            + #""source":"NSExtensionMainStoryboard","storyboard":"Base.lproj/MainInterface.storyboard"},"#
            + #""type":"principal"}"#
        #expect(try FrameEncoder.encode(principal) == Self.messageHeader(principalJSON) + Array(principalJSON.utf8))
        let failure = Frame.message(
            .bundleFailure(BundleFailure(message: "no initial view controller", file: "Main.storyboard", line: 3)))
        let failureJSON =
            #"{"body":{"file":"Main.storyboard","line":3,"message":"no initial view controller"},"type":"bundleFailure"}"#
        #expect(try FrameEncoder.encode(failure) == Self.messageHeader(failureJSON) + Array(failureJSON.utf8))
    }

    @Test func handOffFramesHaveTheseExactBytes() throws {
        let request = Frame.message(
            .openURL(OpenURLRequest(requestID: 9, url: "myapp://share?id=1", method: .openURLSelector)))
        let requestJSON = #"{"body":{"method":"openURL:","requestID":9,"url":"myapp://share?id=1"},"type":"openURL"}"#
        #expect(try FrameEncoder.encode(request) == Self.messageHeader(requestJSON) + Array(requestJSON.utf8))
        let reply = Frame.message(.openURLReply(OpenURLReply(requestID: 9, opened: false)))
        let replyJSON = #"{"body":{"opened":false,"requestID":9},"type":"openURLReply"}"#
        #expect(try FrameEncoder.encode(reply) == Self.messageHeader(replyJSON) + Array(replyJSON.utf8))
        #expect(
            OpenURLRequest.Method.allCases.map(\.rawValue) == [
                "UIApplication.open(_:options:completionHandler:)", "openURL:",
                "NSExtensionContext.open(_:completionHandler:)",
            ])
    }

    /// The header of a message frame carrying `json`, no descriptors.
    static func messageHeader(_ json: String) -> [UInt8] {
        let count = json.utf8.count
        return [0x45, 0x58, 0x48, 0x49, 0x00, 0x03, 0x01, 0x00]
            + [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            + [0, 0, 0, 0]
    }

    @Test func limitsAreTheDocumentedOnes() {
        #expect(WireFormat.protocolVersion == 3)
        #expect(WireFormat.headerSize == 16)
        #expect(WireFormat.maximumPayloadSize == 1_048_576)
        #expect(WireFormat.maximumChunkSize == 262_144)
        #expect(WireFormat.maximumDescriptorsPerFrame == 8)
    }

    @Test func headerRoundTrips() throws {
        let header = FrameHeader(kind: .message, descriptorCount: 1, payloadLength: 70_000)
        #expect(try FrameHeader(decoding: header.encoded()) == header)
    }

    @Test func chunkLargerThanTheLimitIsRefusedWhenEncoding() {
        let chunk = DataChunk(
            requestID: 1, offset: 0, bytes: [UInt8](repeating: 0, count: WireFormat.maximumChunkSize + 1))
        #expect { try FrameEncoder.encode(.data(chunk)) } throws: { ($0 as? IPCError)?.code == .frameTooLarge }
    }
}

/// The pasteboard service's messages on both wires: the extension's frames and the app's lines.
@Suite struct PasteboardWireTests {
    @Test func requestsAndRepliesRoundTripOnBothWires() throws {
        let item = PasteboardItem(representations: [
            PasteboardRepresentation(type: "public.utf8-plain-text", data: Data("hi".utf8))
        ])
        let request = Message.pasteboard(PasteboardRequest(requestID: 3, items: [item], localOnly: true))
        let encoded = try JSONEncoder().encode(request)
        #expect(try JSONDecoder().decode(Message.self, from: encoded) == request)
        #expect(request.typeName == "pasteboard")
        let reply = Message.pasteboardReply(
            PasteboardReply(requestID: 3, contents: PasteboardContents(changeCount: 4, items: [item], writer: "a")))
        #expect(try JSONDecoder().decode(Message.self, from: try JSONEncoder().encode(reply)) == reply)
        let line = AppMessage(.pasteboard, id: 3, pasteboardRequest: PasteboardRequest(requestID: 3))
        #expect(try JSONDecoder().decode(AppMessage.self, from: try JSONEncoder().encode(line)) == line)
        let intent = AppMessage(
            .performIntent,
            appIntent: AppIntentInvocation(
                typeName: "OpenNote", mangledTypeName: nil,
                parameters: [IntentParameterValue(name: "text", kind: "string", string: "x")], background: true))
        #expect(try JSONDecoder().decode(AppMessage.self, from: try JSONEncoder().encode(intent)) == intent)
    }
}
