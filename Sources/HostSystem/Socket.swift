import CSandbox

#if canImport(Glibc)
import Glibc
#endif

/// One end of a connected `AF_UNIX` stream socket that can carry file descriptors (`SCM_RIGHTS`).
///
/// exthost uses `SOCK_STREAM`, not `SOCK_SEQPACKET`: a seqpacket record must fit the socket's send
/// buffer in one piece (about 208 KiB by default, and raising `SO_SNDBUF` past `wmem_max` needs
/// privilege), which a 256 KiB data chunk or a 1 MiB frame does not. The stream carries
/// length-prefixed frames instead (`ExtensionIPC`), and the descriptors ride on the first byte of
/// their frame: the kernel never merges the descriptors of two `sendmsg` calls into one `recvmsg`
/// and delivers them no later than that byte, so a receiver that queues descriptors in arrival
/// order and hands each frame the count its header declares stays in step.
///
/// A plain value like ``FileDescriptor``; close it explicitly.
public struct Socket: Hashable, Sendable {
    /// The underlying descriptor (close-on-exec).
    public let descriptor: FileDescriptor

    /// Wraps a connected `AF_UNIX` stream socket the caller owns (for example fd 3 in an extension).
    public init(descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// The most descriptors one ``send(_:descriptors:nonBlocking:)`` call may attach.
    public static var maximumDescriptorsPerMessage: Int { Int(EH_MAX_FDS_PER_MESSAGE) }

    /// A connected pair of `AF_UNIX` `SOCK_STREAM` sockets, both close-on-exec.
    ///
    /// The corresponding C function is `socketpair`.
    /// - Throws: ``Errno`` (`.tooManyOpenFiles`).
    public static func pair() throws(Errno) -> (Socket, Socket) {
        var fds: [CInt] = [-1, -1]
        let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
        try nothingOrErrno { system_socketpair(AF_UNIX, type, 0, &fds) }.get()
        return (
            Socket(descriptor: FileDescriptor(rawValue: fds[0])), Socket(descriptor: FileDescriptor(rawValue: fds[1]))
        )
    }

    // MARK: - Sending

    /// Sends some of `bytes` (at least one byte unless `bytes` is empty) with `descriptors`
    /// attached to the first byte; returns how many bytes were sent.
    ///
    /// Never raises `SIGPIPE` (`MSG_NOSIGNAL`): a vanished peer is ``Errno/brokenPipe``.
    /// `EINTR` is retried. With `nonBlocking`, a full socket buffer is ``Errno/wouldBlock``.
    /// The descriptors are duplicated into the peer; the caller still owns (and closes) its own.
    /// The corresponding C function is `sendmsg`.
    /// - Precondition: `bytes` is not empty and there are at most ``maximumDescriptorsPerMessage``
    ///   descriptors (programmer error: traps).
    /// - Throws: ``Errno``.
    public func send(
        _ bytes: UnsafeRawBufferPointer, descriptors: [FileDescriptor] = [], nonBlocking: Bool = false
    ) throws(Errno) -> Int {
        // programmer error: a descriptor must travel with at least one byte, and the cap is fixed.
        precondition(!bytes.isEmpty && descriptors.count <= Self.maximumDescriptorsPerMessage)
        guard let base = bytes.baseAddress else { return 0 }
        let raw = descriptors.map(\.rawValue)
        let flag: CInt = nonBlocking ? 1 : 0
        return try raw.withUnsafeBufferPointer { fds in
            valueOrErrno {
                system_eh_send_with_fds(
                    descriptor.rawValue, base, bytes.count, fds.baseAddress, CInt(fds.count), flag)
            }
        }.get()
    }

    /// Sends all of `bytes`, `descriptors` attached to the first byte, looping over partial sends
    /// and `EINTR`. Blocks until everything is queued (or waits with `poll` when the socket was
    /// made non-blocking).
    /// - Throws: ``Errno`` (`.brokenPipe` when the peer has gone).
    public func sendAll(_ bytes: UnsafeRawBufferPointer, descriptors: [FileDescriptor] = []) throws(Errno) {
        var offset = 0
        var pending = descriptors
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            do throws(Errno) {
                offset += try send(rest, descriptors: pending)
                pending = []
            } catch  where error == .wouldBlock {
                _ = try descriptor.poll(for: .writable, timeout: nil)
            }
        }
    }

    /// Sends all of `bytes` (see ``sendAll(_:descriptors:)-(UnsafeRawBufferPointer,_)``).
    /// - Throws: ``Errno``.
    public func sendAll(_ bytes: [UInt8], descriptors: [FileDescriptor] = []) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            do throws(Errno) {
                try sendAll(raw, descriptors: descriptors)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    // MARK: - Receiving

    /// What one ``receive(into:nonBlocking:)`` call got.
    public struct Received: Sendable, Hashable {
        /// Bytes stored at the start of the buffer; 0 means the peer closed its end.
        public var byteCount: Int
        /// Descriptors that arrived with these bytes, close-on-exec, now owned by the caller.
        public var descriptors: [FileDescriptor]
    }

    /// Receives up to `buffer.count` bytes and any descriptors that came with them
    /// (`MSG_CMSG_CLOEXEC`). `EINTR` is retried.
    ///
    /// - Important: If more descriptors arrive than one call can hold (``maximumDescriptorsPerMessage``)
    ///   the kernel drops the rest; this call then closes the ones it got and throws
    ///   ``Errno/messageTooLong``, and the stream must be abandoned.
    /// The corresponding C function is `recvmsg`.
    /// - Throws: ``Errno`` (`.wouldBlock` with `nonBlocking` and nothing to read, `.connectionReset`).
    public func receive(into buffer: UnsafeMutableRawBufferPointer, nonBlocking: Bool = false) throws(Errno)
        -> Received
    {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return Received(byteCount: 0, descriptors: []) }
        var fds = [CInt](repeating: -1, count: Self.maximumDescriptorsPerMessage)
        var count: CInt = 0
        let flag: CInt = nonBlocking ? 1 : 0
        let received = try fds.withUnsafeMutableBufferPointer { fdBuffer -> Result<Int, Errno> in
            guard let fdBase = fdBuffer.baseAddress else { return .failure(.invalidArgument) }
            return valueOrErrno {
                system_eh_recv_with_fds(descriptor.rawValue, base, buffer.count, fdBase, &count, flag)
            }
        }.get()
        return Received(byteCount: received, descriptors: fds.prefix(Int(count)).map(FileDescriptor.init(rawValue:)))
    }

    // MARK: - Lifecycle

    /// Shuts down the sending direction: the peer reads end of file, and can still send to us.
    ///
    /// The corresponding C function is `shutdown(SHUT_WR)`.
    /// - Throws: ``Errno``.
    public func shutdownWriting() throws(Errno) {
        try nothingOrErrno { system_shutdown(descriptor.rawValue, CInt(SHUT_WR)) }.get()
    }

    /// Closes the socket.
    /// - Throws: ``Errno``.
    public func close() throws(Errno) { try descriptor.close() }
}

extension Errno {
    /// `EMSGSIZE`.
    public static var messageTooLong: Errno { Errno(rawValue: EMSGSIZE) }
}

extension FileDescriptor {
    /// Shuts down the receiving direction of a socket: blocked and later reads return end of file.
    ///
    /// The corresponding C function is `shutdown(SHUT_RD)`.
    /// - Throws: ``Errno`` (`.notSocket`-style `ENOTSOCK` for other descriptors).
    public func shutdownReading() throws(Errno) {
        try nothingOrErrno { system_shutdown(rawValue, CInt(SHUT_RD)) }.get()
    }
}
