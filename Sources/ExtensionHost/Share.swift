public import ActivationRules
public import AppGroups
public import ExtensionIPC
public import Foundation
public import HeadlessScreens
import HostSystem
import ItemProviders
public import Payloads
public import UniformTypes

/// One share, as `exthost share` runs it: what to share, with which extension, on which device.
public struct ShareRequest: Sendable {
    /// What the sharing app shares.
    public enum Items: Sendable {
        /// A folder, an archive or a file (a folder with `share.json` is a manifest).
        case path(URL)
        /// A named preset of a real app's share (`safari-webpage`, …).
        case preset(String)
        /// Items built by the caller (the share sheet turns activity items into them), typed with
        /// the registry it is given.
        case built(@MainActor @Sendable (TypeRegistry) throws -> Payload)
    }

    /// What is shared.
    public var items: Items
    /// How the items are named in the report (default: the path, or `preset NAME`).
    public var itemsName: String?
    /// The device.
    public var root: DeviceRoot
    /// The extension bundle (`.appex`).
    public var extensionBundle: URL
    /// The activation rule file (default: the extension's `Info.plist`).
    public var ruleFile: URL?
    /// How the rule file is named in messages (default: its path).
    public var ruleName: String?
    /// More type declaration files the rule and the items are typed with.
    public var declarations: [URL] = []
    /// The program to run as the extension; nil: the bundle's `CFBundleExecutable` when the bundle
    /// holds it, else ``builtInExtension``.
    public var extensionExecutable: URL?
    /// Arguments for ``extensionExecutable`` (a device passes none; test programs take a mode).
    public var extensionArguments: [String] = []
    /// Why ``extensionExecutable`` runs as ``extensionBundle`` (``ExtensionStandIn/reason``), for the
    /// report; nil when the bundle was named or holds the program.
    public var standIn: String?
    /// The program that runs an extension bundle holding none (default: the programs' built-in
    /// share extension, `exthost-builtin-extension __extension`, else `exthost __extension`).
    public var builtInExtension: ProgramInvocation?
    /// The App Group to write (default: the extension's first entitled group).
    public var group: String?
    /// Open-in-place files readable without a started scope (the simulator).
    public var lenient = false
    /// The extension's limits.
    public var limits = ExtensionLimits()
    /// When set, loads complete in an order shuffled from this seed.
    public var shuffleLoadsSeed: UInt64?
    /// Whether the kernel may enforce security scopes (false: the API alone, as on a machine
    /// without seccomp user notification).
    public var kernelScopes = true
    /// A launcher started earlier for this share (``PreparedLauncher``; nil: the share starts one
    /// itself as it begins). One a share does not take is ended with it.
    public var preparedLauncher: PreparedLauncher?
    /// The sandbox launcher (`exthost-sandbox-exec`).
    public var launcher: String
    /// What happens when the extension asks to open a URL: Launch Services' choice of app and the
    /// delivery to it (nil: nothing can open, and the report says so).
    public var handOff: URLHandOff?
    /// The scripted user's steps for a view-controller extension (nil: a compose sheet gets `tap
    /// Post`, any other view controller is left alone until it completes or times out).
    public var userScript: UIScript?
    /// Where ``userScript`` came from, named in errors (a file; nil: inline).
    public var userScriptSource: String?
    /// Called as loads are served (for a progress bar).
    public var onProgress: (@Sendable (_ loadsServed: Int, _ total: Int, _ activity: String?) -> Void)?
    /// The attachments per page of the context the extension is given (``ExtensionLaunch/contextPageSize``):
    /// a share of more goes to the extension in pages.
    public var contextPageSize = ExtensionLaunch.defaultContextPageSize

    /// A share of `items` with the extension at `extensionBundle` on `root`, launched through the
    /// launcher of `programs` (whose built-in share extension runs a bundle without a program).
    public init(items: Items, root: DeviceRoot, extensionBundle: URL, programs: InstalledPrograms) {
        self.items = items
        self.root = root
        self.extensionBundle = extensionBundle
        self.launcher = programs.launcher
        self.builtInExtension = programs.builtInShareExtension
    }
}

