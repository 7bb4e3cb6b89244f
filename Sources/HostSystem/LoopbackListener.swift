#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 (loopback only), on a port the kernel picks: how one
/// exthost process reaches another over a real TCP connection (AirDrop between two devices).
///
/// Bind it before starting the process that accepts, and hand that process the descriptor: the
/// port is known at once and a client may connect before the other process runs (the connection
/// waits in the backlog), so nothing has to be announced or waited for.
public struct LoopbackListener: Sendable {
    /// The listening descriptor (close-on-exec).
    public let descriptor: FileDescriptor
    /// The port it listens on.
    public let port: UInt16

    /// Binds 127.0.0.1 on a free port and listens.
    ///
    /// The corresponding C functions are `socket`, `bind`, `listen` and `getsockname`.
    /// - Throws: ``Errno``.
    public static func bind() throws(Errno) -> LoopbackListener {
        let raw = socket(AF_INET, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw Errno.current }
        let descriptor = FileDescriptor(rawValue: raw)
        do throws(Errno) {
            var address = Self.address(port: 0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(raw, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(raw, 4) == 0 else { throw Errno.current }
            return try LoopbackListener(adopting: descriptor)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// Adopts a listening loopback socket this process was handed (a descriptor it inherited).
    ///
    /// The corresponding C function is `getsockname`.
    /// - Throws: ``Errno`` (`ENOTSOCK`, or `EINVAL` when it is not an IPv4 socket).
    public init(adopting descriptor: FileDescriptor) throws(Errno) {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor.rawValue, $0, &length) }
        }
        guard result == 0 else { throw Errno.current }
        guard address.sin_family == sa_family_t(AF_INET) else { throw Errno.invalidArgument }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// The next connection, or nil when none arrives within `timeout` (nil: wait for ever).
    ///
    /// Blocks the calling thread (from async code, inside ``withBlockingWait(_:)``).
    /// The corresponding C functions are `poll` and `accept`.
    /// - Throws: ``Errno``.
    public func accept(timeout: Duration?) throws(Errno) -> Socket? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            guard try descriptor.poll(for: .readable, timeout: remaining).contains(.readable) else { return nil }
            let raw = Glibc.accept(descriptor.rawValue, nil, nil)
            if raw >= 0 {
                _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
                return Socket(descriptor: FileDescriptor(rawValue: raw))
            }
            let error = Errno.current
            if error != .interrupted && error != Errno(rawValue: EAGAIN) { throw error }
        }
    }

    /// Stops listening.
    public func close() { try? descriptor.close() }

    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        address.sin_port = port.bigEndian
        return address
    }
}

extension Socket {
    /// A TCP connection to 127.0.0.1:`port`. The stream carries no descriptors; ``send(_:descriptors:nonBlocking:)``
    /// without any, ``receive(into:nonBlocking:)`` and ``shutdownWriting()`` work on it as on a
    /// Unix socket.
    ///
    /// The corresponding C functions are `socket` and `connect`.
    /// - Throws: ``Errno`` (`ECONNREFUSED`: nobody listens there).
    public static func connect(loopbackPort port: UInt16) throws(Errno) -> Socket {
        let raw = socket(AF_INET, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw Errno.current }
        let descriptor = FileDescriptor(rawValue: raw)
        var address = LoopbackListener.address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                while Glibc.connect(raw, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) != 0 {
                    if Errno.current != .interrupted { return false }
                }
                return true
            }
        }
        guard connected else {
            let error = Errno.current
            try? descriptor.close()
            throw error
        }
        return Socket(descriptor: descriptor)
    }
}
