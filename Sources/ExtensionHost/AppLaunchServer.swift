public import AppGroups
public import ExtensionIPC
import Foundation
public import HostSystem

/// What became of a URL sent to an app: delivered warm to the running app, or cold by launching it.
public struct AppOpenReport: Codable, Sendable {
    /// The app.
    public var bundleIdentifier: String
    /// `cold`: the app was not running and was launched for the URL; `warm`: it was running
    /// (`exthost app launch`).
    public var start: String
    /// The app's process id.
    public var pid: Int
    /// Which entry point received the URL, or `lost`.
    public var delivery: AppDelivery
    /// The cold run (its output, how it ended); nil for a warm delivery.
    public var run: AppRunReport?
    /// `options.sourceApplication` of the URLs the app received: the sender's bundle identifier
    /// when sender and receiver share a team ID, else nil ("If the team identifier of the
    /// originating app is different than the team identifier of the current app, the value of the
    /// key is nil"); nil for a user activity (an `NSUserActivity` carries no source application).
    /// Encoded as `null` when nil.
    public var sourceApplication: String?

    /// A report.
    public init(
        bundleIdentifier: String, start: String, pid: Int, delivery: AppDelivery, run: AppRunReport? = nil,
        sourceApplication: String? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.start = start
        self.pid = pid
        self.delivery = delivery
        self.run = run
        self.sourceApplication = sourceApplication
    }

    private enum CodingKeys: String, CodingKey { case bundleIdentifier, start, pid, delivery, run, sourceApplication }

    /// Encodes every key, `sourceApplication` as `null` when the app received none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(start, forKey: .start)
        try container.encode(pid, forKey: .pid)
        try container.encode(delivery, forKey: .delivery)
        try container.encodeIfPresent(run, forKey: .run)
        try container.encode(sourceApplication, forKey: .sourceApplication)
    }
}

/// The socket a running app listens on for URLs (`<root>/Run/<bundle>.sock`), and how other
/// exthost processes deliver through it — iOS's "the app is in memory".
public enum AppLaunchServer {
    /// The socket of `bundleIdentifier` on `root`.
    public static func socketPath(_ bundleIdentifier: String, on root: DeviceRoot) -> String {
        root.url.appendingPathComponent("Run").appendingPathComponent("\(bundleIdentifier).sock").path
    }

    /// Throws when `bundleIdentifier` cannot be kept running on `root`: it already runs (iOS keeps
    /// one instance), or the socket's path does not fit a Unix socket address (108 bytes).
    /// - Throws: ``ShareError`` (bad input for the path; a failure for a running app).
    public static func checkCanServe(_ bundleIdentifier: String, on root: DeviceRoot) throws(ShareError) {
        let path = socketPath(bundleIdentifier, on: root)
        guard path.utf8.count < 108 else {
            throw ShareError(
                .badInput,
                "\(path) is \(path.utf8.count) bytes, longer than a Unix socket address holds (107): "
                    + "use a device root with a shorter path")
        }
        if let socket = try? Socket.connect(toPath: path) {
            try? socket.close()
            throw ShareError(
                .failed,
                "\(bundleIdentifier) is already running on \(root.url.path) ('exthost app terminate \(bundleIdentifier)' ends it)"
            )
        }
    }

    /// Binds `app`'s socket: clients reach it (``openIfRunning(_:userActivities:in:on:)``) as soon
    /// as this returns, and are answered once ``AppListener/serve(onOpen:)`` runs.
    /// - Throws: ``Errno`` when the socket cannot be made (another process already runs the app:
    ///   `EADDRINUSE`).
    public static func listen(_ app: RunningApp, on root: DeviceRoot) throws(Errno) -> AppListener {
        let path = socketPath(app.bundleIdentifier, on: root)
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return AppListener(app: app, listener: try UnixSocketListener(path: path), wake: try WakeSignal())
    }
}

/// A running app's bound socket (``AppLaunchServer/listen(_:on:)``): ``serve(onOpen:)`` answers its
/// clients until ``stop()`` or a client's `terminate`.
public final class AppListener: Sendable {
    /// The app it delivers to.
    public let app: RunningApp
    private let listener: UnixSocketListener
    private let wake: WakeSignal
    private let closed = Locked(false)

    init(app: RunningApp, listener: UnixSocketListener, wake: WakeSignal) {
        self.app = app
        self.listener = listener
        self.wake = wake
    }

    deinit { close() }