/// What went wrong before a share could run (after it starts, everything is in the report).
///
/// Callers decide by ``kind`` (the command line's exit code, the sheet's error), never by the text.
public struct ShareError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// Bad input (a missing file, unreadable items or rule, a bundle without entitlements or
        /// without a program, an app not installed): the command line exits 2.
        case badInput
        /// The activation rule was read but has errors; ``diagnostics`` locate each one, and are the
        /// whole message on the command line. Bad input too (exit 2).
        case invalidRule
        /// A failure to run at all (the extension or app could not be started, or ended before
        /// answering): exit 1.
        case failed
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The message, naming the file (and line and column) where one applies.
    public var message: String
    /// Located diagnostics of the rule, when the rule was the problem (``Kind/invalidRule``).
    public var diagnostics: [RuleDiagnostic]

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String, diagnostics: [RuleDiagnostic] = []) {
        self.kind = kind
        self.message = message
        self.diagnostics = diagnostics
    }

    /// The message.
    public var description: String { message }
}

/// Everything a share produced: the rule's verdict, how the extension ran, what became of each
/// attachment, what was committed to the group. The JSON of `exthost share --json`.
public struct ShareReport: Codable, Sendable {
    /// Whether the rule activated the extension (false: nothing ran; see ``explanation``).
    public var activated: Bool
    /// What was shared (a path or `preset NAME`).
    public var payload: String
    /// The rule file.
    public var rule: String
    /// Why the rule did not activate (only then).
    public var explanation: Explanation?
    /// How the extension process ran (nil when it did not).
    public var `extension`: ExtensionRun?
    /// One row per attachment, in order.
    public var attachments: [Attachment]
    /// The App Group written.
    public var group: String?
    /// Its container.
    public var container: String?
    /// The extension's own container.
    public var extensionContainer: String?
    /// Entries committed to the group by this share.
    public var committed: Int
    /// What the host refused the extension.
    public var refusals: [String]
    /// The host paths the extension was granted read-only because an item hands it their file URL
    /// (a `public.file-url` object), as a device's sandbox extension grants them.
    public var grantedReadOnly: [String] = []
    /// Where the time went.
    public var timings: Timings
    /// What the extension logged through the runtime (`level: text`).
    public var messages: [String]
    /// Mistakes the extension made that a device punishes, explained (loads abandoned by an early
    /// completion, a second completion, a request never completed…).
    public var mistakes: [String]
    /// The extension's standard output and error.
    public var log: String
    /// Bytes of the log dropped past the limit.
    public var logDroppedBytes: Int
    /// What the extension handed back with `completeRequest(returningItems:)` (an action
    /// extension's result), when it returned anything.
    public var returnedItems: [ReturnedItem]?
    /// What ran after `completeRequest`/`cancelRequest` and what it cut off (loads whose completion
    /// never ran), as a device's model of the end has it; nil when the request never ended.
    public var requestEnd: RequestEndReport?
    /// The principal object the extension made, and how (from its `Info.plist`, or
    /// `NSExtensionMain`); nil for a program that does not say.
    public var principal: PrincipalDescription?
    /// Each URL the extension asked to open (the hand-over to its app): what it asked for, what iOS
    /// does with it on this device's iOS version, and whether the app received it.
    public var handOff: [HandOff] = []
    /// The extension's screen, for a view-controller extension: the life-cycle calls in order, each
    /// scripted step with the screen after it (text and JSON), what went wrong.
    public var userInterface: UserInterfaceReport?

    /// The extension process.
    public struct ExtensionRun: Codable, Sendable {
        /// `CFBundleIdentifier`.
        public var bundleIdentifier: String
        /// The program that ran.
        public var executable: String
        /// Its process id.
        public var pid: Int
        /// `completed`, `cancelled`, `crashed`, `killed-memory`, `killed-timeout`, `killed-processes`.
        public var outcome: String
        /// Why, in words.
        public var reason: String
        /// How the process ended (`exited 0`, `killed by SIGKILL`).
        public var exitStatus: String
        /// The peak real footprint.
        public var peakMemoryBytes: Int
        /// The peak resident size.
        public var peakResidentBytes: Int
        /// What it was doing last.
        public var activity: String?
        /// The limits it ran under.
        public var limits: Limits
        /// How it was confined.
        public var sandbox: Sandbox
        /// The error of `cancelRequest(withError:)`.
        public var cancellationError: String?
        /// The same error's domain, code and message.
        public var cancellation: WireError?
        /// The bundle the process ran as: its `Bundle.main`, whichever program ran.
        public var bundle: String?
        /// Why the program ran as ``bundle`` when it is not the bundle's own (``ExtensionStandIn``).
        public var standIn: String?
    }

