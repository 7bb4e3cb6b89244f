import HostSystem

import class Foundation.Thread

extension Connection {
    /// Sends `bytes` as the answer to a data ``LoadRequest``: ``DataChunk`` frames of at most
    /// ``WireFormat/maximumChunkSize`` bytes, then ``Message/loadCompleted(_:)`` with the total.
    /// - Throws: ``IPCError`` (see ``send(_:)-(Frame)``).
    public func sendData(requestID: UInt64, bytes: UnsafeRawBufferPointer) throws(IPCError) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + WireFormat.maximumChunkSize, bytes.count)
            let chunk = DataChunk(requestID: requestID, offset: UInt64(offset), bytes: Array(bytes[offset..<end]))
            try send(.data(chunk))
            offset = end
        }
        try send(.loadCompleted(LoadCompleted(requestID: requestID, byteCount: Int64(bytes.count))))
    }

    /// Sends `bytes` as the answer to a data load (see ``sendData(requestID:bytes:)-(_,UnsafeRawBufferPointer)``).
    /// - Throws: ``IPCError``.
    public func sendData(requestID: UInt64, bytes: [UInt8]) throws(IPCError) {
        let result: Result<Void, IPCError> = bytes.withUnsafeBytes { raw in
            do throws(IPCError) {
                try sendData(requestID: requestID, bytes: raw)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Receives frames on a dedicated thread (so no Swift concurrency thread blocks in `recvmsg`)
    /// and yields them in order. The stream finishes normally when the peer closes between frames
    /// and throws the ``IPCError`` for anything else (truncation, malformed input, I/O).
    ///
    /// Call it once per connection and do not mix it with ``receive(timeout:)``. Ending the
    /// iteration early (or cancelling the consuming task) closes the connection; frames already
    /// received but not consumed are dropped with their descriptors closed only when the process
    /// ends, so consume to the end in long-lived processes.
    public func incomingFrames() -> AsyncThrowingStream<Frame, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Frame, any Error>.makeStream()
        continuation.onTermination = { [self] termination in
            if case .cancelled = termination { close() }
        }
        Thread.detachNewThread { [self] in
            while true {
                do throws(IPCError) {
                    let frame = try receive()
                    if case .terminated = continuation.yield(frame) {
                        frame.closeDescriptors()
                        return
                    }
                } catch  where error.code == .connectionClosed {
                    continuation.finish()
                    return
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
            }
        }
        return stream
    }
}
