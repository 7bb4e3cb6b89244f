import AppIntents
import ExtensionIPC
import Foundation
import HostSystem
import Intents
import ItemProviders
import UIKit
import UniformTypeIdentifiers

/// The running app: the launch sequence, the scene, and the URLs exthost sends (on the channel
/// `EXTHOST_APP_CHANNEL` names, fd 3). Which entry point received a URL — or that none did — goes
/// back to exthost for its report.
@MainActor
final class ApplicationRuntime: RunningApplication {
    /// The running app's runtime (UIKit's ``UIApplication/running``).
    static var current: ApplicationRuntime? { UIApplication.running as? ApplicationRuntime }

    let application: UIApplication
    let delegate: any UIApplicationDelegate
    private let delegateModule: String
    private let manifest: [String: Any]?
    private let channel: AppChannel?
    private var scene: UIScene?
    private var missing: [String] = []
    private var status: Int32?

    private init(delegate: any UIApplicationDelegate, module: String, manifest: [String: Any]?, channel: AppChannel?) {
        self.application = UIApplication()
        self.delegate = delegate
        self.delegateModule = module
        self.manifest = manifest
        self.channel = channel
        application.delegate = delegate
    }

    /// Records that the default of an optional method ran: the app does not implement it.
    func notImplemented(_ method: String) { missing.append(method) }

    // MARK: - Running