    /// The limits an extension ran under.
    public struct Limits: Codable, Sendable {
        /// Memory, on the real footprint.
        public var memoryBytes: Int
        /// Wall time.
        public var timeoutSeconds: Double?
        /// Open files.
        public var openFiles: Int
        /// Processes.
        public var processes: Int
        /// What enforces memory beside the watchdog: `cgroup`, `rlimit-data` or `watchdog`.
        public var memoryEnforcement: String
    }

    /// The confinement the launcher reported.
    public struct Sandbox: Codable, Sendable {
        /// Whether Landlock confines the extension.
        public var enforced: Bool
        /// The launcher's status word.
        public var status: String?
        /// The Landlock ABI used (0: none).
        public var landlockABI: Int
        /// Whether TCP is denied.
        public var networkDenied: Bool
        /// Landlock scopes (`signal`, `abstract-unix`).
        public var scopes: [String]
        /// `no_new_privs`.
        public var noNewPrivileges: Bool
        /// The capability sets after dropping.
        public var capabilities: String?
        /// How the security scopes of in-place files were enforced: `kernel`, `api-only` (only
        /// exthost's API refused: code opening the file another way was not stopped) or `not-needed`.
        public var scopeEnforcement: String
    }

    /// What became of one attachment.
    public struct Attachment: Codable, Sendable {
        /// Its suggested name (or `attachment N`).
        public var name: String
        /// The type the extension loaded.
        public var type: String?
        /// `data`, `file` or `open-in-place`.
        public var kind: String?
        /// Bytes loaded.
        public var bytes: Int
        /// Time the load took.
        public var milliseconds: Double
        /// Where it went in the group container.
        public var destination: String?
        /// Why it failed.
        public var error: String?
    }

    /// Durations in milliseconds.
    public struct Timings: Codable, Sendable {
        /// Evaluating the rule.
        public var ruleMilliseconds: Double?
        /// Until the extension said hello.
        public var helloMilliseconds: Double?
        /// Until it completed or cancelled.
        public var finishedMilliseconds: Double?
        /// The extension's whole run.
        public var extensionMilliseconds: Double?
        /// The whole share.
        public var totalMilliseconds: Double?
    }

    /// Whether the extension completed the request.
    public var completed: Bool { `extension`?.outcome == ExtensionRunOutcome.completed.rawValue }
}

extension ExtensionHost {
    /// Runs one share as a device does: types the items, evaluates the rule, and when it activates
    /// launches the extension sandboxed and memory-limited, serves its loads, and reports how it
    /// ended and what it committed to its App Group.
    ///
    /// - Returns: the report (`activated == false` with the explanation when the rule said no).
    /// - Throws: ``ShareError`` when the share cannot start: unreadable items, rule or bundle, a
    ///   group the extension is not entitled to, a missing program.
    @MainActor
    public static func share(_ request: ShareRequest) async throws(ShareError) -> ShareReport {
        let started = ContinuousClock.now
        // The launcher first: its move into the memory cgroup (the kernel's slowest step of a
        // launch) overlaps everything below. Unused when the rule says no or the input is bad.
        let prepared =
            request.preparedLauncher ?? PreparedLauncher.start(launcher: request.launcher, limits: request.limits)
        do {
            let report = try await share(request, started: started, prepared: prepared)
            await prepared?.discard()
            return report
        } catch {
            await prepared?.discard()
            throw error
        }
    }

