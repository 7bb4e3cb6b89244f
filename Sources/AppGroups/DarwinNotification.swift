public import Foundation
import HostSystem

/// A Darwin-notification-style signal: a name, no payload, posted by one process and awaited by
/// others on the same emulated device (`notify_post` / `CFNotificationCenterGetDarwinNotifyCenter`).
///
/// Each name is a counter file under `<root>/.notifications/`; posting increments it under an
/// `flock`, and waiting watches the file with inotify. As with `notify(3)`, several posts may be
/// seen as one (they coalesce); a post made after ``observe()`` is never missed.
public struct DarwinNotification: Sendable, Hashable {
    /// The device root whose processes share the name.
    public let root: DeviceRoot
    /// The notification name, e.g. `group.com.example.carddrop.exthost.committed`.
    public let name: String

    /// A notification `name` on `root`'s device.
    public init(root: DeviceRoot, name: String) {
        self.root = root
        self.name = name
    }

    /// The counter file for this name (names are percent-encoded into one file name).
    public var fileURL: URL {
        let safe = name.unicodeScalars.map { scalar -> String in
            let allowed =
                (scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)))
            return allowed ? String(scalar) : String(format: "%%%02X", scalar.value)
        }.joined()
        return root.url.appendingPathComponent(".notifications").appendingPathComponent(String(safe.prefix(200)))
    }

    /// Posts the notification once.
    /// - Throws: ``AppGroupError`` `.io`.
    public func post() throws {
        let fd = try openCounter()
        defer { try? fd.close() }
        do throws(Errno) {
            try fd.lock(.exclusive)
            let value = try Self.read(fd) &+ 1
            try fd.seek(offset: 0)
            try fd.writeAll(Journal.le64(value))
        } catch {
            throw AppGroupError.write(error, path: fileURL.path)
        }
    }

    /// How many times the name has been posted on this device.
    /// - Throws: ``AppGroupError`` `.io`.
    public func count() throws -> UInt64 {
        let fd = try openCounter()
        defer { try? fd.close() }
        do throws(Errno) { return try Self.read(fd) } catch { throw AppGroupError.read(error, path: fileURL.path) }
    }

    /// Starts observing: posts from now on wake ``NotificationObserver/wait(timeout:)``.
    /// - Throws: ``AppGroupError`` `.io`.
    public func observe() throws -> NotificationObserver {
        try openCounter().close()
        let inotify: Inotify
        do {
            inotify = try Inotify()
        } catch {
            throw AppGroupError.watch(error, path: fileURL.path)
        }
        do {
            try inotify.addWatch(fileURL.path, for: [.modify, .closeWrite])
        } catch {
            try? inotify.close()
            throw AppGroupError.watch(error, path: fileURL.path)
        }
        return NotificationObserver(notification: self, inotify: inotify, baseline: try count())
    }

    private func openCounter() throws -> FileDescriptor {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw AppGroupError(.io, "cannot create \(directory.path)", cause: UnderlyingFailure(error))
        }
        do {
            return try FileDescriptor.open(fileURL.path, [.readWrite, .create, .noFollow], permissions: 0o644)
        } catch {
            throw AppGroupError.open(error, path: fileURL.path)
        }
    }

    private static func read(_ fd: FileDescriptor) throws(Errno) -> UInt64 {
        var bytes = [UInt8](repeating: 0, count: 8)
        let result: Result<Int, Errno> = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) -> Int in try fd.read(fromAbsoluteOffset: 0, into: raw) }
        }
        let count = try result.get()
        guard count == 8 else { return 0 }
        return Journal.readLE64(bytes, 0)
    }
}

/// An observation of a ``DarwinNotification``; close it when done. Not Sendable: one waiter.
public final class NotificationObserver {
    /// The notification observed.
    public let notification: DarwinNotification
    private let inotify: Inotify
    private var baseline: UInt64
    private var closed = false

    init(notification: DarwinNotification, inotify: Inotify, baseline: UInt64) {
        self.notification = notification
        self.inotify = inotify
        self.baseline = baseline
    }

    deinit { close() }

    /// Waits until the name is posted (since observing began or since the last successful wait),
    /// at most `timeout` seconds (forever when nil).
    /// - Returns: true when posted, false on timeout.
    /// - Throws: ``AppGroupError`` `.io`.
    public func wait(timeout: Double?) throws -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            let current = try notification.count()
            if current != baseline {
                baseline = current
                return true
            }
            let remaining = deadline.map { $0.timeIntervalSinceNow }
            if let remaining, remaining <= 0 { return false }
            do {
                _ = try inotify.waitForEvents(timeout: remaining)
            } catch {
                throw AppGroupError.watch(error, path: notification.fileURL.path)
            }
        }
    }

    /// Stops observing. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        try? inotify.close()
    }
}