    /// Runs the app with a delegate of `delegateClass`; returns the exit status.
    static func run(delegateClass: any (UIResponder & UIApplicationDelegate).Type) -> Int32 {
        let environment = ProcessEnvironment.current()
        let channel = ProcessInfo.processInfo.environment[AppMessage.channelVariable].flatMap(CInt.init).map {
            AppChannel(socket: Socket(descriptor: FileDescriptor(rawValue: $0)))
        }
        var launch = AppMessage(.launch, urlContexts: [], keepRunning: false)
        if let channel {
            do {
                guard let first = try channel.receive(), first.kind == .launch else {
                    FileHandle.standardError.write(Data("UIApplicationMain: exthost sent no launch\n".utf8))
                    return 1
                }
                launch = first
            } catch {
                FileHandle.standardError.write(Data("UIApplicationMain: \(error)\n".utf8))
                return 1
            }
            ItemProviderConfiguration.securityScopeBroker = ChannelScopeBroker(channel: channel)
            // UIPasteboard.general asks the host: the pasteboard is a system service, not a file.
            UIPasteboard.appService = { request in ChannelPasteboard.ask(request, on: channel) }
            ChannelPasteboard.channel.withLock { $0 = channel }
            if environment?.scopeMode == .lenient { ItemProviderConfiguration.securityScopeMode = .lenient }
        }
        let manifest = environment?.bundlePath.flatMap { path -> [String: Any]? in
            guard let data = FileManager.default.contents(atPath: path + "/Info.plist"),
                let info = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            else { return nil }
            return info["UIApplicationSceneManifest"] as? [String: Any]
        }
        let className = NSStringFromClass(delegateClass)
        let module = className.split(separator: ".").first.map(String.init) ?? className
        guard let delegate = delegateClass.instantiate() else {
            FileHandle.standardError.write(Data("UIApplicationMain: \(className)(coder:) returned nil\n".utf8))
            return 1
        }
        let runtime = ApplicationRuntime(delegate: delegate, module: module, manifest: manifest, channel: channel)
        UIApplication.running = runtime
        if let channel { runtime.startReading(channel) }
        if let invocation = launch.appIntent {
            // An App Intent: the launch (in the foreground with its scene, or in the background
            // without one), then perform() in this process; the launch is answered once it returns.
            if invocation.background {
                runtime.backgroundLaunch()
            } else {
                _ = runtime.launchSequence([], activities: [])
            }
            let keepRunning = launch.keepRunning == true
            Task { @MainActor in
                let delivery = await runtime.performIntent(invocation)
                try? channel?.send(AppMessage(.launched, delivery: delivery))
                CurrentProcess.flushStandardStreams()
                if !keepRunning { runtime.terminate() }
            }
        } else {
            let delivery = runtime.launchSequence(launch.urlContexts ?? [], activities: launch.userActivities ?? [])
            try? channel?.send(AppMessage(.launched, delivery: delivery))
            CurrentProcess.flushStandardStreams()
            if launch.keepRunning != true {
                runtime.terminate()
            }
        }
        // `status` is set on the main actor, whose jobs this loop runs: each pass returns after
        // handling one (the terminate among them) and sleeps in the kernel meanwhile.
        while runtime.status == nil {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
        CurrentProcess.flushStandardStreams()
        return runtime.status ?? 0
    }

    /// Reads the channel on a thread of its own: scope replies go to whoever waits for them,
    /// everything else to the main actor.
    private func startReading(_ channel: AppChannel) {
        Thread.detachNewThread {
            while true {
                let message: AppMessage?
                do { message = try channel.receive() } catch { message = nil }
                guard let message else {
                    Task { @MainActor in ApplicationRuntime.current?.terminate() }
                    return
                }
                if message.kind == .scopeReply {
                    ChannelScopeBroker.answer(message)
                    continue
                }
                if message.kind == .pasteboardReply || message.kind == .saveToFilesReply {
                    ChannelPasteboard.answer(message)
                    continue
                }
                Task { @MainActor in ApplicationRuntime.current?.handle(message) }
            }
        }
    }

    private func handle(_ message: AppMessage) {
        switch message.kind {
        case .open:
            let delivery = open(message.urlContexts ?? [])
            try? channel?.send(AppMessage(.delivered, id: message.id, delivery: delivery))
            CurrentProcess.flushStandardStreams()
        case .continueActivity:
            let delivery = continueActivities(message.userActivities ?? [])
            try? channel?.send(AppMessage(.delivered, id: message.id, delivery: delivery))
            CurrentProcess.flushStandardStreams()
        case .performIntent:
            guard let invocation = message.appIntent else { break }
            let id = message.id
            Task { @MainActor in
                let delivery = await self.performIntent(invocation)
                try? self.channel?.send(AppMessage(.delivered, id: id, delivery: delivery))
                CurrentProcess.flushStandardStreams()
            }
        case .terminate:
            terminate()
        default:
            break
        }
    }

    // MARK: - App Intents

    /// A background launch (`openAppWhenRun: false`): "the system launches your app in a limited mode
    /// in the background" — the app delegate's launch methods, no scene.
    private func backgroundLaunch() {
        _ = delegate.application(application, willFinishLaunchingWithOptions: nil)
        _ = delegate.application(application, didFinishLaunchingWithOptions: nil)
    }

    /// Makes the App Intent, sets its parameters (a file as an `IntentFile` on its copy in the
    /// app's `tmp/`) and awaits its `perform()`.
    private func performIntent(_ invocation: AppIntentInvocation) async -> AppDelivery {
        let parameters = invocation.parameters.map { parameter -> (name: String, value: (any Sendable)?) in
            switch parameter.kind {
            case "file":
                let type = parameter.typeIdentifier.flatMap { UTType($0) }
                guard let path = parameter.path else {
                    return (
                        parameter.name, IntentFile(data: Data(), filename: parameter.filename ?? "file", type: type)
                    )
                }
                return (
                    parameter.name,
                    IntentFile(fileURL: URL(fileURLWithPath: path), filename: parameter.filename, type: type)
                )
            case "url": return (parameter.name, parameter.string.flatMap(URL.init(string:)))
            case "number", "bool": return (parameter.name, parameter.number)
            default: return (parameter.name, parameter.string)
            }
        }
        let outcome = await AppIntentPerformer.perform(
            typeName: invocation.typeName, mangledTypeName: invocation.mangledTypeName, module: delegateModule,
            parameters: parameters)
        let mode =
            invocation.background
            ? "in a background launch without scenes" : "with the app in the foreground"
        return AppDelivery(
            method: invocation.background ? .performInBackground : .perform, handled: outcome.succeeded,
            detail: "\(outcome.detail) (\(mode))", urls: [invocation.typeName])
    }

    private func terminate() {
        guard status == nil else { return }
        if let scene { scene.delegate?.sceneDidDisconnect(scene) }
        delegate.applicationWillTerminate(application)
        CurrentProcess.flushStandardStreams()
        status = 0
    }

    // MARK: - Launch

    /// `willFinishLaunching`, `didFinishLaunching`, then the scene (or `application(_:open:options:)`).
    private func launchSequence(
        _ descriptions: [OpenURLContextDescription], activities activityDescriptions: [UserActivityDescription]
    ) -> AppDelivery? {
        let contexts = register(descriptions)
        let activities = activityDescriptions.map(userActivity)
        let usesScenes = manifest != nil
        var launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        if !usesScenes, let first = contexts.first {
            var options: [UIApplication.LaunchOptionsKey: Any] = [.url: first.url as NSURL]
            if let source = first.options.sourceApplication { options[.sourceApplication] = source }
            launchOptions = options
        }
        var answers: [Bool] = []
        missing = []
        let will = delegate.application(application, willFinishLaunchingWithOptions: launchOptions)
        if missing.isEmpty { answers.append(will) }
        missing = []
        let did = delegate.application(application, didFinishLaunchingWithOptions: launchOptions)
        if missing.isEmpty { answers.append(did) }
        let urls = contexts.map(\.url.absoluteString)

        guard usesScenes else {
            guard !contexts.isEmpty || !activities.isEmpty else { return nil }
            if !answers.isEmpty && answers.allSatisfy({ !$0 }) {
                return AppDelivery(
                    method: .lost, handled: false,
                    detail:
                        "application(_:willFinishLaunchingWithOptions:)/didFinishLaunchingWithOptions returned false: "
                        + "iOS then does not call application(_:open:options:)", urls: urls)
            }
            if !activities.isEmpty { return continueWithoutScenes(activities) }
            return openWithoutScenes(contexts)
        }

        let session = UISceneSession(role: .windowApplication)
        let sourceApplication = contexts.first?.options.sourceApplication
        let options = UIScene.ConnectionOptions(
            urlContexts: Set(contexts), userActivities: Set(activities), sourceApplication: sourceApplication)
        let configuration = delegate.application(application, configurationForConnecting: session, options: options)
        session.configuration = configuration
        let scene = UIWindowScene(session: session, connectionOptions: options)
        self.scene = scene
        application.connectedScenes = [scene]
        guard let delegateType = configuration.delegateClass as? any (UIResponder & UISceneDelegate).Type else {
            let named = configuration.delegateClass.map { NSStringFromClass($0) } ?? "none"
            let detail =
                "the scene configuration names no scene delegate that subclasses UIResponder and adopts "
                + "UISceneDelegate (UISceneDelegateClassName: \(named))"
            FileHandle.standardError.write(Data("UIApplicationMain: \(detail)\n".utf8))
            return contexts.isEmpty ? nil : AppDelivery(method: .lost, handled: false, detail: detail, urls: urls)
        }
        scene.delegate = delegateType.instantiate()
        missing = []
        scene.delegate?.scene(scene, willConnectTo: session, options: options)
        let connected = !missing.contains("scene(_:willConnectTo:options:)")
        scene.activationState = .foregroundInactive
        scene.delegate?.sceneWillEnterForeground(scene)
        scene.activationState = .foregroundActive
        scene.delegate?.sceneDidBecomeActive(scene)
        if !activities.isEmpty {
            let types = activities.map(\.activityType)
            if !connected || !options.userActivitiesWereRead {
                return AppDelivery(
                    method: .lost, handled: false,
                    detail:
                        "scene(_:willConnectTo:options:) \(connected ? "ran but never read" : "is not implemented, so nothing read") "
                        + "connectionOptions.userActivities: on a cold start the activity arrives only there "
                        + "(scene(_:continue:) is called only while the app runs)", urls: types)
            }
            return AppDelivery(
                method: .userActivities, handled: true,
                detail: "scene(_:willConnectTo:options:) read connectionOptions.userActivities", urls: types)
        }
        guard !contexts.isEmpty else { return nil }
        if !connected {
            return AppDelivery(
                method: .lost, handled: false,
                detail: "\(NSStringFromClass(delegateType)) does not implement scene(_:willConnectTo:options:): "
                    + "on a cold start the URL arrives only in connectionOptions.urlContexts", urls: urls)
        }
        if !options.urlContextsWereRead {
            return AppDelivery(
                method: .lost, handled: false,
                detail: "scene(_:willConnectTo:options:) ran but never read connectionOptions.urlContexts: "
                    + "on a cold start the URL arrives only there (scene(_:openURLContexts:) is called only "
                    + "while the app runs)", urls: urls)
        }
        return AppDelivery(
            method: .willConnectTo, handled: true,
            detail: "scene(_:willConnectTo:options:) read connectionOptions.urlContexts", urls: urls)
    }

    // MARK: - Opening

    /// A URL for the running app: `scene(_:openURLContexts:)`, or `application(_:open:options:)`.
    private func open(_ descriptions: [OpenURLContextDescription]) -> AppDelivery {
        let contexts = register(descriptions)
        let urls = contexts.map(\.url.absoluteString)
        guard let scene, let sceneDelegate = scene.delegate else {
            if manifest != nil {
                return AppDelivery(method: .lost, handled: false, detail: "the app has no connected scene", urls: urls)
            }
            return openWithoutScenes(contexts)
        }
        if scene.activationState != .foregroundActive {
            sceneDelegate.sceneWillEnterForeground(scene)
            scene.activationState = .foregroundActive
            sceneDelegate.sceneDidBecomeActive(scene)
        }
        missing = []
        sceneDelegate.scene(scene, openURLContexts: Set(contexts))
        if missing.contains("scene(_:openURLContexts:)") {
            return AppDelivery(
                method: .lost, handled: false,
                detail: "\(NSStringFromClass(type(of: sceneDelegate))) does not implement scene(_:openURLContexts:): "
                    + "a URL opened while the app runs arrives only there", urls: urls)
        }
        return AppDelivery(
            method: .openURLContexts, handled: true, detail: "scene(_:openURLContexts:) was called", urls: urls)
    }

    /// A user activity for the running app: `scene(_:continue:)`, or
    /// `application(_:continue:restorationHandler:)`.
    private func continueActivities(_ descriptions: [UserActivityDescription]) -> AppDelivery {
        let activities = descriptions.map(userActivity)
        let types = activities.map(\.activityType)
        guard let scene, let sceneDelegate = scene.delegate else {
            if manifest != nil {
                return AppDelivery(method: .lost, handled: false, detail: "the app has no connected scene", urls: types)
            }
            return continueWithoutScenes(activities)
        }
        missing = []
        for activity in activities { sceneDelegate.scene(scene, continue: activity) }
        if missing.contains("scene(_:continue:)") {
            return AppDelivery(
                method: .lost, handled: false,
                detail: "\(NSStringFromClass(type(of: sceneDelegate))) does not implement scene(_:continue:): "
                    + "an activity continued while the app runs arrives only there", urls: types)
        }
        return AppDelivery(method: .sceneContinue, handled: true, detail: "scene(_:continue:) was called", urls: types)
    }

    private func continueWithoutScenes(_ activities: [NSUserActivity]) -> AppDelivery {
        let types = activities.map(\.activityType)
        var handled = true
        for activity in activities {
            missing = []
            let answer = delegate.application(application, continue: activity, restorationHandler: { _ in })
            if missing.contains("application(_:continue:restorationHandler:)") {
                return AppDelivery(
                    method: .lost, handled: false,
                    detail: "the app has no scenes and its delegate does not implement "
                        + "application(_:continue:restorationHandler:): the activity is not handled (the app only opens)",
                    urls: types)
            }
            handled = handled && answer
        }
        return AppDelivery(
            method: .applicationContinue, handled: handled,
            detail: "application(_:continue:restorationHandler:) returned \(handled)", urls: types)
    }

    /// The `NSUserActivity` of `description`: its intent is an instance of the class the app
    /// declares under the intent's class name (in the app delegate's module), else an `INIntent`.
    private func userActivity(_ description: UserActivityDescription) -> NSUserActivity {
        let activity = NSUserActivity(activityType: description.activityType)
        let intentType =
            NSClassFromString("\(delegateModule).\(description.intentClassName)") as? INIntent.Type ?? INIntent.self
        let intent = intentType.init()
        for parameter in description.parameters {
            switch parameter.kind {
            case "file":
                let url = parameter.path.map { URL(fileURLWithPath: $0) }
                intent.parameterValues[parameter.name] =
                    url.map {
                        INFile(fileURL: $0, filename: parameter.filename, typeIdentifier: parameter.typeIdentifier)
                    }
                    ?? INFile(
                        data: Data(), filename: parameter.filename ?? "file", typeIdentifier: parameter.typeIdentifier)
            case "url":
                intent.parameterValues[parameter.name] = parameter.string.flatMap(URL.init(string:))
            case "number", "bool":
                intent.parameterValues[parameter.name] = parameter.number.map { NSNumber(value: $0) }
            default:
                intent.parameterValues[parameter.name] = parameter.string
            }
        }
        activity.title = description.intentClassName
        activity.interactionObject = INInteraction(intent: intent, response: nil)
        return activity
    }

    private func openWithoutScenes(_ contexts: [UIOpenURLContext]) -> AppDelivery {
        let urls = contexts.map(\.url.absoluteString)
        var handled = true
        for context in contexts {
            var options: [UIApplication.OpenURLOptionsKey: Any] = [.openInPlace: context.options.openInPlace]
            if let source = context.options.sourceApplication { options[.sourceApplication] = source }
            missing = []
            let answer = delegate.application(application, open: context.url, options: options)
            if missing.contains("application(_:open:options:)") {
                return AppDelivery(
                    method: .lost, handled: false,
                    detail: "the app has no scenes and its delegate does not implement application(_:open:options:)",
                    urls: urls)
            }
            handled = handled && answer
        }
        return AppDelivery(
            method: .applicationOpen, handled: handled,
            detail: "application(_:open:options:) returned \(handled)", urls: urls)
    }

    /// Contexts for `descriptions`; in-place URLs are registered with their security scope.
    private func register(_ descriptions: [OpenURLContextDescription]) -> [UIOpenURLContext] {
        descriptions.compactMap { description in
            guard let url = URL(string: description.url) else { return nil }
            if let token = description.scopeToken { SecurityScope.register(url, token: token) }
            return UIOpenURLContext(
                url: url,
                options: UIScene.OpenURLOptions(
                    sourceApplication: description.sourceApplication, openInPlace: description.openInPlace))
        }
    }

    /// The configuration the Info.plist's `UIApplicationSceneManifest` gives `role`
    /// (`$(PRODUCT_MODULE_NAME)` is the app delegate's module).
    func manifestConfiguration(for role: UISceneSession.Role) -> UISceneConfiguration? {
        guard let configurations = manifest?["UISceneConfigurations"] as? [String: Any],
            let first = (configurations[role.rawValue] as? [[String: Any]])?.first
        else { return nil }
        let configuration = UISceneConfiguration(name: first["UISceneConfigurationName"] as? String, sessionRole: role)
        if let name = first["UISceneDelegateClassName"] as? String {
            let resolved = name.replacingOccurrences(of: "$(PRODUCT_MODULE_NAME)", with: delegateModule)
            configuration.delegateClass = NSClassFromString(resolved)
        }
        return configuration
    }
}

/// Security scopes of the app's in-place URLs, started and stopped by exthost over the channel
/// (which lets the kernel broker open the original while a scope is started).
final class ChannelScopeBroker: SecurityScopeBroker {
    private struct Pending {
        var next = 1
        var waiting: [Int: DispatchSemaphore] = [:]
        var answers: [Int: Bool] = [:]
    }
    private static let pending = Locked(Pending())
    private let channel: AppChannel

