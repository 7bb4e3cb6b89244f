import ActivationRules
import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Payloads

/// `exthost share`: the whole pipeline — the rule, the sandboxed extension, the App Group.
enum ShareCommand {
    static var all: [CommandSpec] { [share] }

    static let share = CommandSpec(
        ["share"],
        summary: "Share items with an extension: rule, sandboxed extension process, App Group (exit 0, 1, 2, 3).",
        arguments: "[ITEMS]", positionalCount: 0...1,
        options: [
            .value("payload", "NAME", "Share a named payload preset instead of ITEMS."),
            .value("rule", "RULE.plist", "The activation rule (default: the extension's Info.plist)."),
            .value(
                "extension", "BUNDLE.appex", "The extension bundle (default: the first .appex under <root>/Bundles)."),
            .value(
                "extension-executable", "PATH",
                "Run this program as the extension (built on ExtensionRuntime; default: exthost's save-to-group)."),
            .value("group", "GROUP", "The App Group to write (default: the extension's first entitled group)."),
            ContainerSupport.rootOption,
            .flag("lenient", "Open-in-place files work without startAccessingSecurityScopedResource() (simulator)."),
            .value("memory-limit", "MiB", "The extension's memory limit on its real footprint (default 120)."),
            .value("timeout", "SECONDS", "Kill the extension after this wall time (default 60)."),
            .value("open-files", "N", "The extension's open-file limit (default 256)."),
            .value("processes", "N", "The most processes the extension may run (default 32)."),
            .flag("json", "Print one JSON report."),
        ],
        discussion: """
            ITEMS is a folder, an archive or a file (see 'exthost payload show'). The rule is evaluated first; when
            it does not activate, the explanation is printed and the exit status is 3. Otherwise the extension runs
            as a separate process under exthost-sandbox-exec: Landlock (read-only the runtime, read-write its own
            container Data/PluginKitPlugin/<UUID> and its App Group containers, nothing else), no capabilities,
            no_new_privs, its own session, one socket (fd 3). Files reach it as descriptors; its output is the log.
            Over a limit it is killed (SIGKILL) and the report says which limit, the peak and what it was doing.
            Exit: 0 completed, 1 cancelled/crashed/killed, 2 bad input, 3 the rule did not activate.
            """
    ) { parsed, context in
        try await run(parsed, context)
    }

    struct Setup: Sendable {
        var ruleURL: URL
        var bundleURL: URL
        var identity: BundleIdentity
        var group: AppGroupIdentifier
        var root: DeviceRoot
        var limits: ExtensionLimits
        var executable: String
        var arguments: [String]
        var launcher: String
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let started = ContinuousClock.now
        let root = ContainerSupport.root(parsed, context)
        let bundleURL = try extensionBundle(parsed, context, root: root)
        let identity = try ContainerSupport.mapped { try BundleIdentity.load(bundle: bundleURL) }
        let groupText = parsed.value("group") ?? identity.applicationGroups.first
        guard let groupText else {
            throw CommandError.input(
                "\(identity.bundleIdentifier) is entitled to no App Group (\(identity.entitlementsURL?.path ?? "no entitlements file")); pass --group"
            )
        }
        let group = try ContainerSupport.group(groupText)
        try ContainerSupport.mapped { try identity.requireEntitlement(to: group) }
        var limits = ExtensionLimits()
        if let mebibytes = try parsed.number("memory-limit") {
            guard mebibytes > 0 else { throw CommandError.usage("--memory-limit must be positive") }
            limits.memoryBytes = Int(mebibytes * 1_048_576)
        }
        if let seconds = try parsed.number("timeout") {
            guard seconds > 0 else { throw CommandError.usage("--timeout must be positive") }
            limits.timeout = .milliseconds(Int(seconds * 1000))
        }
        if let count = try parsed.integer("open-files") { limits.openFiles = max(16, count) }
        if let count = try parsed.integer("processes") { limits.processes = max(1, count) }
        guard let launcher = SandboxPolicy.launcherNextToExecutable() else {
            throw CommandError.failed("exthost-sandbox-exec is not next to this executable; build the package first")
        }
        let (executable, arguments) = try extensionProgram(parsed, context)
        let setup = Setup(
            ruleURL: parsed.value("rule").map { context.resolve($0) } ?? bundleURL.appendingPathComponent("Info.plist"),
            bundleURL: bundleURL, identity: identity, group: group, root: root, limits: limits, executable: executable,
            arguments: arguments, launcher: launcher)
        return try await share(setup, parsed, context, started: started)
    }

