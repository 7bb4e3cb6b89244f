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

    /// The secret a client presents before its request (`<root>/Run/<bundle>.token`, mode 0600):
    /// exthost's own processes read it; an app or extension cannot, as its sandbox keeps it out of
    /// `<root>/Run`. A sandboxed program that finds another app's socket (its path is easily
    /// guessed) can connect to it — Landlock does not govern connecting to a named socket — but is
    /// refused without the token.
    public static func tokenPath(_ bundleIdentifier: String, on root: DeviceRoot) -> String {
        root.url.appendingPathComponent("Run").appendingPathComponent("\(bundleIdentifier).token").path
    }

    /// The token's length in bytes (64 hexadecimal digits: 256 random bits).
    static let tokenLength = 64

    /// Writes a new token for `bundleIdentifier` (readable by its owner only) and returns it.
    static func makeToken(_ bundleIdentifier: String, on root: DeviceRoot) throws(Errno) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        let token = (0..<tokenLength).map { _ in digits[Int(generator.next() % 16)] }
        let path = tokenPath(bundleIdentifier, on: root)
        let file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate, .noFollow], permissions: 0o600)
        defer { try? file.close() }
        try file.writeAll(token)
        return token
    }

    /// Connects to the running app's socket and presents the token; nil when it does not run or
    /// the token cannot be read (a sandboxed caller).
    static func connect(_ bundleIdentifier: String, on root: DeviceRoot) -> Socket? {
        guard let file = try? FileDescriptor.open(tokenPath(bundleIdentifier, on: root), .noFollow) else { return nil }
        let token = try? file.readAll(limit: tokenLength + 1)
        try? file.close()
        guard let token, token.count == tokenLength,
            let socket = try? Socket.connect(toPath: socketPath(bundleIdentifier, on: root))
        else { return nil }
        guard (try? socket.sendAll(token)) != nil else {
            try? socket.close()
            return nil
        }
        return socket
    }

    /// Whether the client on `socket` presents `token` within two seconds.
    static func authenticate(_ socket: Socket, token: [UInt8]) -> Bool {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(2)
        var buffer = [UInt8](repeating: 0, count: tokenLength)
        while received.count < tokenLength {
            let left = deadline - ContinuousClock.now
            guard left > .zero, let ready = try? socket.descriptor.poll(for: .readable, timeout: left), !ready.isEmpty
            else { return false }
            let wanted = tokenLength - received.count
            let got = buffer.withUnsafeMutableBytes { raw in
                try? socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]))
            }
            guard let got, got.byteCount > 0 else { return false }
            for descriptor in got.descriptors { try? descriptor.close() }
            received += buffer[0..<got.byteCount]
        }
        // Compared in full whatever differs first.
        return zip(received, token).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
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
        let wake = try WakeSignal()
        let token = try makeToken(app.bundleIdentifier, on: root)
        let listener: UnixSocketListener
        do throws(Errno) {
            listener = try UnixSocketListener(path: path)
        } catch {
            _ = try? FileManager.default.removeItem(atPath: tokenPath(app.bundleIdentifier, on: root))
            throw error
        }
        return AppListener(
            app: app, listener: listener, wake: wake, token: token,
            tokenPath: tokenPath(app.bundleIdentifier, on: root))
    }
}

/// A running app's bound socket (``AppLaunchServer/listen(_:on:)``): ``serve(onOpen:)`` answers its
/// clients until ``stop()`` or a client's `terminate`. A client is answered only when it first
/// presents the token written beside the socket (``AppLaunchServer/tokenPath(_:on:)``).
public final class AppListener: Sendable {
    /// The app it delivers to.
    public let app: RunningApp
    private let listener: UnixSocketListener
    private let wake: WakeSignal
    private let token: [UInt8]
    private let tokenPath: String
    private let closed = Locked(false)

    init(app: RunningApp, listener: UnixSocketListener, wake: WakeSignal, token: [UInt8], tokenPath: String) {
        self.app = app
        self.listener = listener
        self.wake = wake
        self.token = token
        self.tokenPath = tokenPath
    }

    deinit { close() }

    /// Removes the socket and its token, once.
    private func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first {
            listener.close()
            _ = try? FileManager.default.removeItem(atPath: tokenPath)
        }
    }

    /// Ends ``serve(onOpen:)`` (at once when it waits for a client; after the delivery in hand
    /// otherwise), from any thread or a signal handler's queue.
    public func stop() { wake.signal() }

    /// Answers clients until ``stop()`` or one asks the app to terminate; each connection sends one
    /// `open` (answered with `delivered`) or `terminate`. Then the socket is removed.
    public func serve(onOpen: @escaping @Sendable (AppDelivery) -> Void = { _ in }) async {
        defer { close() }
        let (listener, wake, token) = (self.listener, self.wake, self.token)
        while !wake.isSignaled {
            // nil: stopped (or the listener failed); serving ends either way.
            guard let connection = await withBlockingWait({ try? listener.accept(until: wake) }) ?? nil else {
                return
            }
            guard await withBlockingWait({ AppLaunchServer.authenticate(connection, token: token) }) else {
                // Not one of exthost's processes (it could not read the token): nothing is delivered.
                try? connection.close()
                continue
            }
            let channel = AppChannel(socket: connection)
            defer { channel.close() }
            guard let request = try? channel.receive() else { continue }
            let delivery: AppDelivery
            do {
                switch request.kind {
                case .open: delivery = try await app.open(request.urlContexts ?? [])
                case .continueActivity: delivery = try await app.continueActivities(request.userActivities ?? [])
                case .performIntent:
                    guard let invocation = request.appIntent else { continue }
                    delivery = try await app.performIntent(invocation)
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
        appIntent: AppIntentInvocation? = nil, in bundleIdentifier: String, on root: DeviceRoot
    ) async -> (pid: Int, delivery: AppDelivery)? {
        // The exchange blocks (connect, send, the app's reply): on a thread of its own, not one of
        // Swift concurrency's few cooperative threads; an app that never answers is not running.
        await withBlockingWait { () -> (pid: Int, delivery: AppDelivery)? in
            guard let socket = connect(bundleIdentifier, on: root) else { return nil }
            let channel = AppChannel(socket: socket)
            defer { channel.close() }
            let message =
                if let appIntent {
                    AppMessage(.performIntent, appIntent: appIntent)
                } else if userActivities.isEmpty {
                    AppMessage(.open, urlContexts: contexts)
                } else {
                    AppMessage(.continueActivity, userActivities: userActivities)
                }
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
        guard let socket = connect(bundleIdentifier, on: root) else { return nil }
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
            contexts, userActivities: userActivities, appIntent: options.appIntent, in: bundleIdentifier, on: root)
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
                urls: contexts.map(\.url) + userActivities.map(\.activityType)
                    + (options.appIntent.map { [$0.typeName] } ?? []))
        return AppOpenReport(
            bundleIdentifier: bundleIdentifier, start: "cold", pid: run.pid, delivery: delivery, run: run,
            sourceApplication: contexts.first?.sourceApplication)
    }
}