    /// Removes the socket, once.
    private func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { listener.close() }
    }

    /// Ends ``serve(onOpen:)`` (at once when it waits for a client; after the delivery in hand
    /// otherwise), from any thread or a signal handler's queue.
    public func stop() { wake.signal() }

    /// Answers clients until ``stop()`` or one asks the app to terminate; each connection sends one
    /// `open` (answered with `delivered`) or `terminate`. Then the socket is removed.
    public func serve(onOpen: @escaping @Sendable (AppDelivery) -> Void = { _ in }) async {
        defer { close() }
        let (listener, wake) = (self.listener, self.wake)
        while !wake.isSignaled {
            // nil: stopped (or the listener failed); serving ends either way.
            guard let connection = await withBlockingWait({ try? listener.accept(until: wake) }) ?? nil else {
                return
            }
            let channel = AppChannel(socket: connection)
            defer { channel.close() }
            guard let request = try? channel.receive() else { continue }
            let delivery: AppDelivery
            do {
                switch request.kind {
                case .open: delivery = try await app.open(request.urlContexts ?? [])
                case .continueActivity: delivery = try await app.continueActivities(request.userActivities ?? [])
                case .terminate:
                    try? channel.send(AppMessage(.terminate, id: app.pid))
                    return
                default: continue
                }
            } catch {
                // The app ended: the client learns it from a terminate, and serving stops.
                try? channel.send(AppMessage(.terminate))
                return
            }
            onOpen(delivery)
            try? channel.send(AppMessage(.delivered, id: app.pid, delivery: delivery))
        }
    }
}

extension AppLaunchServer {
    /// Sends `contexts` to the running app, if one runs: nil when none does (no socket, or a stale one).
    public static func openIfRunning(
        _ contexts: [OpenURLContextDescription], userActivities: [UserActivityDescription] = [],
        in bundleIdentifier: String, on root: DeviceRoot
    ) async -> (pid: Int, delivery: AppDelivery)? {
        // The exchange blocks (connect, send, the app's reply): on a thread of its own, not one of
        // Swift concurrency's few cooperative threads; an app that never answers is not running.
        await withBlockingWait { () -> (pid: Int, delivery: AppDelivery)? in
            guard let socket = try? Socket.connect(toPath: socketPath(bundleIdentifier, on: root)) else { return nil }
            let channel = AppChannel(socket: socket)
            defer { channel.close() }
            let message =
                userActivities.isEmpty
                ? AppMessage(.open, urlContexts: contexts)
                : AppMessage(.continueActivity, userActivities: userActivities)
            guard (try? channel.send(message)) != nil,
                (try? socket.descriptor.poll(for: .readable, timeout: replyTimeout))?.isEmpty == false,
                let reply = try? channel.receive(), reply.kind == .delivered, let delivery = reply.delivery
            else { return nil }
            return (reply.id ?? 0, delivery)
        }
    }

    /// How long a running app has to answer a delivery before it counts as not running.
    static let replyTimeout: Duration = .seconds(30)

    /// Asks the running app to terminate; returns its pid, or nil when it was not running.
    public static func terminate(_ bundleIdentifier: String, on root: DeviceRoot) -> Int? {
        guard let socket = try? Socket.connect(toPath: socketPath(bundleIdentifier, on: root)) else { return nil }
        let channel = AppChannel(socket: socket)
        defer { channel.close() }
        guard (try? channel.send(AppMessage(.terminate))) != nil, let reply = try? channel.receive() else { return nil }
        return reply.id
    }

    /// Delivers `contexts` to `bundleIdentifier`: warm when it runs, else by launching it (cold).
    /// - Throws: ``ShareError`` when it is not installed, holds no program and no built-in app is
    ///   given, or cannot run.
    public static func deliver(
        _ contexts: [OpenURLContextDescription], userActivities: [UserActivityDescription] = [],
        to bundleIdentifier: String, on root: DeviceRoot, launcher: String,
        options: AppLaunchOptions = AppLaunchOptions()
    ) async throws(ShareError) -> AppOpenReport {
        if let (pid, delivery) = await openIfRunning(
            contexts, userActivities: userActivities, in: bundleIdentifier, on: root)
        {
            return AppOpenReport(
                bundleIdentifier: bundleIdentifier, start: "warm", pid: pid, delivery: delivery,
                sourceApplication: contexts.first?.sourceApplication)
        }
        var cold = options
        cold.urlContexts = contexts
        cold.userActivities = userActivities
        cold.keepRunning = false
        let run = try await ExtensionHost.runApp(bundleIdentifier, on: root, launcher: launcher, options: cold)
        let delivery =
            run.launchDelivery
            ?? AppDelivery(
                method: .lost, handled: false,
                detail: run.ranLifeCycle
                    ? "the app answered its launch without a delivery"
                    : run.launchFailure.map {
                        "the app's program \(run.executable) never started: \($0) (\(run.exitStatus))"
                    }
                        ?? "the app's program does not run the app life cycle (UIApplicationMain or an @main "
                        + "UIApplicationDelegate), so no code of it received the URL (it \(run.exitStatus))",
                urls: contexts.map(\.url) + userActivities.map(\.activityType))
        return AppOpenReport(
            bundleIdentifier: bundleIdentifier, start: "cold", pid: run.pid, delivery: delivery, run: run,
            sourceApplication: contexts.first?.sourceApplication)
    }
}
