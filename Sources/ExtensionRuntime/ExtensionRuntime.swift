public import AppGroups
public import ExtensionIPC
public import Foundation
import HostSystem
public import ItemProviders

/// The extension side of a share: what runs inside the sandboxed extension process.
///
/// One entry point, ``main(name:_:)``: call it from your executable with your extension's code,
/// and run the executable with `exthost share --extension-executable PATH` (or install it in an
/// `.appex`). Apple-shaped code uses `NSExtensionMain` from the `ExtHostExtension` product, which
/// calls this.
///
/// It connects to the host on fd 3, says hello, rebuilds the ``ItemProviders/ExtensionContext``
/// from the welcome with proxy item providers (loads travel to the host: files as descriptors
/// copied into the container's `tmp/`, data in bounded chunks, objects rebuilt from their bytes,
/// open-in-place files with a security-scope token the host brokers), points
/// ``ItemProviders/ItemProviderConfiguration`` at the container's `tmp/` and the host's broker,
/// runs `handler` on the main actor with the ``Environment``, waits for `completeRequest` or
/// `cancelRequest`, tells the host, and returns the exit status (0 completed, 1 cancelled or failed).
public enum ExtensionRuntime {
    /// Where the running extension lives, as the host granted it, and its line to the host's report.
    public struct Environment: Sendable {
        /// What the host told the process (containers, groups, bundle, scope mode).
        public var process: ProcessEnvironment
        /// The host's welcome.
        public var welcome: Welcome
        /// The connection to the host.
        public var host: HostConnection
        private let outcomes: OutcomeCollector

        init(process: ProcessEnvironment, welcome: Welcome, host: HostConnection) {
            self.process = process
            self.welcome = welcome
            self.host = host
            self.outcomes = OutcomeCollector()
        }

        /// The extension's own container (`Data/PluginKitPlugin/<UUID>`).
        public var containerURL: URL { URL(fileURLWithPath: process.containerPath) }
        /// The App Group containers it may write, by group identifier.
        public var groupContainers: [String: URL] { process.groupContainerURLs }
        /// The device root (for names only: the extension cannot read it).
        public var rootURL: URL { URL(fileURLWithPath: process.rootPath) }
        /// The extension's bundle identifier.
        public var bundleIdentifier: String { process.bundleIdentifier }

        /// The identity the extension writes its groups as (entitled to ``groupContainers``).
        public var identity: BundleIdentity {
            BundleIdentity(
                bundleIdentifier: bundleIdentifier, kind: .appExtension,
                bundleURL: process.bundlePath.map { URL(fileURLWithPath: $0) } ?? containerURL,
                entitlementsURL: nil, applicationGroups: groupContainers.keys.sorted())
        }

        /// Opens the App Group `group` (or the first one the host granted) as ``identity``.
        /// - Throws: ``AppGroups/AppGroupError`` (`.notEntitled` when the host granted no such group).
        public func openGroup(_ group: String? = nil) throws -> AppGroupStore {
            let chosen = group ?? welcome.appGroups.first ?? groupContainers.keys.sorted().first ?? ""
            let identifier = try AppGroupIdentifier(validating: chosen)
            guard let url = groupContainers[chosen] else {
                throw AppGroupError(
                    .notEntitled, "the host granted this extension no container for App Group '\(chosen)'")
            }
            // The extension only writes: a retained journal copy would grow with every commit.
            return try AppGroupStore.open(
                identifier, containerAt: url, as: identity, root: DeviceRoot(url: rootURL), retainingEntries: false)
        }

        /// Sends what became of these attachments to the host now (`outcomes` messages, which the host
        /// adds to the completion's), so an extension that reports per batch keeps none of them;
        /// outcomes that cannot be sent travel with the completion instead.
        public func report(_ outcomes: [AttachmentOutcome]) {
            for message in OutcomeBatch(outcomes: outcomes).split() {
                do { try host.send(message) } catch {
                    if case .outcomes(let batch) = message { self.outcomes.add(batch.outcomes) }
                }
            }
        }

