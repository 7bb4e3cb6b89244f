import ExtensionIPC
import ExtensionRuntime
import Foundation
import HostSystem
import Testing

/// The extension's end of the wire against a scripted host on a socket pair.
@Suite(.timeLimit(.minutes(1)))
struct HostConnectionTests {
    /// A host that answers every load: data loads with `size` bytes in chunks, file loads with a
    /// descriptor of a temporary file, security scopes granted only for "good".
    static func serveHost(_ host: Connection, size: Int) {
        Thread.detachNewThread {
            guard case .hello = try? host.receive(timeout: .seconds(10)).message else { return }
            try? host.send(.welcome(Welcome(context: ContextDescription(items: []), appGroups: ["group.a"])))
            while let frame = try? host.receive() {
                switch frame.message {
                case .loadRequest(let request) where request.kind == .data:
                    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(request.requestID)) }
                    try? host.sendData(requestID: request.requestID, bytes: bytes)
                case .loadRequest(let request) where request.attachment == 99:
                    try? host.send(
                        .loadFailed(
                            LoadFailed(
                                requestID: request.requestID,
                                error: WireError(code: WireError.itemUnavailable, message: "no such attachment"))))
                case .loadRequest(let request):
                    let path = NSTemporaryDirectory() + "exthost-hc-\(UUID().uuidString)"
                    _ = FileManager.default.createFile(atPath: path, contents: Data("file \(request.requestID)".utf8))
                    if let fd = try? FileDescriptor.open(path) {
                        try? host.send(
                            .fileReply(
                                FileReply(
                                    requestID: request.requestID, typeIdentifier: request.typeIdentifier, byteCount: 6)),
                            descriptors: [fd])
                        try? fd.close()
                    }
                    try? FileManager.default.removeItem(atPath: path)
                case .startAccessing(let request):
                    try? host.send(
                        .securityScopeReply(
                            SecurityScopeReply(requestID: request.requestID, granted: request.token == "good")))
                case .completeRequest:
                    try? host.send(.bye(Bye(reason: "done")))
                default:
                    break
                }
            }
        }
    }

    @Test func concurrentLoadsAreMatchedToTheirReplies() async throws {
        let (a, b) = try Socket.pair()
        let hostSide = Connection(socket: a)
        defer { hostSide.close() }
        Self.serveHost(hostSide, size: 200_000)
        let client = HostConnection(connection: Connection(socket: b))
        let welcome = try client.handshake(name: "test")
        #expect(welcome.appGroups == ["group.a"])
        client.start()
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<40 {
                group.addTask {
                    switch try await client.load(
                        attachment: index, typeIdentifier: "public.data", kind: index % 2 == 0 ? .data : .file)
                    {
                    case .data(let bytes): return (index, bytes.count)
                    case .file(let fd, _):
                        defer { try? fd.close() }
                        return (index, try fd.readAll().count)
                    case .original: return (index, -1)
                    }
                }
            }
            var collected: [(Int, Int)] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 40)
        #expect(results.filter { $0.0 % 2 == 0 }.map(\.1) == Array(repeating: 200_000, count: 20))
        #expect(results.filter { $0.0 % 2 == 1 }.allSatisfy { $0.1 >= "file 1".count })
        #expect(Set(results.map(\.0)) == Set(0..<40))
        await #expect(throws: WireError.self) {
            _ = try await client.load(attachment: 99, typeIdentifier: "public.data", kind: .file)
        }
        #expect(await client.securityScope(start: true, token: "good").granted)
        #expect(await !client.securityScope(start: true, token: "forged").granted)
        #expect(client.securityScopeBlocking(start: true, token: "good"))
        try client.send(.completeRequest(CompleteRequest(outcomes: [])))
        #expect(await client.waitForBye(timeout: .seconds(5)))
        client.connection.close()
    }

    @Test func aClosedHostFailsPendingLoads() async throws {
        let (a, b) = try Socket.pair()
        let hostSide = Connection(socket: a)
        let client = HostConnection(connection: Connection(socket: b))
        Thread.detachNewThread {
            _ = try? hostSide.receive(timeout: .seconds(10))
            try? hostSide.send(.welcome(Welcome(context: ContextDescription(items: []), appGroups: [])))
            _ = try? hostSide.receive(timeout: .seconds(10))
            hostSide.close()
        }
        _ = try client.handshake(name: "test")
        client.start()
        await #expect(throws: IPCError.self) {
            _ = try await client.load(attachment: 0, typeIdentifier: "public.data", kind: .data)
        }
        #expect(await !client.securityScope(start: true, token: "good").granted)
    }

    @Test func aContextTooLargeForOneFrameArrivesInParts() async throws {
        let attachments = (0..<10_000).map { index in
            AttachmentDescription(
                index: index, suggestedName: "file-\(index)-with-a-longish-name.png",
                representations: [
                    RepresentationDescription(typeIdentifier: "public.png", kind: .file, byteCount: 2560),
                    RepresentationDescription(typeIdentifier: "public.data", kind: .data),
                ])
        }
        let welcome = Welcome(
            context: ContextDescription(items: [ItemDescription(title: "many", attachments: attachments)]),
            appGroups: ["group.a"])
        let messages = welcome.split()
        #expect(messages.count > 2)
        for message in messages {
            #expect(try FrameEncoder.encode(.message(message)).count <= WireFormat.maximumPayloadSize)
        }
        let (a, b) = try Socket.pair()
        let hostSide = Connection(socket: a)
        defer { hostSide.close() }
        Thread.detachNewThread {
            _ = try? hostSide.receive(timeout: .seconds(10))
            for message in messages { try? hostSide.send(message) }
        }
        let client = HostConnection(connection: Connection(socket: b))
        defer { client.connection.close() }
        #expect(try client.handshake(name: "test") == welcome)
    }

    @Test func thousandsOfOutcomesTravelAheadOfTheCompletion() throws {
        let outcomes = (0..<10_000).map { index in
            AttachmentOutcome(
                attachment: index, typeIdentifier: "public.png", kind: .file, byteCount: 2560, milliseconds: 1.5,
                destination: "Inbox/0000abcd-file-\(index).png")
        }
        let messages = CompleteRequest(outcomes: outcomes).split()
        #expect(messages.count > 2)
        var collected: [AttachmentOutcome] = []
        for message in messages {
            #expect(try FrameEncoder.encode(.message(message)).count <= WireFormat.maximumPayloadSize)
            switch message {
            case .outcomes(let batch): collected += batch.outcomes
            case .completeRequest(let completion): collected += completion.outcomes
            default: Issue.record("unexpected \(message.typeName)")
            }
        }
        #expect(collected == outcomes)
        #expect(CompleteRequest(outcomes: Array(outcomes.prefix(3))).split().count == 1)

        // Reported as it goes: outcome messages only, each within a frame, nothing for nothing.
        let batches = OutcomeBatch(outcomes: outcomes).split()
        #expect(batches.count > 1)
        var streamed: [AttachmentOutcome] = []
        for message in batches {
            #expect(try FrameEncoder.encode(.message(message)).count <= WireFormat.maximumPayloadSize)
            guard case .outcomes(let batch) = message else {
                Issue.record("unexpected \(message.typeName)")
                continue
            }
            streamed += batch.outcomes
        }
        #expect(streamed == outcomes)
        #expect(OutcomeBatch(outcomes: []).split().isEmpty)
    }
}
