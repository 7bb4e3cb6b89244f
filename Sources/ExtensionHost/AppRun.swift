public import AppGroups
public import ExtensionIPC
import Foundation
public import HostSystem

/// How an installed app's program ran (`exthost app run`, `exthost app launch`, and the cold
/// start of `exthost open`).
public struct AppRunReport: Codable, Sendable {
    /// The app.
    public var bundleIdentifier: String
    /// The program that ran.
    public var executable: String
    /// Its process id.
    public var pid: Int
    /// How it ended (`exited 0`, `killed by SIGKILL`).
    public var exitStatus: String
    /// Whether it exited 0.
    public var succeeded: Bool
    /// Its standard output and error, interleaved (empty when they went to the terminal).
    public var output: String
    /// Whether Landlock confined it.
    public var sandboxEnforced: Bool
    /// Whether the program ran the app life cycle (`UIApplicationMain` or an `@main`
    /// `UIApplicationDelegate`) and answered the launch; a plain program does not.
    public var ranLifeCycle: Bool
    /// What became of the URLs it was launched with (nil: none, or no life cycle).
    public var launchDelivery: AppDelivery?
    /// What became of each URL sent while it ran, in order.
    public var deliveries: [AppDelivery]
    /// How its in-place URLs' scopes were enforced: `kernel` (the seccomp broker), `api-only`
    /// (no seccomp user notification here: the originals are open to the app's Landlock), or
    /// `not-needed`.
    public var scopeEnforcement: String
    /// Scope requests the host refused.
    public var refusals: [String]
    /// Why the program never started (`could not be executed: …`, the sandbox launcher's refusal),
    /// or nil when it ran.
    public var launchFailure: String?
}

/// What an app is launched with.
public struct AppLaunchOptions: Sendable {
    /// Passed to the program.
    public var arguments: [String] = []
    /// The URLs of a cold start (a file URL with `openInPlace` is the original: the host gives it
    /// a security scope).
    public var urlContexts: [OpenURLContextDescription] = []
    /// The user activities of a cold start (a Shortcuts intent): `connectionOptions.userActivities`,
    /// or `application(_:continue:restorationHandler:)` without scenes.
    public var userActivities: [UserActivityDescription] = []
    /// An App Intent to perform after the launch (foreground, or a background launch without scenes).
    public var appIntent: AppIntentInvocation?
    /// Keep the app running after its launch until the body passed to
    /// ``ExtensionHost/runApp(_:on:launcher:options:whileRunning:)`` returns.
    public var keepRunning = false
    /// A program that has not ended this long after its launch (or, kept running, after it was
    /// told to terminate) is killed.
    public var timeout: Duration = .seconds(60)
    /// Whether the kernel may enforce security scopes (false: API only, as without seccomp).
    public var kernelScopes = true
    /// Where its standard output and error go (nil: captured into the report).
    public var output: FileDescriptor?
    /// The program that runs an app bundle without a program of its own (`exthost-builtin-app
    /// __app`: the built-in app, which keeps and lists what it receives); nil: such an app cannot run.
    public var builtInApp: ProgramInvocation?

    /// Options.
    public init() {}

    /// Options whose built-in app is that of `programs`.
    public init(programs: InstalledPrograms) { builtInApp = programs.builtInApp }
}

/// An app while it runs: send it URLs, as iOS does when the app is in memory.
public final class RunningApp: Sendable {
    /// The app.
    public let bundleIdentifier: String
    /// Its process id.
    public let pid: Int

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<AppDelivery?, Never>] = [:]
        var closed = false
        var deliveries: [AppDelivery] = []
    }
    private let state = Locked(State())
    private let channel: AppChannel
    private let scopes: AppScopes

    init(bundleIdentifier: String, pid: Int, channel: AppChannel, scopes: AppScopes) {
        self.bundleIdentifier = bundleIdentifier
        self.pid = pid
        self.channel = channel
        self.scopes = scopes
    }

    /// Opens `contexts` in the running app (`scene(_:openURLContexts:)` or
    /// `application(_:open:options:)`).
    /// - Throws: ``ShareError`` when the app has ended.
    public func open(_ contexts: [OpenURLContextDescription]) async throws(ShareError) -> AppDelivery {
        try await request(AppMessage(.open, urlContexts: scopes.issue(contexts)))
    }

    /// Continues `activities` in the running app (`scene(_:continue:)` or
    /// `application(_:continue:restorationHandler:)`).
    /// - Throws: ``ShareError`` when the app has ended.
    public func continueActivities(_ activities: [UserActivityDescription]) async throws(ShareError) -> AppDelivery {
        try await request(AppMessage(.continueActivity, userActivities: activities))
    }

    /// Performs an App Intent in the running app (its `perform()`).
    /// - Throws: ``ShareError`` when the app has ended.
    public func performIntent(_ invocation: AppIntentInvocation) async throws(ShareError) -> AppDelivery {
        try await request(AppMessage(.performIntent, appIntent: invocation))
    }

    private func request(_ message: AppMessage) async throws(ShareError) -> AppDelivery {
        let delivery: AppDelivery? = await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if state.closed { return nil }
                let id = state.nextID
                state.nextID += 1
                state.waiting[id] = continuation
                return id
            }
            guard let id else { return continuation.resume(returning: nil) }
            var message = message
            message.id = id
            if (try? channel.send(message)) == nil {
                let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
                waiting?.resume(returning: nil)
            }
        }
        guard let delivery else {
            throw ShareError(.failed, "\(bundleIdentifier) (pid \(pid)) ended before it answered")
        }
        state.withLock { $0.deliveries.append(delivery) }
        return delivery
    }

    /// Tells the app to terminate (`applicationWillTerminate(_:)`, then it exits).
    public func terminate() { try? channel.send(AppMessage(.terminate)) }

    var deliveries: [AppDelivery] { state.withLock { $0.deliveries } }

    /// The reply to request `id` arrived.
    func answer(_ id: Int, _ delivery: AppDelivery?) {
        let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
        waiting?.resume(returning: delivery)
    }

    /// The channel ended: every waiting request ends without a delivery.
    func closeAll() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }
}

