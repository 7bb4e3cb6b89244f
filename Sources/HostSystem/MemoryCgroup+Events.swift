import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension MemoryCgroup {
    /// What the cgroup's memory events say: `memory.events` (v2) or `memory.oom_control` (v1).
    public struct Events: Sendable, Hashable {
        /// `oom` (v2), `under_oom` (v1): the limit could not be kept by reclaim.
        public var oom: Int
        /// `oom_kill`: processes the OOM killer ended.
        public var oomKill: Int

        /// Parses the `key value` lines of `memory.events` or `memory.oom_control` (other keys are
        /// ignored).
        public init(parsing text: String) {
            var values: [Substring: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2, let value = Int(parts[1]) { values[parts[0]] = value }
            }
            oom = values["oom"] ?? values["under_oom"] ?? 0
            oomKill = values["oom_kill"] ?? 0
        }
    }

    /// The file the events are in.
    var eventsFile: String { directory + (version == 2 ? "/memory.events" : "/memory.oom_control") }

    /// The cgroup's memory events now (nil when they cannot be read).
    public var events: Events? { Self.readSmallFile(eventsFile).map(Events.init(parsing:)) }

    /// Waits until the kernel's OOM killer acts in the cgroup and returns the events at that
    /// moment; nil when the task is cancelled first or the events cannot be watched (then read
    /// ``events`` after the program ends).
    ///
    /// No sampling interval: a thread of its own sleeps in `poll`. Under cgroup v2 on an inotify
    /// watch of `memory.events` (the kernel signals each change as a modification) until
    /// `oom_kill` is above 0; under v1 on an eventfd registered for `memory.oom_control` through
    /// `cgroup.event_control` (signalled when the cgroup is out of memory, just before the kill).
    /// A cancelled task wakes the thread through a pipe.
    public func oomKill() async -> Events? {
        let path = eventsFile
        let source: OOMSource
        let stop: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do throws(Errno) {
            source = try version == 2 ? .inotify(path) : .eventfd(path, control: directory + "/cgroup.event_control")
            do throws(Errno) {
                stop = try FileDescriptor.pipe()
            } catch {
                source.close()
                throw error
            }
        } catch {
            return nil
        }
        // The write end, kept under a lock: a cancellation writes to it, the end of the wait closes it.
        let wake = Locked<FileDescriptor?>(stop.writeEnd)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Events?, Never>) in
                Thread.detachNewThread {
                    let events = Self.wait(path, source: source, stop: stop.readEnd)
                    source.close()
                    continuation.resume(returning: events)
                }
            }
        } onCancel: {
            wake.withLock { writeEnd in
                var byte: UInt8 = 1
                if let writeEnd { _ = withUnsafeBytes(of: &byte) { try? writeEnd.write($0) } }
            }
        }
        // The read end outlives every write (a write to a pipe without a reader is SIGPIPE): the
        // write end goes first, under the lock a late cancellation writes under.
        wake.withLock { writeEnd in
            try? writeEnd?.close()
            writeEnd = nil
        }
        try? stop.readEnd.close()
        return result
    }

    /// What the waiting thread sleeps on.
    private enum OOMSource: Sendable {
        case watch(Inotify)
        case counter(FileDescriptor, eventsFile: FileDescriptor)

        static func inotify(_ path: String) throws(Errno) -> OOMSource {
            let inotify = try Inotify()
            do throws(Errno) {
                try inotify.addWatch(path, for: .modify)
            } catch {
                try? inotify.close()
                throw error
            }
            return .watch(inotify)
        }

        /// Registers an eventfd for the OOM notification of `path` (memory.oom_control) by writing
        /// "<eventfd> <oom_control fd>" to `control` (cgroup.event_control).
        static func eventfd(_ path: String, control: String) throws(Errno) -> OOMSource {
            let counter = FileDescriptor(rawValue: try valueOrErrno { system_eventfd_cloexec() }.get())
            var opened: [FileDescriptor] = [counter]
            do throws(Errno) {
                let events = try FileDescriptor.open(path, .readOnly)
                opened.append(events)
                let registration = try FileDescriptor.open(control, .writeOnly)
                defer { try? registration.close() }
                let line = Array("\(counter.rawValue) \(events.rawValue)".utf8)
                let written = line.withUnsafeBytes { raw in Result { () throws(Errno) in try registration.write(raw) } }
                _ = try written.get()
                return .counter(counter, eventsFile: events)
            } catch {
                for descriptor in opened { try? descriptor.close() }
                throw error
            }
        }

        var descriptor: FileDescriptor {
            switch self {
            case .watch(let inotify): inotify.descriptor
            case .counter(let counter, _): counter
            }
        }

        func close() {
            switch self {
            case .watch(let inotify): try? inotify.close()
            case .counter(let counter, let events):
                try? counter.close()
                try? events.close()
            }
        }
    }

    /// The waiting thread's loop: the events once the kernel acted, nil when `stop` becomes
    /// readable or the events cannot be read any more (the cgroup is gone).
    private static func wait(_ path: String, source: OOMSource, stop: FileDescriptor) -> Events? {
        while true {
            // Read after arming the watch, so a kill before it is not missed.
            guard let text = readSmallFile(path) else { return nil }
            let events = Events(parsing: text)
            if events.oomKill > 0 { return events }
            guard
                let ready = try? FileDescriptor.poll(
                    [(source.descriptor, .readable), (stop, .readable)], timeout: nil),
                ready[1].isEmpty
            else { return nil }
            guard !ready[0].isEmpty else { continue }
            switch source {
            case .watch(let inotify):
                _ = try? inotify.waitForEvents(timeout: 0)
            case .counter(let counter, _):
                // Out of memory: the kill follows (oom_kill_disable is 0); it may not be counted yet.
                var value: UInt64 = 0
                _ = withUnsafeMutableBytes(of: &value) { try? counter.read(into: $0) }
                var now = readSmallFile(path).map(Events.init(parsing:)) ?? events
                now.oom = max(now.oom, 1)
                return now
            }
        }
    }

    /// `memory.events` and its like: a few hundred bytes, read whole.
    static func readSmallFile(_ path: String) -> String? {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { try? descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { raw in try? descriptor.read(into: raw) }
        guard let count else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}
