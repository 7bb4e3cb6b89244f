public import HostSystem
import Synchronization

/// A framed, blocking connection over a ``Socket``: sends and receives ``Frame``s with their
/// descriptors. One thread may send while another receives.
///
/// Any error except `.timedOut` means the stream can no longer be trusted: close the connection.
/// Malformed, oversized or truncated input never traps; it surfaces as an ``IPCError``.
public final class Connection: Sendable {
    /// The socket (closed by ``close()``).
    public let socket: Socket

    // Both locks are held across blocking socket calls: `HostSystem.Locked` (a pthread mutex,
    // which ThreadSanitizer sees), the lock every module uses.
    /// What reading owns, held while a frame is being read.
    private struct ReadState: ~Copyable {
        var decoder = FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var closed = false
    }
    private let reading = Locked(ReadState())
    /// Held while a frame is being written, so frames never interleave.
    /// (It counts the frames: a zero-sized value under the lock is reported as a race by
    /// ThreadSanitizer.)
    private let writing = Locked(0)
    /// Set once by ``close()``; checked without a lock so that closing never waits for a blocked send.
    private let closed = Atomic(false)

    /// Takes ownership of a connected stream socket (for an extension: fd 3).
    public init(socket: Socket) { self.socket = socket }

    // MARK: - Sending

    /// Sends `frame` and its descriptors (the caller keeps and closes its own copies).
    /// - Throws: ``IPCError``: from ``FrameEncoder/encode(_:)``; `.connectionClosed` when the
    ///   peer is gone (`EPIPE`/`ECONNRESET`) or this side closed; `.io` otherwise.
    public func send(_ frame: Frame) throws(IPCError) {
        let bytes = try FrameEncoder.encode(frame)
        try writing.withLock { frames throws(IPCError) in
            frames += 1
            if closed.load(ordering: .acquiring) {
                throw IPCError(.connectionClosed, "the connection was closed by this side")
            }
            do throws(Errno) {
                try socket.sendAll(bytes, descriptors: frame.descriptors)
            } catch  where error == .brokenPipe || error == .connectionReset {
                throw IPCError(.connectionClosed, "the peer closed the connection", cause: error)
            } catch {
                throw .io("sendmsg", error)
            }
        }
    }

    /// Sends `message` with `descriptors` (exactly ``Message/descriptorCount`` of them).
    /// - Throws: ``IPCError`` (see ``send(_:)-(Frame)``).
    public func send(_ message: Message, descriptors: [FileDescriptor] = []) throws(IPCError) {
        try send(.message(message, descriptors: descriptors))
    }

    // MARK: - Receiving

    /// Waits for the next frame; nil `timeout` waits forever.
    /// - Throws: ``IPCError``: `.connectionClosed` at a clean end of stream, `.truncatedFrame` when
    ///   the peer closed mid-frame, `.timedOut` (the connection stays usable), the decoder's
    ///   `.malformedFrame`/`.frameTooLarge`/`.unsupportedVersion`/`.protocolViolation`, `.io`.
    public func receive(timeout: Duration? = nil) throws(IPCError) -> Frame {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        let socket = socket
        return try reading.withLock { state throws(IPCError) in try Self.receive(&state, on: socket, deadline: deadline)
        }
    }

    /// Reads until `state`'s decoder has a frame (called with the read lock held).
    private static func receive(_ state: inout ReadState, on socket: Socket, deadline: ContinuousClock.Instant?)
        throws(IPCError) -> Frame
    {
        while true {
            if state.closed { throw IPCError(.connectionClosed, "the connection was closed by this side") }
            if let frame = try state.decoder.nextFrame() { return frame }
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                let ready: PollEvents
                do throws(Errno) {
                    ready = try socket.descriptor.poll(for: .readable, timeout: max(remaining, .zero))
                } catch {
                    throw IPCError.io("poll", error)
                }
                if ready.isEmpty { throw IPCError(.timedOut, "no frame within the timeout") }
            }
            let received: Socket.Received
            do throws(Errno) {
                let attempt: Result<Socket.Received, Errno> = state.buffer.withUnsafeMutableBytes { raw in
                    do throws(Errno) { return .success(try socket.receive(into: raw)) } catch { return .failure(error) }
                }
                received = try attempt.get()
            } catch  where error == .connectionReset {
                try state.decoder.finish()
                throw IPCError(.connectionClosed, "the peer reset the connection", cause: error)
            } catch {
                throw IPCError.io("recvmsg", error)
            }
            if received.byteCount == 0 {
                for descriptor in received.descriptors { try? descriptor.close() }
                try state.decoder.finish()
                throw IPCError(.connectionClosed, "the peer closed the connection")
            }
            let count = received.byteCount
            let buffer = state.buffer
            buffer.withUnsafeBytes { raw in
                state.decoder.append(UnsafeRawBufferPointer(rebasing: raw[..<count]), descriptors: received.descriptors)
            }
        }
    }

    // MARK: - Closing

    /// Shuts the socket down (waking a blocked ``receive(timeout:)`` with end of stream and a
    /// send blocked on a full socket with `EPIPE`), waits for them to return, then closes the socket
    /// and any descriptors received but not yet handed out. Idempotent.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? socket.shutdownWriting()
        try? socket.descriptor.shutdownReading()
        reading.withLock { state in
            state.closed = true
            state.decoder.reset()
        }
        writing.withLock { _ in }
        try? socket.close()
    }

    deinit { close() }
}