/// The security scopes of the URLs an app was given in place: tokens the host issues, the app
/// starts and stops over its channel, and the kernel broker checks at every open.
final class AppScopes: Sendable {
    let tokens = SecurityScopeTokens()
    private let broker = Locked<ScopeBroker?>(nil)
    private let counter = Locked(0)

    func attach(_ broker: ScopeBroker?) { self.broker.withLock { $0 = broker } }
    var hasBroker: Bool { broker.withLock { $0 != nil } }
    var refusals: [String] { broker.withLock { $0?.refusals ?? [] } }

    /// `contexts` with a fresh token for each in-place file URL (registered with the broker).
    func issue(_ contexts: [OpenURLContextDescription]) -> [OpenURLContextDescription] {
        contexts.map { context in
            guard context.openInPlace, let url = URL(string: context.url), url.isFileURL else { return context }
            let index = counter.withLock { value in
                value += 1
                return value
            }
            var scoped = context
            let token = tokens.issue(for: index)
            scoped.scopeToken = token
            broker.withLock { try? $0?.register(path: url.path, token: token) }
            return scoped
        }
    }
}

extension ExtensionHost {
    /// Why the launcher never started the program, from its report: refused, not executable, not
    /// loadable; nil when it ran.
    static func launchFailure(_ sandbox: SandboxReport?) -> String? {
        guard let sandbox else { return nil }
        if sandbox.status == .refused {
            return "the sandbox launcher refused to run it (\(sandbox.reason ?? "unknown"))"
        }
        if let error = sandbox.execError { return "could not be executed: \(error)" }
        if let error = sandbox.loadError { return "could not be loaded as a library: \(error)" }
        return nil
    }

