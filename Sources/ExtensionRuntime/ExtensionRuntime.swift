public import AppGroups
public import ExtensionIPC
public import Foundation
import HostSystem
public import ItemProviders
import Synchronization

/// The extension side of a share: what runs inside the sandboxed extension process.
///
/// One entry point, ``main(name:_:)``: call it from your executable's `@main` with your
/// extension's code, build the executable against this module, and run it with
/// `exthost share --extension-executable PATH`:
///
/// ```swift
/// import ExtensionRuntime
/// import ItemProviders
///
/// @main struct MyShareExtension {
///     static func main() async {
///         exit(await ExtensionRuntime.main(name: "MyShare") { context in
///             for item in context.inputItems { … }
///             context.completeRequest(returningItems: nil)
///         })
///     }
/// }
/// ```
///
/// It connects to the host on fd 3, says hello, rebuilds the ``ItemProviders/ExtensionContext``
/// from the welcome with proxy item providers (loads travel to the host: files as descriptors
/// copied into the container's `tmp/`, data in bounded chunks, open-in-place files with a
/// security-scope token the host brokers), points ``ItemProviders/ItemProviderConfiguration``'s
/// temporary directory at the container's `tmp/` and its broker at the host, runs `handler` on the
/// main actor, waits for `completeRequest` or `cancelRequest`, tells the host, and returns the
/// exit status (0 completed, 1 cancelled or failed).
public enum ExtensionRuntime {
    /// Where the running extension lives: its containers, as the host granted them.
    public struct Environment: Sendable {
        /// The extension's own container (`Data/PluginKitPlugin/<UUID>`).
        public var containerURL: URL
        /// The App Group containers it may write, by group identifier.
        public var groupContainers: [String: URL]
        /// The device root (for names only: the extension cannot read it).
        public var rootURL: URL
        /// The extension's bundle identifier.
        public var bundleIdentifier: String
        /// The host's welcome.
        public var welcome: Welcome
        /// The connection to the host.
        public var host: HostConnection

        /// The identity the extension writes its groups as (entitled to ``groupContainers``).
        public var identity: BundleIdentity {
            BundleIdentity(
                bundleIdentifier: bundleIdentifier, kind: .appExtension, bundleURL: containerURL,
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
    }

    /// The running extension's environment (set before the handler runs).
    @MainActor public private(set) static var current: Environment?
    /// Per-attachment outcomes the handler reported, sent with `completeRequest`.
    @MainActor private static var reportedOutcomes: [AttachmentOutcome] = []

    /// Records what became of each attachment, for the host's report (sent with the completion).
    @MainActor public static func report(_ outcomes: [AttachmentOutcome]) { reportedOutcomes += outcomes }

    /// Sends a line to the host's report (`os_log`).
    public static func log(_ text: String, level: LogLine.Level = .info) {
        if let host = sharedHost.withLock({ $0 }) { try? host.send(.log(LogLine(level: level, text: text))) }
    }

    /// Tells the host what the extension is doing (shown if it is killed meanwhile).
    public static func activity(_ text: String) {
        if let host = sharedHost.withLock({ $0 }) {
            try? host.send(.progress(ProgressUpdate(completedUnitCount: 0, totalUnitCount: -1, activity: text)))
        }
    }

    private static let sharedHost = Mutex<HostConnection?>(nil)

    /// Runs an extension: connect, handshake, context, `handler` on the main actor, completion.
    /// - Returns: the process exit status: 0 when the request completed, 1 otherwise.
    public static func main(
        name: String? = nil, _ handler: @escaping @MainActor (ExtensionContext) async throws -> Void
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
        sharedHost.withLock { $0 = host }
        let variables = ProcessInfo.processInfo.environment
        let container = URL(fileURLWithPath: variables["EXTHOST_EXTENSION_CONTAINER"] ?? NSTemporaryDirectory())
        let environment = Environment(
            containerURL: container,
            groupContainers: parseGroups(variables["EXTHOST_GROUP_CONTAINERS"] ?? ""),
            rootURL: URL(fileURLWithPath: variables["EXTHOST_ROOT"] ?? "/nonexistent"),
            bundleIdentifier: variables["EXTHOST_BUNDLE_IDENTIFIER"] ?? name ?? "extension", welcome: welcome,
            host: host)
        ItemProviderConfiguration.temporaryDirectory = container.appendingPathComponent("tmp")
        ItemProviderConfiguration.securityScopeBroker = HostSecurityScopeBroker(host: host)
        if variables["EXTHOST_SECURITY_SCOPE_MODE"] == SecurityScopeMode.lenient.rawValue {
            ItemProviderConfiguration.securityScopeMode = .lenient
        }
        let ending = await run(environment, handler)
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
        _ = await host.waitForBye(timeout: .seconds(2))
        if case .completeRequest = ending { return 0 }
        return 1
    }

    @MainActor
    private static func run(
        _ environment: Environment, _ handler: @MainActor (ExtensionContext) async throws -> Void
    ) async -> Message {
        current = environment
        let context = ExtensionContext(inputItems: ProxyProviders.items(environment.welcome.context, environment.host))
        let signal = OutcomeSignal()
        context.onCompletion = { signal.set($0) }
        do {
            try await handler(context)
        } catch {
            if !context.isFinished { context.cancelRequest(withError: error) }
        }
        switch await signal.wait() {
        case .completed(let count, let leaks):
            for leak in leaks { log("leaked security scope: \(leak)", level: .error) }
            reportedOutcomes.sort { $0.attachment < $1.attachment }  // in place: 100 000 of them at most
            return .completeRequest(
                CompleteRequest(
                    outcomes: reportedOutcomes,
                    returnedItems: Array(repeating: ItemDescription(attachments: []), count: count)))
        case .cancelled(let error):
            return .cancelRequest(CancelRequest(error: wireError(error)))
        }
    }

    static func parseGroups(_ text: String) -> [String: URL] {
        var result: [String: URL] = [:]
        for entry in text.split(separator: ":") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            result[String(entry[..<equals])] = URL(fileURLWithPath: String(entry[entry.index(after: equals)...]))
        }
        return result
    }

    static func printError(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array((text + "\n").utf8))
    }
}

/// An error as it travels to the host.
func wireError(_ error: any Error) -> WireError {
    if let error = error as? WireError { return error }
    if let error = error as? ItemProviderError {
        return WireError(domain: error.domain, code: error.code.rawValue, message: error.message)
    }
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