    @MainActor
    private static func share(
        _ request: ShareRequest, started: ContinuousClock.Instant, prepared: PreparedLauncher?
    ) async throws(ShareError) -> ShareReport {
        let identity = try badInput { try BundleIdentity.load(bundle: request.extensionBundle) }
        // An extension without an App Group (an action extension often has none) runs; it just has
        // no group to commit to. Naming a group it is not entitled to is bad input.
        var group: AppGroupIdentifier?
        if let groupText = request.group ?? identity.applicationGroups.first {
            let identifier = try badInput { try AppGroupIdentifier(validating: groupText) }
            try badInput { try identity.requireEntitlement(to: identifier) }
            group = identifier
        }
        let ruleURL = request.ruleFile ?? request.extensionBundle.appendingPathComponent("Info.plist")
        let ruleName = request.ruleName ?? ruleURL.path
        let (executable, arguments, isLibrary) = try program(for: request, identity: identity)

        // The items, typed as the share sheet types them: system types plus the declarations.
        let registry = TypeRegistry.declared(
            in: request.declarations + ActivationRule.bundleDeclarationFiles(for: ruleURL))
        var payload: Payload
        do {
            switch request.items {
            case .path(let url): payload = try Payload.load(url, registry: registry)
            case .preset(let name): payload = try Payload.preset(named: name)
            case .built(let make): payload = try make(registry)
            }
        } catch {
            throw ShareError(.badInput, "\(error)")
        }
        if let name = request.itemsName { payload.source = name }
        let extracted = payload.extractedDirectory
        defer { if let extracted { try? FileManager.default.removeItem(at: extracted) } }

        // The rule.
        let ruleStart = ContinuousClock.now
        let loaded: (rule: ActivationRule?, diagnostics: [RuleDiagnostic])
        do {
            loaded = try ActivationRule.load(
                contentsOf: ruleURL, name: ruleName, declarations: request.declarations, options: ActivationOptions())
        } catch {
            throw ShareError(.badInput, "\(error)")
        }
        guard let rule = loaded.rule else {
            throw ShareError(.badInput, "cannot read the rule in \(ruleName)", diagnostics: loaded.diagnostics)
        }
        // The fast evaluator first: a rule that activates needs no explanation (only one that does
        // not is explained in the report), and tracing every attachment of a large share cost
        // seconds and a tree of them.
        let verdict: ActivationResult?
        do {
            let prepared = PreparedPayload(payload.activationPayload(), options: rule.options)
            verdict = rule.activates(prepared) == true ? nil : rule.explain(prepared)
        }
        // What the payload says of each attachment serves only the rule: not held through the run.
        payload.descriptions = []
        let activated = verdict.map { $0.activated == true } ?? true
        let ruleTime = ContinuousClock.now - ruleStart
        let errors = (loaded.diagnostics + rule.diagnostics + (verdict?.diagnostics ?? [])).filter {
            $0.severity == .error
        }
        guard errors.isEmpty else {
            throw ShareError(.invalidRule, "the rule in \(ruleName) has errors", diagnostics: errors)
        }
        var report = ShareReport(
            activated: activated, payload: payload.source, rule: ruleName, attachments: [],
            committed: 0, refusals: [], timings: ShareReport.Timings(ruleMilliseconds: milliseconds(ruleTime)),
            messages: [], mistakes: [], log: "", logDroppedBytes: 0)
        guard activated else {
            report.explanation = verdict?.explanation
            return report
        }

        // Containers: the extension's own (tmp/ emptied), and each App Group it is entitled to.
        let root = request.root
        let (container, groups, store) = try badInput {
            let container = try root.dataContainer(for: identity)
            let tmp = container.url.appendingPathComponent("tmp")
            try? FileManager.default.removeItem(at: tmp)
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
            var groups: [String: String] = [:]
            for name in identity.applicationGroups {
                guard let identifier = AppGroupIdentifier(rawValue: name) else { continue }
                groups[name] = try root.groupContainer(identifier, as: identity).url.path
            }
            // Only what the run commits is read back: nothing of the group's history is held.
            let store = try group.map {
                try AppGroupStore.open($0, as: identity, root: root, retainingEntries: false)
            }
            return (container, groups, store)
        }
        let process = ProcessEnvironment(
            bundleIdentifier: identity.bundleIdentifier, bundlePath: request.extensionBundle.path,
            bundleExecutable: InstalledBundle.executableName(of: request.extensionBundle),
            containerPath: container.url.path, groupContainers: groups, rootPath: root.url.path,
            scopeMode: request.lenient ? .lenient : .strict, shuffleLoadsSeed: request.shuffleLoadsSeed,
            declarationFiles: ActivationRule.bundleDeclarationFiles(
                for: request.extensionBundle.appendingPathComponent("Info.plist")
            ).map(\.path))
        var launch = ExtensionLaunch(
            executable: executable, arguments: arguments, launcher: request.launcher, process: process,
            limits: request.limits)
        launch.isLibrary = isLibrary
        let extensionPoint =
            (InstalledBundle.info(request.extensionBundle)?["NSExtension"] as? [String: Any])?[
                "NSExtensionPointIdentifier"] as? String
        launch.handOff = HandOffContext(
            handOff: request.handOff, extensionPoint: extensionPoint, version: root.iosVersion,
            pasteboard: DevicePasteboard(root: root), bundleIdentifier: identity.bundleIdentifier)
        // The bundle is the extension's own, read-only (its Info.plist, its declarations).
        launch.extraReadOnlyPaths = [request.extensionBundle.path]
        launch.kernelScopes = request.kernelScopes
        launch.contextPageSize = request.contextPageSize
        // The commit notification's counter lives in the root: granted as one file.
        if let notification = store?.commitNotification {
            _ = try? notification.count()
            if FileManager.default.fileExists(atPath: notification.fileURL.path) {
                launch.sharedFiles = [notification.fileURL.path]
            }
        }
        let session = ProviderSession(
            items: payload.items, appGroups: group.map { [$0.rawValue] } ?? [], lenient: request.lenient,
            userScript: request.userScript)
        // A file URL an item hands over as an object is readable, as a device's sandbox extension makes it.
        launch.extraReadOnlyPaths += session.grantedReadOnlyPaths
        let total = max(1, session.context.items.reduce(0) { $0 + $1.attachments.count })
        if let onProgress = request.onProgress {
            launch.onProgress = { served, activity in onProgress(served, total, activity) }
        }
        let before = try? store?.mark()
        let run: ExtensionReport
        do {
            run = try await ExtensionHost.run(launch, session: session, prepared: prepared)
        } catch {
            throw ShareError(.failed, "cannot start the extension \(executable): \(error)")
        }
        // A bundle that cannot run (its principal class, its storyboard) is bad input: none of its
        // code ran, nothing was written.
        if let failure = run.bundleFailure { throw ShareError(.badInput, "\(failure)") }
        // A scripted step that names nothing on screen is bad input too; the extension was stopped there.
        if let failure = run.userInterface?.failure(source: request.userScriptSource) {
            throw ShareError(.badInput, "\(failure)")
        }
        // Sequence numbers are consecutive: the count needs no entry decoded.
        let after = try? store?.mark()
        let committed =
            before.flatMap { before in after.map { $0.journal == before.journal ? $0.sequence - before.sequence : 0 } }
            ?? 0
        report.extension = extensionRun(run, identity: identity, executable: executable)
        report.extension?.bundle = request.extensionBundle.path
        report.extension?.standIn = request.extensionExecutable == nil ? nil : request.standIn
        report.attachments = attachments(session.context, run)
        report.group = group?.rawValue
        report.container = store?.container.url.path
        report.extensionContainer = container.url.path
        report.committed = committed
        report.refusals = run.refusals + session.ungrantedFileURLs.map { "file URL not granted: \($0)" }
        report.grantedReadOnly = session.grantedReadOnlyPaths
        report.timings.helloMilliseconds = milliseconds(run.timings.hello)
        report.timings.finishedMilliseconds = milliseconds(run.timings.finished)
        report.timings.extensionMilliseconds = milliseconds(run.timings.total)
        report.timings.totalMilliseconds = milliseconds(ContinuousClock.now - started)
        report.messages = run.messages.map { "\($0.level.rawValue): \($0.text)" }
        report.mistakes = MistakeExplainer.mistakes(in: run, attachments: session.context)
        report.log = run.log
        report.logDroppedBytes = run.logDroppedBytes
        report.returnedItems = run.completion?.returned
        report.requestEnd = run.requestEnd
        report.principal = run.principal
        report.handOff = run.handOffs
        report.userInterface = run.userInterface
        return report
    }

