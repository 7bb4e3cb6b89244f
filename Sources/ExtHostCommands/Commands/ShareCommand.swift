import ActivationRules
import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HeadlessScreens
import HostSystem
import ItemProviders
import Payloads
import XcodeProjects

/// `exthost share`: the whole pipeline — the rule, the sandboxed extension, the App Group.
enum ShareCommand {
    static var all: [CommandSpec] { [share] }

    static let share = CommandSpec(
        ["share"],
        summary: "Share items with an extension: rule, sandboxed extension process, App Group (exit 0, 1, 2, 3).",
        arguments: "[ITEMS]", positionalCount: 0...1,
        options: [
            .value(.payload, "NAME", "Share a named payload preset instead of ITEMS."),
            .value(
                .activityItems, "FILE.json",
                "Share a sharing app's activity items, built as the share sheet hands them to this extension "
                    + "(see 'exthost sheet --help')."),
            .value(.rule, "RULE.plist", "The activation rule (default: the extension's Info.plist)."),
            .value(
                .importProject, "PATH",
                "Import this Xcode project first (as 'exthost import PATH' does) and share into its first extension."),
            .value(
                .extension, "BUNDLE.appex",
                "The extension bundle (default: the first installed .appex, else exthost's generic one)."),
            .value(
                .extensionExecutable, "PATH",
                "Run this program as the extension: as the installed .appex whose CFBundleExecutable it is, else as "
                    + "exthost's generic one (Bundle.main is that bundle; default program: the bundle's own)."),
            .value(.group, "GROUP", "The App Group to write (default: the extension's first entitled group)."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.lenient, "Open-in-place files work without startAccessingSecurityScopedResource() (simulator)."),
            .value(.memoryLimit, "MiB", "The extension's memory limit on its real footprint (default 120)."),
            .value(.timeout, "SECONDS", "Kill the extension after this wall time (default 60)."),
            .value(.openFiles, "N", "The extension's open-file limit (default 256)."),
            .value(.processes, "N", "The most processes the extension may run (default 32)."),
            .values(
                .extensionArgument, "ARG",
                "An argument for --extension-executable (repeatable; any value, also one beginning with '-').",
                anyValue: true),
            .value(
                .memoryEnforcement, "KIND",
                "best (a memory cgroup, else RLIMIT_DATA; default), rlimit-data, or watchdog (no kernel limit)."),
            .flag(
                .apiOnlyScopes,
                "Enforce security scopes in exthost's API only, as on a kernel without seccomp user notification."),
            .value(.shuffleLoads, "SEED", "Complete the extension's loads in an order drawn from SEED (order bugs)."),
            .values(.declarations, "PLIST", "More type declarations (Info.plist files) for the rule and the items."),
            .value(
                .ui, "STEPS",
                "The scripted user of a view-controller extension: a file, or steps inline (';' or a newline between "
                    + "them): tap TITLE, tap #ID, type TEXT, alert ACTION, select ROW, wait [SECONDS]."),
            .value(.html, "FILE.html", "Also write the extension's screens as a page (a view-controller extension)."),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            ITEMS is a folder, an archive or a file (see 'exthost payload show'); or a preset (--payload), or a sharing
            app's activity items (--activity-items, as 'exthost sheet' reads them). The rule is evaluated first; when
            it does not activate, the explanation is printed and the exit status is 3. Otherwise the extension runs
            as a separate process under exthost-sandbox-exec: Landlock (read-only the runtime, read-write its own
            container Data/PluginKitPlugin/<UUID> and its App Group containers, nothing else), no capabilities,
            no_new_privs, its own session, one socket (fd 3). Files reach it as descriptors; its output is the log.
            Over a limit it is killed (SIGKILL) and the report says which limit, the peak and what it was doing.
            A view-controller extension (its Info.plist names a UIViewController, or a storyboard) is shown as
            iOS shows its sheet; without --ui a compose sheet gets 'tap Post' and any other view controller is
            left alone until it completes or times out. The report gains the life-cycle calls in order, each
            step with the screen after it (text and JSON), and what went wrong; a step that names nothing on
            screen exits 2 naming its line.
            Exit: 0 completed, 1 cancelled/crashed/killed, 2 bad input, 3 the rule did not activate.
            """,
        examples: ["exthost init Demo && exthost share Demo/items"]
    ) { parsed, context in
        try await run(parsed, context)
    }

    /// The script of `--ui`: the file it names, else the steps inline.
    /// - Throws: ``CommandError`` (exit 2) naming the line and column of a step that cannot be read.
    static func userScript(_ parsed: ParsedArguments, _ context: CommandContext) throws -> (UIScript, String?)? {
        guard let value = parsed[.ui] else { return nil }
        let file = context.resolve(value)
        var isDirectory: ObjCBool = false
        let isFile =
            FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        let text: String
        if isFile {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw CommandError.input("\(value): cannot read the script")
            }
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = value
        }
        do {
            return (try UIScript.parse(text, source: isFile ? value : nil), isFile ? value : nil)
        } catch {
            throw CommandError.input("\(error)")
        }
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let root = try ContainerSupport.root(parsed, context)
        var parsed = parsed
        if let project = parsed[.importProject] {
            // A CI job in two lines: import (a no-op when nothing changed), then share.
            let report = try await ImportCommand.importProject(
                context.resolve(project), parsed, context, device: root, progress: false)
            context.printError(
                "imported \(report.project): "
                    + (report.unchanged
                        ? "unchanged" : "built in \(String(format: "%.1f", report.seconds.build ?? 0)) s and installed")
            )
            if parsed[.extension] == nil, let first = report.extensions.first {
                parsed.options[OptionKey<String>.extension.name] = [ImportCommand.installedExtension(report, first)]
            }
        }
        var standIn: ExtensionStandIn?
        if parsed[.extension] == nil, let path = parsed[.extensionExecutable] {
            standIn = try ContainerSupport.mapped { try ExtensionStandIn.choose(for: context.resolve(path), on: root) }
        }
        let bundleURL = try standIn?.bundle ?? extensionBundle(parsed, context, root: root)
        let programs = try Executables.programs()
        let items: ShareRequest.Items
        let itemsName: String?
        let given = [parsed.positionals.first, parsed[.payload], parsed[.activityItems]].compactMap { $0 }
        guard given.count == 1 else {
            throw CommandError.usage(
                given.isEmpty
                    ? "exthost share needs ITEMS (a folder, archive or file), --payload NAME or --activity-items FILE"
                    : "exthost share: give one of ITEMS, --payload NAME, --activity-items FILE")
        }
        if let path = parsed.positionals.first {
            (items, itemsName) = (.path(context.resolve(path)), path)
        } else if let name = parsed[.payload] {
            (items, itemsName) = (.preset(name), nil)
        } else {
            // The sharing app's activity items, built into extension items as the sheet builds them for
            // the extension chosen (its bundle identifier is the activity type).
            let file = parsed[.activityItems] ?? ""
            let activityItems: ActivityItems
            do {
                activityItems = try ActivityItems.load(contentsOf: context.resolve(file))
            } catch {
                throw CommandError.input("\(error)")
            }
            let activityType = try ContainerSupport.mapped { try BundleIdentity.load(bundle: bundleURL) }
                .bundleIdentifier
            items = .built { registry in try activityItems.payload(for: activityType, registry: registry) }
            itemsName = "\(file) (activity items for \(activityType))"
        }
        var request = ShareRequest(items: items, root: root, extensionBundle: bundleURL, programs: programs)
        request.itemsName = itemsName
        if let rule = parsed[.rule] {
            request.ruleFile = context.resolve(rule)
            request.ruleName = rule
        }
        request.declarations = parsed[.declarations].map { context.resolve($0) }
        request.group = parsed[.group]
        request.lenient = parsed[.lenient]
        request.kernelScopes = !parsed[.apiOnlyScopes]
        request.limits = try limits(parsed)
        if let seed = parsed[.shuffleLoads] {
            guard let value = UInt64(seed) else {
                throw CommandError.usage("--shuffle-loads needs a number, not '\(seed)'")
            }
            request.shuffleLoadsSeed = value
        }
        if let path = parsed[.extensionExecutable] {
            request.extensionExecutable = context.resolve(path)
            request.extensionArguments = parsed[.extensionArgument]
            request.standIn =
                standIn?.reason
                ?? "\(path) runs as the extension \(bundleURL.path) (--extension); Bundle.main is that bundle"
        }
        request.handOff = try? DeviceHandOff.make(on: root)
        if let (script, source) = try userScript(parsed, context) {
            request.userScript = script
            request.userScriptSource = source
        }
        if SandboxPolicy.kernelLandlockABI == 0 {
            context.printError(
                "WARNING: this kernel offers no Landlock: the extension runs UNCONFINED (the report says so)")
        }
        let showsProgress = context.isTerminal && !parsed[.json]
        if showsProgress {
            request.onProgress = { served, total, activity in
                let done = min(served, total)
                let filled = done * 24 / total
                let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 24 - filled)
                let what = (activity ?? "").prefix(60)
                context.write("\r\u{1B}[K[\(bar)] \(done)/\(total) \(what)", toError: true)
            }
        }
        let report: ShareReport
        do {
            report = try await ExtensionHost.share(request)
        } catch {
            for diagnostic in error.diagnostics { context.printError(RuleCommands.rendered(diagnostic, context)) }
            // A rule with errors is said by its located diagnostics alone.
            if error.kind == .invalidRule { return .usage }
            throw CommandError(error)
        }
        if showsProgress { context.write("\r\u{1B}[K", toError: true) }
        if report.extension?.sandbox.scopeEnforcement == ScopeEnforcement.apiOnly.rawValue {
            context.printError(
                "WARNING: this kernel offers no seccomp user notification: security scopes of in-place files are "
                    + "enforced only by exthost's API; code that opens them another way is NOT stopped (the report says api-only)"
            )
        }
        guard report.activated else {
            if parsed[.json] {
                context.printJSON(try JSONValue(encoding: report))
            } else {
                context.print(
                    "\(report.payload): the rule in \(report.rule) \(RuleCommands.verdict(false)); "
                        + "the extension does not appear in the share sheet")
                if let explanation = report.explanation {
                    context.print(TreeRenderer(colors: context.usesColor).render(explanation))
                }
            }
            return .no
        }
        if let path = parsed[.html] {
            guard let page = ShareReportRendering(report: report).screensPage else {
                throw CommandError.failed(
                    "--html: the extension showed no screen (it is not a view controller, or it ended before its sheet appeared)"
                )
            }
            do {
                try Data(page.utf8).write(to: context.resolve(path), options: .atomic)
            } catch {
                throw CommandError.failed("cannot write \(path): \(error.localizedDescription)")
            }
        }
        if parsed[.json] {
            let (leading, trailing) = try ShareReportRendering(report: report).jsonParts()
            try context.printJSON(leading, array: "attachments", count: report.attachments.count, trailing: trailing) {
                try JSONValue(encoding: report.attachments[$0])
            }
        } else {
            context.print(ShareReportRendering(report: report).text)
        }
        return report.completed ? .success : .failure
    }

    static func limits(_ parsed: ParsedArguments) throws -> ExtensionLimits {
        var limits = ExtensionLimits()
        if let mebibytes = try parsed.value(.memoryLimit) {
            guard mebibytes > 0 else { throw CommandError.usage("--memory-limit must be positive") }
            limits.memoryBytes = Int(mebibytes * 1_048_576)
        }
        if let seconds = try parsed.value(.timeout) {
            guard seconds > 0 else { throw CommandError.usage("--timeout must be positive") }
            limits.timeout = .milliseconds(Int(seconds * 1000))
        }
        if let count = try parsed.value(.openFiles) { limits.openFiles = max(16, count) }
        if let count = try parsed.value(.processes) { limits.processes = max(1, count) }
        if let kind = parsed[.memoryEnforcement] {
            guard let preference = MemoryEnforcement.Preference(rawValue: kind) else {
                throw CommandError.usage("--memory-enforcement is best, rlimit-data or watchdog, not '\(kind)'")
            }
            limits.memoryEnforcement = preference
        }
        return limits
    }

    /// `--extension`, else the first installed `.appex`, else the generic app's extension, which is
    /// installed for the purpose (a device with nothing installed still shares).
    static func extensionBundle(_ parsed: ParsedArguments, _ context: CommandContext, root: DeviceRoot) throws -> URL {
        if let path = parsed[.extension] {
            let url = context.resolve(path)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("Info.plist").path) else {
                throw CommandError.input("\(path): not an extension bundle (no Info.plist)")
            }
            return url
        }
        if let first = root.bundleURLs().first(where: { $0.pathExtension == "appex" }) { return first }
        let bundle = try ContainerSupport.mapped { try GenericApp.install(on: root) }
        context.printError(
            "note: no extension is installed on \(root.url.path); installed exthost's generic app and its share "
                + "extension \(GenericApp.extensionIdentifier) (App Group \(GenericApp.group))")
        return bundle
    }
}