    /// The main-actor part: the payload's providers live here.
    @MainActor
    static func share(
        _ setup: Setup, _ parsed: ParsedArguments, _ context: CommandContext, started: ContinuousClock.Instant
    )
        async throws -> ExitCode
    {
        let rulePath = parsed.value("rule") ?? setup.ruleURL.path
        let payload = try loadPayload(parsed, context, rulePath: setup.ruleURL.path)
        let ruleStart = ContinuousClock.now
        let (loaded, diagnostics) = try RuleCommands.loadRule(
            setup.ruleURL.path, parsed, context, options: ActivationOptions())
        guard let rule = loaded else {
            for diagnostic in diagnostics { context.printError(RuleCommands.rendered(diagnostic, context)) }
            throw CommandError.input("cannot read the rule in \(rulePath)")
        }
        let result = rule.explain(payload.activationPayload())
        let ruleTime = ContinuousClock.now - ruleStart
        let errors = (diagnostics + rule.diagnostics + result.diagnostics).filter { $0.severity == .error }
        if !errors.isEmpty {
            for diagnostic in errors { context.printError(RuleCommands.rendered(diagnostic, context)) }
            return .usage
        }
        guard result.activated == true else {
            if parsed.flag("json") {
                context.printJSON(
                    .object([
                        ("activated", .bool(false)), ("rule", .string(rulePath)), ("payload", .string(payload.source)),
                        ("explanation", RuleCommands.jsonValue(result.explanation)),
                    ]))
            } else {
                context.print(
                    "\(payload.source): the rule in \(rulePath) \(RuleCommands.verdict(result.activated)); "
                        + "the extension does not appear in the share sheet")
                context.print(TreeRenderer(colors: context.usesColor).render(result.explanation))
            }
            return .no
        }

        // Containers: the extension's own (tmp/ emptied), and each App Group it is entitled to.
        let (container, groups, store) = try ContainerSupport.mapped {
            let container = try setup.root.dataContainer(for: setup.identity)
            let tmp = container.url.appendingPathComponent("tmp")
            try? FileManager.default.removeItem(at: tmp)
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
            var groups: [String: URL] = [:]
            for name in setup.identity.applicationGroups {
                guard let identifier = AppGroupIdentifier(rawValue: name) else { continue }
                groups[name] = try setup.root.groupContainer(identifier, as: setup.identity).url
            }
            let store = try AppGroupStore.open(setup.group, as: setup.identity, root: setup.root)
            return (container, groups, store)
        }
        // The commit notification's counter lives in the root: granted as one file.
        let notification = store.commitNotification
        _ = try? notification.count()
        var launch = ExtensionLaunch(
            executable: setup.executable, arguments: setup.arguments, launcher: setup.launcher,
            process: ProcessEnvironment(
                bundleIdentifier: setup.identity.bundleIdentifier, bundlePath: setup.bundleURL.path,
                containerPath: container.url.path, groupContainers: groups.mapValues(\.path),
                rootPath: setup.root.url.path, scopeMode: parsed.flag("lenient") ? .lenient : .strict),
            limits: setup.limits)
        if FileManager.default.fileExists(atPath: notification.fileURL.path) {
            launch.sharedFiles = [notification.fileURL.path]
        }
        if SandboxPolicy.kernelLandlockABI == 0 {
            context.printError(
                "WARNING: this kernel offers no Landlock: the extension runs UNCONFINED (the report says so)")
        }
        let source = payload.source
        let session = ProviderSession(
            items: payload.items, appGroups: [setup.group.rawValue], lenient: parsed.flag("lenient"))
        let before = (try? store.entries().last?.sequence) ?? 0
        let showsProgress = context.isTerminal && !parsed.flag("json")
        if showsProgress {
            let total = max(1, session.context.items.reduce(0) { $0 + $1.attachments.count })
            launch.onProgress = { served, activity in
                let done = min(served, total)
                let filled = done * 24 / total
                let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 24 - filled)
                let what = (activity ?? "").prefix(60)
                context.write("\r\u{1B}[K[\(bar)] \(done)/\(total) \(what)", toError: true)
            }
        }
        let report: ExtensionReport
        do {
            report = try await ExtensionHost.run(launch, session: session)
        } catch {
            throw CommandError.failed("cannot start the extension \(setup.executable): \(error)")
        }
        if showsProgress { context.write("\r\u{1B}[K", toError: true) }
        let committed = (try? store.entries(after: before)) ?? []
        let output = ShareReport(
            setup: setup, payload: source, context: session.context, report: report,
            groupURL: store.container.url,
            containerURL: container.url, committed: committed, ruleTime: ruleTime, total: ContinuousClock.now - started)
        if parsed.flag("json") {
            let attachments = output.attachments
            context.printJSON(output.leading, array: "attachments", count: attachments.count, trailing: output.trailing)
            {
                ShareReport.attachmentJSON(attachments[$0])
            }
        } else {
            context.print(output.text)
        }
        return report.outcome == .completed ? .success : .failure
    }

    /// ITEMS or the preset, typed with the system's types plus the rule's bundle declarations
    /// (and its app's), as `exthost rule check` types them.
    static func loadPayload(_ parsed: ParsedArguments, _ context: CommandContext, rulePath: String) throws -> Payload {
        let registry = RuleCommands.payloadRegistry(forRule: rulePath, parsed, context)
        return try PayloadCommands.load(parsed, context, command: "exthost share", registry: registry)
    }

    static func extensionBundle(_ parsed: ParsedArguments, _ context: CommandContext, root: DeviceRoot) throws -> URL {
        if let path = parsed.value("extension") {
            let url = context.resolve(path)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("Info.plist").path) else {
                throw CommandError.input("\(path): not an extension bundle (no Info.plist)")
            }
            return url
        }
        guard let first = root.bundleURLs().first(where: { $0.pathExtension == "appex" }) else {
            throw CommandError.input(
                "no extension bundle under \(root.bundlesURL.path); pass --extension BUNDLE.appex or --root DIR")
        }
        return first
    }

    /// The extension program: `--extension-executable PATH`, else `exthost __extension` (the
    /// `exthost` next to this executable, which is this executable when run from the command line).
    static func extensionProgram(_ parsed: ParsedArguments, _ context: CommandContext) throws -> (String, [String]) {
        if let path = parsed.value("extension-executable") {
            let url = context.resolve(path)
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw CommandError.input("\(path): not an executable file")
            }
            return (url.path, [])
        }
        return (try Executables.exthost(), [ExtensionCommand.name])
    }
}