        /// Sends a line to the host's report (`os_log`).
        public func log(_ text: String, level: LogLine.Level = .info, mistake: LogLine.Mistake? = nil) {
            log(LogLine(level: level, text: text, mistake: mistake))
        }

        /// Sends `line` to the host's report.
        public func log(_ line: LogLine) {
            try? host.send(.log(line))
        }

        /// Tells the host which principal object the process made, and how (for its report).
        public func report(principal: PrincipalDescription) {
            try? host.send(.principal(principal))
        }

        /// Tells the host what the extension is doing (shown if it is killed meanwhile).
        public func activity(_ text: String) {
            try? host.send(.progress(ProgressUpdate(completedUnitCount: 0, totalUnitCount: -1, activity: text)))
        }

        func takeOutcomes() -> [AttachmentOutcome] { outcomes.take() }
    }

    /// Runs an extension: connect, handshake, context, `handler` on the main actor, completion.
    /// - Returns: the process exit status: 0 when the request completed, 1 otherwise.
    public static func main(
        name: String? = nil, _ handler: @escaping @MainActor (ExtensionContext, Environment) async throws -> Void
    ) async -> Int32 {
        let host = HostConnection.inherited()
        let welcome: Welcome
        do {
            welcome = try host.handshake(name: name)
        } catch {
            printError("\(name ?? "extension"): no host on fd 3: \(error)")
            return 1
        }
        host.start()
        let process =
            ProcessEnvironment.current()
            ?? ProcessEnvironment(
                bundleIdentifier: name ?? "extension", containerPath: NSTemporaryDirectory(), rootPath: "/nonexistent")
        let environment = Environment(process: process, welcome: welcome, host: host)
        ItemProviderConfiguration.temporaryDirectory = environment.containerURL.appendingPathComponent("tmp")
        ItemProviderConfiguration.securityScopeBroker = HostSecurityScopeBroker(host: host)
        // A file's temporary copy is hashed as it is copied: moved into the group unchanged, it is
        // committed without being read again (the group store checks it is unchanged).
        ItemProviderConfiguration.descriptorCopier = { source, destination in
            try DigestedCopies.copyRecordingDigest(from: source, to: destination)
        }
        if process.scopeMode == .lenient { ItemProviderConfiguration.securityScopeMode = .lenient }
        if let seed = process.shuffleLoadsSeed {
            ItemProviderConfiguration.completionOrder = CompletionOrder(seed: seed)
        }
        let (ending, lifetime) = await run(environment, handler)
        do throws(IPCError) {
            // Thousands of outcomes do not fit in one frame: batches go ahead of the completion.
            if case .completeRequest(let completion) = ending {
                for message in completion.split() { try host.send(message) }
            } else {
                try host.send(ending)
            }
        } catch {
            printError("\(name ?? "extension"): could not tell the host: \(error)")
            return 1
        }
        // What a device lets run after the end runs now; the loads it cut off never complete.
        await settle(lifetime, environment)
        _ = await host.waitForBye(timeout: .seconds(2))
        switch ending {
        case .completeRequest: return 0
        case .bundleFailure: return 2
        default: return 1
        }
    }

    /// Waits for what still runs after the request's end (``ItemProviders/RequestLifetime``), then
    /// tells the host what ran and what was cut off.
    private static func settle(_ lifetime: RequestLifetime, _ environment: Environment) async {
        let end = await lifetime.settle()
        if !end.cutOff.isEmpty {
            let loads = end.cutOff.map(\.what)
            environment.log(
                "\(end.endedBy) was called while \(loads.count) load(s) were still in flight; a device ends the "
                    + "extension right after, so they never finish: " + loads.prefix(20).joined(separator: "; ")
                    + (loads.count > 20 ? "; …" : ""),
                level: .error, mistake: .requestEndedWithLoadsInFlight)
        }
        try? environment.host.send(.requestSettled(end))
    }