    /// Runs the program of the app `bundleIdentifier` installed on `root`, as the device runs an
    /// app: in its own data container (`HOME`, `TMPDIR`), entitled to its App Groups (so
    /// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` and
    /// `UserDefaults(suiteName:)` answer as on a device), confined by the same launcher as an
    /// extension: read-only its bundle and the runtime, read-write its containers, nothing else.
    ///
    /// A program built on the app life cycle (`UIApplicationMain`, an `@main`
    /// `UIApplicationDelegate`) is launched with `options.urlContexts` (a cold start: they arrive
    /// in `scene(_:willConnectTo:options:)` or `application(_:open:options:)`), and — with
    /// `options.keepRunning` — stays running while `body` runs, which can send it more URLs
    /// (``RunningApp/open(_:)``: warm, `scene(_:openURLContexts:)`); then it is terminated. Its
    /// in-place URLs are security-scoped: the original opens only while its scope is started.
    ///
    /// - Throws: ``ShareError`` when the app is not installed or holds no program.
    public static func runApp(
        _ bundleIdentifier: String, on root: DeviceRoot, launcher: String,
        options: AppLaunchOptions = AppLaunchOptions(),
        whileRunning body: @Sendable (RunningApp) async -> Void = { _ in }
    ) async throws(ShareError) -> AppRunReport {
        let (bundle, identity, process) = try appProcess(bundleIdentifier, on: root)
        let program: String
        var arguments = options.arguments
        if let own = InstalledBundle.executable(of: bundle) {
            program = own.path
        } else if let name = InstalledBundle.executableName(of: bundle),
            FileManager.default.fileExists(atPath: bundle.appendingPathComponent(name).path)
        {
            // The bundle holds its program but it cannot be executed (no execute permission): the
            // launcher's exec fails and the report says so, as a device fails to launch it.
            program = bundle.appendingPathComponent(name).path
        } else if let builtIn = options.builtInApp {
            program = builtIn.executable
            arguments = builtIn.arguments + arguments
        } else {
            throw ShareError(
                .badInput,
                "\(bundle.path) holds no program (CFBundleExecutable), and exthost's built-in app "
                    + "(\(InstalledPrograms.appsName), built beside exthost) is not here to run it")
        }
        var launch = ExtensionLaunch(executable: program, arguments: arguments, launcher: launcher, process: process)
        launch.extraReadOnlyPaths = [bundle.path]
        let inPlace = options.urlContexts.filter(\.openInPlace).compactMap { URL(string: $0.url) }.filter(\.isFileURL)
        let wantsScopes = options.kernelScopes && (options.keepRunning || !inPlace.isEmpty)
        // The Inbox is read-only to the app (it may read and delete what the system put there): the
        // broker refuses writes there, with the reason in the report. Landlock cannot: see
        // ``AppInbox``.
        let inbox = launch.containerURL.appendingPathComponent(AppInbox.relativePath)
        let wantsBroker =
            wantsScopes || (options.kernelScopes && FileManager.default.fileExists(atPath: inbox.path))
        if !options.kernelScopes {
            // Without a kernel broker the originals must be open to Landlock (the API alone checks).
            launch.sharedFiles = inPlace.map(\.path)
        }
        do {
            let (mine, theirs) = try Socket.pair()
            let channel = AppChannel(socket: mine)
            defer { channel.close() }
            let output = try FileDescriptor.pipe()
            let report = try FileDescriptor.pipe()
            let brokerSockets = wantsBroker ? try? Socket.pair() : nil
            let outputTarget = options.output ?? output.writeEnd
            var spawn = launch.policy().spawn(
                launcher: launcher, program: program, arguments: arguments, socket: theirs.descriptor,
                report: report.writeEnd, standardOutput: outputTarget, standardError: outputTarget,
                scopeBroker: brokerSockets?.1.descriptor)
            launch.environment[AppMessage.channelVariable] = String(AppMessage.descriptorNumber)
            spawn.environment = launch.environmentEntries()
            spawn.workingDirectory = launch.containerURL.path
            let outputCapture = OutputCapture(reading: output.readEnd, keepingAtMost: 4 << 20)
            let reportCapture = OutputCapture(reading: report.readEnd, keepingAtMost: 4096)
            let scopes = AppScopes()
            let launched = Locked<(done: Bool, delivery: AppDelivery?, answered: Bool)>((false, nil, false))
            var running: RunningApp?
            let (pid, status) = try await withChildProcess(spawn, teardown: Teardown(gracePeriod: .milliseconds(200))) {
                child in
                try? theirs.close()
                try? output.writeEnd.close()
                try? report.writeEnd.close()
                try? brokerSockets?.1.close()
                if let (ours, _) = brokerSockets {
                    if let listener = await Self.receiveListener(ours, from: child) {
                        let broker = ScopeBroker(
                            listener: listener, lenient: process.scopeMode == .lenient,
                            isAccessible: { scopes.tokens.isAccessing($0) })
                        broker.protectReadOnly(directory: inbox.path, reason: AppInbox.refusal)
                        broker.start()
                        scopes.attach(broker)
                    }
                    try? ours.close()
                }
                let app = RunningApp(
                    bundleIdentifier: identity.bundleIdentifier, pid: Int(child.pid.rawValue), channel: channel,
                    scopes: scopes)
                running = app
                let launchReply = AsyncStream<AppDelivery?>.makeStream()
                Self.readChannel(
                    channel, app: app, scopes: scopes, pasteboard: DevicePasteboard(root: root),
                    writer: identity.bundleIdentifier, files: DeviceFiles(root: root)
                ) { delivery, answered in
                    launched.withLock { $0 = (true, delivery, answered) }
                    launchReply.continuation.yield(delivery)
                    launchReply.continuation.finish()
                }
                try? channel.send(
                    AppMessage(
                        .launch, urlContexts: scopes.issue(options.urlContexts), userActivities: options.userActivities,
                        keepRunning: options.keepRunning, appIntent: options.appIntent))
                // The launch answer, or the end of the channel (a program without the life cycle);
                // a program that gives neither within the timeout is killed.
                let watchdog = Task {
                    try? await Task.sleep(for: options.timeout)
                    if !launched.withLock({ $0.done }) { try? child.send(.kill) }
                }
                for await _ in launchReply.stream { break }
                watchdog.cancel()
                if options.keepRunning && launched.withLock({ $0.answered }) && !child.hasTerminated {
                    await body(app)
                    app.terminate()
                }
                if await !child.waitForTermination(timeout: options.timeout) { try? child.send(.kill) }
                return child.pid
            }
            scopes.tokens.revokeAll()
            let text = (try? await outputCapture.output().text) ?? ""
            let sandbox = SandboxReport(parsing: (try? await reportCapture.output().text) ?? "")
            let (_, delivery, answered) = launched.withLock { $0 }
            let needed = wantsScopes || !inPlace.isEmpty
            return AppRunReport(
                bundleIdentifier: identity.bundleIdentifier, executable: program, pid: Int(pid.rawValue),
                exitStatus: "\(status)", succeeded: status.isSuccess, output: text,
                sandboxEnforced: sandbox?.isEnforced ?? false, ranLifeCycle: answered, launchDelivery: delivery,
                deliveries: running?.deliveries ?? [],
                scopeEnforcement: !needed ? "not-needed" : scopes.hasBroker ? "kernel" : "api-only",
                refusals: scopes.refusals, launchFailure: Self.launchFailure(sandbox))
        } catch {
            throw ShareError(.failed, "cannot run \(program): \(error)")
        }
    }