    init(channel: AppChannel) { self.channel = channel }

    func startAccessing(token: String, url: URL) -> Bool { ask(.startAccessing, token: token) }

    func stopAccessing(token: String, url: URL) { _ = ask(.stopAccessing, token: token) }

    /// Sends the request and waits for the host's answer (a stop, too: once it returns, the
    /// original is closed to the app again).
    private func ask(_ kind: AppMessage.Kind, token: String) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let id = Self.pending.withLock { pending in
            let id = pending.next
            pending.next += 1
            pending.waiting[id] = semaphore
            return id
        }
        guard (try? channel.send(AppMessage(kind, id: id, token: token))) != nil,
            semaphore.wait(timeout: .now() + 10) == .success
        else {
            _ = Self.pending.withLock { $0.waiting.removeValue(forKey: id) }
            return false
        }
        return Self.pending.withLock { $0.answers.removeValue(forKey: id) ?? false }
    }

    static func answer(_ reply: AppMessage) {
        guard let id = reply.id else { return }
        let semaphore = pending.withLock { pending -> DispatchSemaphore? in
            guard let semaphore = pending.waiting.removeValue(forKey: id) else { return nil }
            pending.answers[id] = reply.granted ?? false
            return semaphore
        }
        semaphore?.signal()
    }
}

