import ExtensionIPC
import Foundation
import HostSystem
import Testing

struct ConnectionTests {
    /// Two connections over a real socket pair, in one process.
    func withPair(_ body: (Connection, Connection) throws -> Void) throws {
        let (a, b) = try Socket.pair()
        let host = Connection(socket: a)
        let child = Connection(socket: b)
        defer {
            host.close()
            child.close()
        }
        try body(host, child)
    }

    @Test func messagesAndChunksArriveInOrder() throws {
        try withPair { host, child in
            try child.send(.hello(Hello(role: .extension, pid: 1)))
            let chunk = DataChunk(
                requestID: 1, offset: 0, bytes: [UInt8](repeating: 7, count: WireFormat.maximumChunkSize))
            // A 256 KiB chunk is larger than the socket buffer: the receiver must drain while we send.
            let sender = Thread {
                try? host.send(.data(chunk))
                try? host.send(.loadCompleted(LoadCompleted(requestID: 1, byteCount: Int64(chunk.bytes.count))))
            }
            #expect(try host.receive(timeout: .seconds(5)).message == .hello(Hello(role: .extension, pid: 1)))
            sender.start()
            #expect(try child.receive(timeout: .seconds(5)).content == .data(chunk))
            #expect(
                try child.receive(timeout: .seconds(5)).message
                    == .loadCompleted(LoadCompleted(requestID: 1, byteCount: Int64(chunk.bytes.count))))
        }
    }

    @Test func aDescriptorTravelsWithItsFrame() throws {
        try withPair { host, child in
            let pipe = try FileDescriptor.pipe()
            try pipe.writeEnd.writeAll(Array("through the socket".utf8))
            try pipe.writeEnd.close()
            try host.send(.log(LogLine(level: .info, text: "before")))
            try host.send(
                .fileReply(FileReply(requestID: 3, typeIdentifier: "public.text", byteCount: 18)),
                descriptors: [pipe.readEnd])
            try pipe.readEnd.close()
            #expect(try child.receive(timeout: .seconds(5)).descriptors.isEmpty)
            let frame = try child.receive(timeout: .seconds(5))
            let received = try #require(frame.descriptors.first)
            #expect(String(decoding: try received.readAll(), as: UTF8.self) == "through the socket")
            try received.close()
        }
    }

    @Test func silenceIsATimeoutAndTheConnectionStaysUsable() throws {
        try withPair { host, child in
            #expect { _ = try child.receive(timeout: .milliseconds(20)) } throws: {
                ($0 as? IPCError)?.code == .timedOut
            }
            try host.send(.bye(Bye(reason: "late")))
            #expect(try child.receive(timeout: .seconds(5)).message == .bye(Bye(reason: "late")))
        }
    }

    @Test func peerClosingBetweenFramesIsConnectionClosed() throws {
        try withPair { host, child in
            try host.send(.bye(Bye(reason: "x")))
            host.close()
            _ = try child.receive(timeout: .seconds(5))
            #expect { _ = try child.receive(timeout: .seconds(5)) } throws: {
                ($0 as? IPCError)?.code == .connectionClosed
            }
            #expect { try child.send(.bye(Bye(reason: "y"))) } throws: { ($0 as? IPCError)?.code == .connectionClosed }
        }
    }

    @Test func peerClosingInsideAFrameIsTruncation() throws {
        let (a, b) = try Socket.pair()
        let child = Connection(socket: b)
        defer { child.close() }
        let bytes = try FrameEncoder.encode(.message(.bye(Bye(reason: "cut short"))))
        try a.sendAll(Array(bytes.prefix(20)))
        try a.close()
        #expect { _ = try child.receive(timeout: .seconds(5)) } throws: { ($0 as? IPCError)?.code == .truncatedFrame }
    }

    @Test func garbageFromThePeerEndsTheConnectionWithATypedError() throws {
        let (a, b) = try Socket.pair()
        let child = Connection(socket: b)
        defer {
            child.close()
            try? a.close()
        }
        try a.sendAll(Array("hello? is this HTTP?".utf8))
        #expect { _ = try child.receive(timeout: .seconds(5)) } throws: { ($0 as? IPCError)?.code == .malformedFrame }
        #expect(throws: IPCError.self) { _ = try child.receive(timeout: .seconds(5)) }
    }

    @Test func anOversizedDeclaredLengthIsRefusedBeforeReadingThePayload() throws {
        let (a, b) = try Socket.pair()
        let child = Connection(socket: b)
        defer {
            child.close()
            try? a.close()
        }
        try a.sendAll([0x45, 0x58, 0x48, 0x49, 0, 3, 1, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        #expect { _ = try child.receive(timeout: .seconds(5)) } throws: { ($0 as? IPCError)?.code == .frameTooLarge }
    }

    @Test func closingWakesABlockedReceiver() async throws {
        let (a, b) = try Socket.pair()
        let child = Connection(socket: b)
        defer { try? a.close() }
        let outcome = onThread { () -> IPCError.Code? in
            do throws(IPCError) {
                _ = try child.receive()
                return nil
            } catch {
                return error.code
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        child.close()
        #expect(await outcome.value == .connectionClosed)
    }
}

struct ConnectionStreamingTests {
    @Test func dataIsSentInBoundedChunksThenCompleted() async throws {
        let (a, b) = try Socket.pair()
        let host = Connection(socket: a)
        let child = Connection(socket: b)
        defer { child.close() }
        let payload = (0..<(WireFormat.maximumChunkSize * 2 + 100)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let sender = onThread { () -> IPCError? in
            defer { host.close() }
            do throws(IPCError) {
                try host.sendData(requestID: 42, bytes: payload)
                return nil
            } catch {
                return error
            }
        }
        var received: [UInt8] = []
        var chunkSizes: [Int] = []
        var completion: LoadCompleted?
        for try await frame in child.incomingFrames() {
            switch frame.content {
            case .data(let chunk):
                #expect(chunk.requestID == 42)
                #expect(chunk.offset == UInt64(received.count))
                chunkSizes.append(chunk.bytes.count)
                received += chunk.bytes
            case .message(.loadCompleted(let done)): completion = done
            case .message(let other): Issue.record("unexpected \(other.typeName)")
            }
        }
        #expect(await sender.value == nil)
        #expect(received == payload)
        #expect(chunkSizes == [WireFormat.maximumChunkSize, WireFormat.maximumChunkSize, 100])
        #expect(completion == LoadCompleted(requestID: 42, byteCount: Int64(payload.count)))
    }

    @Test func theStreamThrowsWhenThePeerSendsGarbage() async throws {
        let (a, b) = try Socket.pair()
        let child = Connection(socket: b)
        defer {
            child.close()
            try? a.close()
        }
        try a.sendAll(Array("not a frame at all".utf8))
        await #expect { for try await _ in child.incomingFrames() {} } throws: {
            ($0 as? IPCError)?.code == .malformedFrame
        }
    }
}

struct ConnectionClosingTests {
    @Test func closingWakesASendBlockedOnAPeerThatDoesNotRead() async throws {
        let (a, b) = try Socket.pair()
        let host = Connection(socket: a)
        defer { try? b.close() }
        let sender = onThread { () -> IPCError.Code? in
            let chunk = DataChunk(
                requestID: 1, offset: 0, bytes: [UInt8](repeating: 1, count: WireFormat.maximumChunkSize))
            do throws(IPCError) {
                // The peer never reads: the socket buffer fills and sendmsg blocks.
                for _ in 0..<64 { try host.send(.data(chunk)) }
                return nil
            } catch {
                return error.code
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        host.close()
        #expect(await sender.value == .connectionClosed)
    }
}

/// Runs blocking work on its own thread, never on the cooperative pool (which has as few threads
/// as the machine has cores: two blocked calls there can starve every other test).
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> Task<T, Never> {
    Task {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