    @MainActor
    private static func run(
        _ environment: Environment, _ handler: @MainActor (ExtensionContext, Environment) async throws -> Void
    ) async -> (Message, RequestLifetime) {
        let context = ExtensionContext(inputItems: ProxyProviders.items(environment.welcome, environment.host))
        let signal = OutcomeSignal()
        context.onCompletion = { signal.set($0) }
        do {
            try await handler(context, environment)
        } catch let failure as BundleFailure {
            // Nothing of the extension ran: the host reports bad input, not a request's end.
            return (.bundleFailure(failure), context.lifetime)
        } catch {
            if !context.isFinished { context.cancelRequest(withError: error) }
        }
        let outcome = await signal.wait()
        for note in context.diagnostics { environment.log(note) }
        switch outcome {
        case .completed(let count, let leaks):
            for leak in leaks { environment.log("leaked security scope: \(leak)", level: .error) }
            var outcomes = environment.takeOutcomes()
            outcomes.sort { $0.attachment < $1.attachment }
            // The returned items are the host's now: their loads are not the request's any more.
            for provider in (context.returnedItems ?? []).flatMap({ $0.attachments ?? [] }) {
                provider.requestLifetime = nil
            }
            let returned = await returnedContents(context.returnedItems ?? [])
            return (
                .completeRequest(
                    CompleteRequest(
                        outcomes: outcomes,
                        returnedItems: Array(repeating: ItemDescription(attachments: []), count: count),
                        returned: returned.isEmpty ? nil : returned)), context.lifetime
            )
        case .cancelled(let error):
            return (.cancelRequest(CancelRequest(error: wireError(error))), context.lifetime)
        }
    }

    /// What the returned items hold: each attachment's first representation, loaded.
    @MainActor
    private static func returnedContents(_ items: [ExtensionItem]) async -> [ReturnedItem] {
        var returned: [ReturnedItem] = []
        for item in items {
            var attachments: [ReturnedAttachment] = []
            for provider in item.attachments ?? [] {
                guard let type = provider.registeredTypeIdentifiers.first else { continue }
                let objectClass = provider.registeredObjectClass(answering: type)
                do {
                    let data = try await provider.loadDataRepresentation(for: type)
                    attachments.append(
                        data.count <= ReturnedAttachment.maximumBytes
                            ? ReturnedAttachment(typeIdentifier: type, objectClass: objectClass, data: data)
                            : ReturnedAttachment(
                                typeIdentifier: type, objectClass: objectClass, data: nil,
                                error:
                                    "\(data.count) bytes: returned items travel only up to \(ReturnedAttachment.maximumBytes)"
                            ))
                } catch {
                    attachments.append(
                        ReturnedAttachment(typeIdentifier: type, objectClass: objectClass, data: nil, error: "\(error)")
                    )
                }
            }
            returned.append(
                ReturnedItem(
                    title: item.attributedTitle, contentText: item.attributedContentText, attachments: attachments))
        }
        return returned
    }

    /// Writes `text` and a newline to standard error (the host's log of the extension).
    package static func printError(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array((text + "\n").utf8))
    }
}

/// The outcomes the handler reported, in any isolation.
final class OutcomeCollector: Sendable {
    private let outcomes = Locked<[AttachmentOutcome]>([])

    func add(_ more: [AttachmentOutcome]) { outcomes.withLock { $0 += more } }

    func take() -> [AttachmentOutcome] {
        outcomes.withLock { list in
            defer { list = [] }
            return list
        }
    }
}

/// An error as it travels to the host.
func wireError(_ error: any Error) -> WireError {
    if let error = error as? WireError { return error }
    if let error = error as? ItemProviderError { return WireError(error) }
    return WireError(domain: "ExtensionErrorDomain", code: 1, message: "\(error)")
}

/// The request's outcome, handed from `onCompletion` to the waiting runtime.
final class OutcomeSignal: Sendable {
    private struct State {
        var outcome: ExtensionOutcome?
        var waiters: [CheckedContinuation<ExtensionOutcome, Never>] = []
    }
    private let state = Locked(State())

    func set(_ outcome: ExtensionOutcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<ExtensionOutcome, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    func wait() async -> ExtensionOutcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ExtensionOutcome? in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
