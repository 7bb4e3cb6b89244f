import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A listening `AF_UNIX` stream socket bound to a path: how one exthost process reaches another
/// that keeps an app running (`<root>/Run/<bundle>.sock`).
public final class UnixSocketListener: Sendable {
    /// The listening descriptor (close-on-exec).
    public let descriptor: FileDescriptor
    /// The path it is bound to.
    public let path: String

    /// Binds and listens on `path`. A stale socket file there (nobody accepts on it) is replaced;
    /// a live one is `EADDRINUSE`.
    /// - Throws: ``Errno`` (`ENAMETOOLONG` for a path longer than `sun_path` holds).
    public init(path: String) throws(Errno) {
        if (try? Socket.connect(toPath: path)).map({ try? $0.close() }) != nil { throw Errno(rawValue: EADDRINUSE) }
        unlink(path)
        let raw = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw Errno.current }
        let descriptor = FileDescriptor(rawValue: raw)
        do throws(Errno) {
            try Self.withAddress(path) { address, length throws(Errno) in
                guard bind(raw, address, length) == 0 else { throw Errno.current }
            }
            guard listen(raw, 16) == 0 else { throw Errno.current }
        } catch {
            try? descriptor.close()
            throw error
        }
        self.descriptor = descriptor
        self.path = path
    }

    /// The next connection, or nil once `wake` is signaled: the wait sleeps in one `poll` on the
    /// listener and the wake descriptor, so stopping needs no timeout to be noticed.
    ///
    /// Blocks the calling thread (from async code, inside ``withBlockingWait(_:)``).
    /// - Throws: ``Errno``.
    public func accept(until wake: WakeSignal) throws(Errno) -> Socket? {
        while !wake.isSignaled {
            let ready = try FileDescriptor.poll(
                [(descriptor, .readable), (wake.descriptor, .readable)], timeout: nil)
            if !ready[1].isEmpty { return nil }
            guard ready[0].contains(.readable) else { continue }
            // accept4 is not in Glibc's module map: accept, then close-on-exec (no exec races here:
            // exthost spawns through posix_spawn with an explicit descriptor list).
            let raw = Glibc.accept(descriptor.rawValue, nil, nil)
            guard raw >= 0 else {
                let error = Errno.current
                if error == .interrupted || error == Errno(rawValue: EAGAIN) { continue }
                throw error
            }
            _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
            return Socket(descriptor: FileDescriptor(rawValue: raw))
        }
        return nil
    }

    /// Stops listening and removes the socket file.
    public func close() {
        unlink(path)
        try? descriptor.close()
    }

    static func withAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> R
    ) throws(Errno) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, !bytes.isEmpty else { throw Errno(rawValue: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let result: Result<R, Errno> = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                do throws(Errno) { return .success(try body(address, length)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }
}

extension Socket {
    /// A connection to the listener bound at `path`.
    ///
    /// The corresponding C function is `connect`.
    /// - Throws: ``Errno`` (`ENOENT`: nobody listens there; `ECONNREFUSED`: a stale socket file).
    public static func connect(toPath path: String) throws(Errno) -> Socket {
        let raw = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw Errno.current }
        let descriptor = FileDescriptor(rawValue: raw)
        do throws(Errno) {
            try UnixSocketListener.withAddress(path) { address, length throws(Errno) in
                while Glibc.connect(raw, address, length) != 0 {
                    let error = Errno.current
                    if error != .interrupted { throw error }
                }
            }
        } catch {
            try? descriptor.close()
            throw error
        }
        return Socket(descriptor: descriptor)
    }
}
