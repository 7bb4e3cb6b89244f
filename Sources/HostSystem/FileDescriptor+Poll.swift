#if canImport(Glibc)
import Glibc
#endif

/// Readiness conditions for ``FileDescriptor/poll(for:timeout:)`` (`POLLIN`, `POLLOUT`, ...).
public struct PollEvents: OptionSet, Hashable, Sendable {
    /// The raw `POLL*` bits.
    public var rawValue: Int16
    /// Wraps raw `POLL*` bits.
    public init(rawValue: Int16) { self.rawValue = rawValue }
    /// `POLLIN`: data (or end of file) can be read.
    public static var readable: PollEvents { PollEvents(rawValue: Int16(POLLIN)) }
    /// `POLLOUT`: some data can be written without blocking.
    public static var writable: PollEvents { PollEvents(rawValue: Int16(POLLOUT)) }
    /// `POLLHUP`: the peer hung up (reported whether asked for or not).
    public static var hangUp: PollEvents { PollEvents(rawValue: Int16(POLLHUP)) }
    /// `POLLERR`: an error is pending (reported whether asked for or not).
    public static var error: PollEvents { PollEvents(rawValue: Int16(POLLERR)) }
}

extension FileDescriptor {
    /// Waits until the descriptor is ready for `events` or `timeout` passes (nil: forever);
    /// returns the events that are ready, empty on timeout. `EINTR` is retried with the full
    /// timeout (the wait can only grow by the interrupted part).
    ///
    /// Blocks the calling thread. The corresponding C function is `poll`.
    /// - Throws: ``Errno``.
    public func poll(for events: PollEvents, timeout: Duration?) throws(Errno) -> PollEvents {
        var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        let milliseconds: CInt
        if let timeout {
            milliseconds = CInt(min(max(0, timeout.milliseconds.rounded(.up)), Double(CInt.max)))
        } else {
            milliseconds = -1
        }
        let ready = try valueOrErrno { system_poll(&entry, 1, milliseconds) }.get()
        return ready == 0 ? [] : PollEvents(rawValue: entry.revents)
    }

    /// Waits until one of several descriptors is ready for its events or `timeout` passes (nil:
    /// forever); returns what is ready for each, in order (all empty on timeout).
    ///
    /// Blocks the calling thread. The corresponding C function is `poll`.
    /// - Throws: ``Errno``.
    public static func poll(_ entries: [(FileDescriptor, PollEvents)], timeout: Duration?) throws(Errno)
        -> [PollEvents]
    {
        var fds = entries.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
        let milliseconds: CInt
        if let timeout {
            milliseconds = CInt(min(max(0, timeout.milliseconds.rounded(.up)), Double(CInt.max)))
        } else {
            milliseconds = -1
        }
        let count = nfds_t(fds.count)
        let ready = try fds.withUnsafeMutableBufferPointer { buffer throws(Errno) -> CInt in
            guard let base = buffer.baseAddress else { return 0 }
            return try valueOrErrno { system_poll(base, count, milliseconds) }.get()
        }
        return ready == 0 ? entries.map { _ in [] } : fds.map { PollEvents(rawValue: $0.revents) }
    }
}
