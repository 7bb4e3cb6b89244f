import HostSystem
import Testing

struct SocketTests {
    @Test func bytesAndDescriptorsCrossASocketPair() throws {
        let (a, b) = try Socket.pair()
        defer {
            try? a.close()
            try? b.close()
        }
        let pipe = try FileDescriptor.pipe()
        try pipe.writeEnd.writeAll(Array("payload".utf8))
        try pipe.writeEnd.close()
        try a.sendAll(Array("hi".utf8), descriptors: [pipe.readEnd, pipe.readEnd])
        try pipe.readEnd.close()

        var buffer = [UInt8](repeating: 0, count: 16)
        let received = try buffer.withUnsafeMutableBytes { try b.receive(into: $0) }
        #expect(Array(buffer.prefix(received.byteCount)) == Array("hi".utf8))
        #expect(received.descriptors.count == 2)
        // Both received descriptors name the same pipe; they are new numbers, close-on-exec.
        let first = try #require(received.descriptors.first)
        #expect(String(decoding: try first.readAll(), as: UTF8.self) == "payload")
        for descriptor in received.descriptors { try descriptor.close() }
    }

    @Test func aVanishedPeerIsBrokenPipeNotSIGPIPE() throws {
        let (a, b) = try Socket.pair()
        try b.close()
        defer { try? a.close() }
        #expect(throws: Errno.brokenPipe) { try a.sendAll(Array("x".utf8)) }
    }

    @Test func anEmptySocketWouldBlockWhenAskedNotTo() throws {
        let (a, b) = try Socket.pair()
        defer {
            try? a.close()
            try? b.close()
        }
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: Errno.wouldBlock) {
            _ = try buffer.withUnsafeMutableBytes { try b.receive(into: $0, nonBlocking: true) }
        }
        #expect(try b.descriptor.poll(for: .readable, timeout: .milliseconds(10)).isEmpty)
        try a.sendAll([1])
        #expect(try b.descriptor.poll(for: .readable, timeout: .seconds(1)).contains(.readable))
    }

    @Test func endOfStreamReadsAsZeroBytes() throws {
        let (a, b) = try Socket.pair()
        defer { try? b.close() }
        try a.shutdownWriting()
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(try buffer.withUnsafeMutableBytes { try b.receive(into: $0) }.byteCount == 0)
        try a.close()
    }

    @Test func pipeEndsAreCloseOnExecAndCapturedOutputIsCapped() throws {
        let pipe = try FileDescriptor.pipe()
        try pipe.writeEnd.writeAll([UInt8](repeating: 65, count: 1000))
        try pipe.writeEnd.close()
        let captured = try pipe.readEnd.readAll(keepingAtMost: 10)
        try pipe.readEnd.close()
        #expect(captured.bytes.count == 10)
        #expect(captured.droppedByteCount == 990)
        #expect(captured.text == "AAAAAAAAAA[… 990 bytes dropped]")
    }
}

/// The loopback TCP listener AirDrop hands its receiver: bound before the other side runs, so a
/// client may connect at once, and adoptable from the inherited descriptor.
struct LoopbackListenerTests {
    @Test func aClientConnectsBeforeTheAcceptAndTheBytesArriveInOrder() throws {
        let listener = try LoopbackListener.bind()
        defer { listener.close() }
        #expect(listener.port > 0)
        let client = try Socket.connect(loopbackPort: listener.port)
        defer { try? client.close() }
        try client.sendAll(Array("hello\n".utf8))
        try client.shutdownWriting()
        let adopted = try LoopbackListener(adopting: listener.descriptor)
        #expect(adopted.port == listener.port)
        let server = try #require(try adopted.accept(timeout: .seconds(10)))
        defer { try? server.close() }
        var bytes = [UInt8](repeating: 0, count: 16)
        var total = 0
        while true {
            let count = try bytes.withUnsafeMutableBytes { raw in
                try server.receive(into: UnsafeMutableRawBufferPointer(rebasing: raw[total...])).byteCount
            }
            if count == 0 { break }
            total += count
        }
        #expect(Array(bytes[0..<total]) == Array("hello\n".utf8))
    }

    @Test func anAcceptWithoutAClientEndsAtItsTimeout() throws {
        let listener = try LoopbackListener.bind()
        defer { listener.close() }
        #expect(try listener.accept(timeout: .zero) == nil)
    }

    @Test func aUnixSocketIsNotALoopbackListener() throws {
        let (one, two) = try Socket.pair()
        defer {
            try? one.close()
            try? two.close()
        }
        #expect(throws: Errno.self) { try LoopbackListener(adopting: one.descriptor) }
    }
}