/// The system services of an app exthost launched, over the app's channel: `UIPasteboard.general`
/// (each read or write) and its own sheet's Save to Files; each request waits for the host's answer
/// (the channel's reader thread delivers it).
enum ChannelPasteboard {
    private struct Pending {
        var waiting: [Int: DispatchSemaphore] = [:]
        var answers: [Int: PasteboardReply] = [:]
        var saves: [Int: SaveToFilesReply] = [:]
        /// Save requests are numbered apart from the pasteboard's (UIPasteboard numbers those).
        var nextSave = 1 << 40
    }
    private static let pending = Locked(Pending())
    /// The app's channel, once the app runs under exthost.
    static let channel = Locked<AppChannel?>(nil)

    /// Sends a Save to Files request and waits (up to 30 s) for the host's answer.
    static func save(_ request: SaveToFilesRequest, on channel: AppChannel) -> SaveToFilesReply {
        let semaphore = DispatchSemaphore(value: 0)
        let id = pending.withLock { pending -> Int in
            defer { pending.nextSave += 1 }
            pending.waiting[pending.nextSave] = semaphore
            return pending.nextSave
        }
        guard (try? channel.send(AppMessage(.saveToFiles, id: id, saveToFilesRequest: request))) != nil,
            semaphore.wait(timeout: .now() + 30) == .success
        else {
            _ = pending.withLock { $0.waiting.removeValue(forKey: id) }
            return SaveToFilesReply(saved: nil, error: "exthost did not answer the app's Save to Files")
        }
        return pending.withLock { $0.saves.removeValue(forKey: id) }
            ?? SaveToFilesReply(saved: nil, error: "exthost's answer held no files")
    }

    /// Sends `request` and waits (up to 10 s) for the reply; nil when none comes.
    static func ask(_ request: PasteboardRequest, on channel: AppChannel) -> PasteboardReply? {
        let semaphore = DispatchSemaphore(value: 0)
        let id = Int(truncatingIfNeeded: request.requestID)
        pending.withLock { $0.waiting[id] = semaphore }
        guard (try? channel.send(AppMessage(.pasteboard, id: id, pasteboardRequest: request))) != nil,
            semaphore.wait(timeout: .now() + 10) == .success
        else {
            _ = pending.withLock { $0.waiting.removeValue(forKey: id) }
            return nil
        }
        return pending.withLock { $0.answers.removeValue(forKey: id) }
    }

    static func answer(_ reply: AppMessage) {
        guard let id = reply.id else { return }
        let semaphore = pending.withLock { pending -> DispatchSemaphore? in
            guard let semaphore = pending.waiting.removeValue(forKey: id) else { return nil }
            if let saved = reply.saveToFilesReply { pending.saves[id] = saved }
            pending.answers[id] = reply.pasteboardReply
            return semaphore
        }
        semaphore?.signal()
    }
}