    /// The program the extension runs as, its arguments, and whether it is a library the launcher
    /// loads (`lib<CFBundleExecutable>.so`, a dynamic-library product).
    private static func program(for request: ShareRequest, identity: BundleIdentity) throws(ShareError) -> (
        String, [String], Bool
    ) {
        if let url = request.extensionExecutable {
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw ShareError(.badInput, "\(url.path): not an executable file")
            }
            return (url.path, request.extensionArguments, false)
        }
        switch InstalledBundle.program(of: request.extensionBundle) {
        case .executable(let url): return (url.path, [], false)
        case .library(let url): return (url.path, [], true)
        case nil: break
        }
        guard let builtIn = request.builtInExtension else {
            throw ShareError(
                .badInput,
                "\(request.extensionBundle.path) holds no executable (CFBundleExecutable) and no built-in extension is available"
            )
        }
        return (builtIn.executable, builtIn.arguments, false)
    }

    private static func extensionRun(_ run: ExtensionReport, identity: BundleIdentity, executable: String)
        -> ShareReport.ExtensionRun
    {
        let sandbox = run.sandbox
        return ShareReport.ExtensionRun(
            bundleIdentifier: identity.bundleIdentifier, executable: executable, pid: Int(run.pid),
            outcome: run.outcome.rawValue, reason: run.reason, exitStatus: "\(run.status)",
            peakMemoryBytes: run.peakMemoryBytes, peakResidentBytes: run.peakResidentBytes, activity: run.activity,
            limits: ShareReport.Limits(
                memoryBytes: run.limits.memoryBytes, timeoutSeconds: milliseconds(run.limits.timeout).map { $0 / 1000 },
                openFiles: run.limits.openFiles, processes: run.limits.processes,
                memoryEnforcement: run.memoryEnforcement.rawValue),
            sandbox: ShareReport.Sandbox(
                enforced: sandbox?.isEnforced ?? false, status: sandbox?.status.rawValue,
                landlockABI: sandbox?.landlockABI ?? 0, networkDenied: sandbox?.networkDenied ?? false,
                scopes: sandbox?.scopes ?? [], noNewPrivileges: sandbox?.noNewPrivileges ?? false,
                capabilities: sandbox?.capabilities, scopeEnforcement: run.scopeEnforcement.rawValue),
            cancellationError: run.cancellation.map { "\($0.error.message) (\($0.error.domain) \($0.error.code))" },
            cancellation: run.cancellation?.error)
    }

    /// One row per attachment: the extension's outcome for it, or why there is none.
    private static func attachments(_ context: ContextDescription, _ run: ExtensionReport) -> [ShareReport.Attachment] {
        // By index: a linear search per attachment made 100 000 attachments take 5·10⁹ comparisons.
        // Outcomes in attachment order (what extensions report) are found by position; only others
        // are indexed, so a large share's outcomes are not copied into a dictionary.
        let outcomes = OutcomeIndex(run.completion?.outcomes ?? [])
        let cutOff = Dictionary(
            (run.requestEnd?.cutOff ?? []).compactMap { entry in entry.attachment.map { ($0, entry.what) } },
            uniquingKeysWith: { first, _ in first })
        let endedBy = run.requestEnd?.endedBy ?? "completeRequest"
        return context.items.flatMap(\.attachments).map { attachment in
            let name = attachment.suggestedName ?? "attachment \(attachment.index)"
            if outcomes[attachment.index] == nil, let load = cutOff[attachment.index] {
                return ShareReport.Attachment(
                    name: name, type: run.served[attachment.index]?.typeIdentifier, bytes: 0, milliseconds: 0,
                    error: "cut off by \(endedBy): \(load) never completed")
            }
            guard let outcome = outcomes[attachment.index] else {
                // An extension that reports no outcomes of its own: what it loaded, as the host served it.
                if let served = run.served[attachment.index] {
                    return ShareReport.Attachment(
                        name: name, type: served.typeIdentifier, kind: served.kind.rawValue, bytes: Int(served.bytes),
                        milliseconds: 0)
                }
                let why = run.outcome == .completed ? "not loaded by the extension" : "not loaded: \(run.reason)"
                return ShareReport.Attachment(name: name, bytes: 0, milliseconds: 0, error: why)
            }
            return ShareReport.Attachment(
                name: name, type: outcome.typeIdentifier, kind: outcome.kind?.rawValue, bytes: Int(outcome.byteCount),
                milliseconds: (outcome.milliseconds * 1000).rounded() / 1000, destination: outcome.destination,
                error: outcome.error.map { "\($0.message) (\($0.domain) \($0.code))" })
        }
    }

    /// The first outcome of each attachment: by position when the outcomes are the attachments
    /// 0, 1, 2, … in order, through a dictionary of positions otherwise.
    private struct OutcomeIndex {
        let outcomes: [AttachmentOutcome]
        let positions: [Int: Int]?

        init(_ outcomes: [AttachmentOutcome]) {
            self.outcomes = outcomes
            let inOrder = outcomes.indices.allSatisfy { outcomes[$0].attachment == $0 }
            positions =
                inOrder
                ? nil
                : Dictionary(
                    outcomes.indices.map { (outcomes[$0].attachment, $0) }, uniquingKeysWith: { first, _ in first })
        }

        subscript(attachment: Int) -> AttachmentOutcome? {
            guard let positions else { return outcomes.indices.contains(attachment) ? outcomes[attachment] : nil }
            return positions[attachment].map { outcomes[$0] }
        }
    }

    /// A duration in milliseconds, to the microsecond.
    package static func milliseconds(_ duration: Duration?) -> Double? {
        duration.map { ($0.milliseconds * 1000).rounded() / 1000 }
    }

    private static func badInput<T>(_ body: () throws -> T) throws(ShareError) -> T {
        do {
            return try body()
        } catch {
            throw ShareError(.badInput, "\(error)")
        }
    }
}