    /// The installed app's bundle, identity and process environment (its data container made).
    static func appProcess(_ bundleIdentifier: String, on root: DeviceRoot) throws(ShareError) -> (
        URL, BundleIdentity, ProcessEnvironment
    ) {
        guard let bundle = root.installedBundle(bundleIdentifier, pathExtension: "app") else {
            throw ShareError(.badInput, "no app '\(bundleIdentifier)' is installed on \(root.url.path)")
        }
        do {
            let identity = try BundleIdentity.load(bundle: bundle)
            let container = try root.dataContainer(for: identity)
            var groups: [String: String] = [:]
            for name in identity.applicationGroups {
                guard let group = AppGroupIdentifier(rawValue: name) else { continue }
                groups[name] = try root.groupContainer(group, as: identity).url.path
            }
            for directory in ["tmp", "Documents", "Library"] {
                try FileManager.default.createDirectory(
                    at: container.url.appendingPathComponent(directory), withIntermediateDirectories: true)
            }
            let process = ProcessEnvironment(
                bundleIdentifier: identity.bundleIdentifier, bundlePath: bundle.path,
                bundleExecutable: InstalledBundle.executableName(of: bundle), containerPath: container.url.path,
                groupContainers: groups, rootPath: root.url.path,
                declarationFiles: [bundle.appendingPathComponent("Info.plist").path])
            return (bundle, identity, process)
        } catch {
            throw ShareError(.badInput, "\(error)")
        }
    }

    /// Reads the app's channel on a thread of its own: the launch answer, deliveries, scope
    /// requests; at its end, `launched(nil, false)` if the launch was never answered.
    private static func readChannel(
        _ channel: AppChannel, app: RunningApp, scopes: AppScopes, pasteboard: DevicePasteboard, writer: String,
        files: DeviceFiles,
        launched: @escaping @Sendable (AppDelivery?, Bool) -> Void
    ) {
        Thread.detachNewThread {
            var answeredLaunch = false
            while let message = try? channel.receive() {
                switch message.kind {
                case .launched:
                    if !answeredLaunch { launched(message.delivery, true) }
                    answeredLaunch = true
                case .delivered:
                    if let id = message.id { app.answer(id, message.delivery) }
                case .startAccessing, .stopAccessing:
                    let token = message.token ?? ""
                    let result =
                        message.kind == .startAccessing ? scopes.tokens.start(token) : scopes.tokens.stop(token)
                    let granted: Bool
                    switch result {
                    case .success: granted = true
                    case .failure: granted = false
                    }
                    try? channel.send(AppMessage(.scopeReply, id: message.id, granted: granted))
                case .pasteboard:
                    // The pasteboard is a system service: the app asks, the host reads or writes it.
                    let request =
                        message.pasteboardRequest ?? PasteboardRequest(requestID: UInt64(message.id ?? 0))
                    let reply = pasteboard.serve(request, writer: writer)
                    try? channel.send(AppMessage(.pasteboardReply, id: message.id, pasteboardReply: reply))
                case .saveToFiles:
                    // Save to Files from the app's own sheet: the Files app writes, not the app's sandbox.
                    let reply =
                        message.saveToFilesRequest.map { files.serve($0) }
                        ?? SaveToFilesReply(saved: nil, error: "no files in the request")
                    try? channel.send(AppMessage(.saveToFilesReply, id: message.id, saveToFilesReply: reply))
                default:
                    break
                }
            }
            if !answeredLaunch { launched(nil, false) }
            app.closeAll()
        }
    }
}
