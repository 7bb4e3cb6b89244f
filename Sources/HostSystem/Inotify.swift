#if canImport(Glibc)
import Glibc
#endif

/// An inotify instance: watches on files and directories, read with a timeout.
///
/// A plain value over its descriptor like ``FileDescriptor``; call ``close()`` when done.
public struct Inotify: Sendable {
    /// The events a watch reports.
    public struct Events: OptionSet, Sendable, Hashable {
        /// The raw `IN_*` mask.
        public var rawValue: UInt32
        /// Wraps a raw `IN_*` mask.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `IN_MODIFY`: the file was written.
        public static var modify: Events { Events(rawValue: UInt32(IN_MODIFY)) }
        /// `IN_ATTRIB`: metadata changed.
        public static var attributes: Events { Events(rawValue: UInt32(IN_ATTRIB)) }
        /// `IN_CLOSE_WRITE`: a descriptor open for writing was closed.
        public static var closeWrite: Events { Events(rawValue: UInt32(IN_CLOSE_WRITE)) }
        /// `IN_CREATE`: a name was created in the watched directory.
        public static var create: Events { Events(rawValue: UInt32(IN_CREATE)) }
        /// `IN_DELETE`: a name was removed from the watched directory.
        public static var delete: Events { Events(rawValue: UInt32(IN_DELETE)) }
        /// `IN_MOVED_FROM`: a name was renamed away.
        public static var movedFrom: Events { Events(rawValue: UInt32(IN_MOVED_FROM)) }
        /// `IN_MOVED_TO`: a name was renamed into the watched directory.
        public static var movedTo: Events { Events(rawValue: UInt32(IN_MOVED_TO)) }
    }

    /// One event read from the instance.
    public struct Event: Sendable, Hashable {
        /// The watch descriptor it belongs to.
        public var watch: CInt
        /// What happened.
        public var events: Events
        /// The name inside a watched directory, or "" for the watched file itself.
        public var name: String
    }

    /// The inotify descriptor.
    public let descriptor: FileDescriptor

    /// Creates an instance (close-on-exec).
    ///
    /// The corresponding C function is `inotify_init1(IN_CLOEXEC)`.
    /// - Throws: ``Errno``.
    public init() throws(Errno) {
        let fd = try valueOrErrno { system_inotify_init1(CInt(IN_CLOEXEC)) }.get()
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Watches `path` for `events`; returns the watch descriptor.
    ///
    /// The corresponding C function is `inotify_add_watch`.
    /// - Throws: ``Errno``.
    @discardableResult
    public func addWatch(_ path: String, for events: Events) throws(Errno) -> CInt {
        let result = path.withCString { cPath in
            valueOrErrno { system_inotify_add_watch(descriptor.rawValue, cPath, events.rawValue) }
        }
        return try result.get()
    }

    /// Waits up to `timeout` seconds (forever when nil) for events; returns [] on timeout.
    ///
    /// The corresponding C functions are `poll` and `read`.
    /// - Throws: ``Errno``.
    public func waitForEvents(timeout: Double?) throws(Errno) -> [Event] {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let milliseconds: CInt
        if let timeout {
            milliseconds = CInt(max(0, min(timeout * 1000, Double(Int32.max))).rounded(.up))
        } else {
            milliseconds = -1
        }
        let ready = try valueOrErrno { system_poll(&entry, 1, milliseconds) }.get()
        if ready == 0 { return [] }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let result: Result<Int, Errno> = buffer.withUnsafeMutableBytes { raw in
            do throws(Errno) { return .success(try descriptor.read(into: raw)) } catch { return .failure(error) }
        }
        let count = try result.get()
        return buffer.withUnsafeBytes { raw in Self.parse(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
    }

    /// Closes the instance and all its watches.
    /// - Throws: ``Errno``.
    public func close() throws(Errno) { try descriptor.close() }

    private static func parse(_ raw: UnsafeRawBufferPointer) -> [Event] {
        var events: [Event] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= raw.count {
            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let nameStart = offset + header
            let nameEnd = min(raw.count, nameStart + Int(event.len))
            let nameBytes = raw[nameStart..<nameEnd].prefix { $0 != 0 }
            events.append(
                Event(
                    watch: event.wd, events: Events(rawValue: event.mask),
                    name: String(decoding: nameBytes, as: UTF8.self)))
            offset = nameEnd
        }
        return events
    }
}
