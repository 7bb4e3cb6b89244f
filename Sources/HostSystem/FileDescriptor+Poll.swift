import Foundation

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
        try Self.poll([(descriptor: self, events: events)], timeout: timeout)[0]
    }

    /// Waits until any of `entries` is ready or `timeout` passes (nil: forever); returns the ready
    /// events of each entry, in order (all empty on timeout).
    ///
    /// Blocks the calling thread: from async code, call it inside ``withBlockingWait(_:)``, and put
    /// a ``WakeSignal`` among the entries when something else must be able to end the wait.
    /// The corresponding C function is `poll`.
    /// - Throws: ``Errno``.
    public static func poll(
        _ entries: [(descriptor: FileDescriptor, events: PollEvents)], timeout: Duration?
    ) throws(Errno) -> [PollEvents] {
        var table = entries.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0) }
        let milliseconds: CInt
        if let timeout {
            milliseconds = CInt(min(max(0, timeout.milliseconds.rounded(.up)), Double(CInt.max)))
        } else {
            milliseconds = -1
        }
        let count = nfds_t(table.count)
        let ready = try table.withUnsafeMutableBufferPointer { buffer throws(Errno) -> CInt in
            guard let base = buffer.baseAddress else { return 0 }  // nothing to wait for
            return try valueOrErrno { system_poll(base, count, milliseconds) }.get()
        }
        return ready == 0 ? entries.map { _ in [] } : table.map { PollEvents(rawValue: $0.revents) }
    }
}

/// Runs `body`, a blocking wait (a `poll`, an `accept`), on a thread of its own and returns its
/// result, so the wait sleeps in the kernel without holding one of Swift concurrency's few
/// cooperative threads.
public func withBlockingWait<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// A descriptor one thread makes readable to end another's blocking ``FileDescriptor/poll(_:timeout:)``
/// (the read end of a pipe: ``signal()`` writes a byte, and it stays readable from then on).
public final class WakeSignal: Sendable {
    /// Polls readable once ``signal()`` has been called.
    public let descriptor: FileDescriptor
    private let writeEnd: FileDescriptor
    private let signaled = Locked(false)

    /// A new, unsignaled wake descriptor.
    /// - Throws: ``Errno`` (`.tooManyOpenFiles`).
    public init() throws(Errno) {
        (descriptor, writeEnd) = try FileDescriptor.pipe()
    }

    deinit {
        try? descriptor.close()
        try? writeEnd.close()
    }

    /// Wakes every wait that includes ``descriptor``, now and later. Later calls do nothing.
    public func signal() {
        let first = signaled.withLock { signaled in
            defer { signaled = true }
            return !signaled
        }
        if first { try? writeEnd.writeAll([1]) }
    }

    /// Whether ``signal()`` has been called.
    public var isSignaled: Bool { signaled.withLock { $0 } }
}
