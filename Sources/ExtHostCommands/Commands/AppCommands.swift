import AppGroups
import ExtensionHost
import Foundation
import HostSystem

/// `exthost app …`: what the main app sees.
enum AppCommands {
    static var all: [CommandSpec] { [inbox, run] }

    static let inbox = CommandSpec(
        ["app", "inbox"], summary: "List the entries committed to a group since the app's cursor.",
        options: [
            .value("group", "GROUP", "The App Group (default: the one group the installed apps are entitled to)."),
            .value(
                "as-bundle", "APP", "The app bundle (default: the one .app under <root>/Bundles entitled to GROUP)."),
            ContainerSupport.defineOption, ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag("consume", "Move the cursor past what is listed."),
            .value("wait", "SECONDS", "Wait up to SECONDS for an entry when none is pending (exit 1 if none came)."),
            .flag("json", "Machine output."),
        ],
        discussion: """
            The cursor lives in the app's own container (Data/Application/<UUID>), so two apps of one group each
            have their own. Waiting uses the commit notification the store posts after each commit.
            """
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let group = try ContainerSupport.group(parsed.value("group") ?? ContainerSupport.onlyGroup(on: root))
        let app = try ContainerSupport.appIdentity(for: group, root: root, parsed, context)
        let inbox = try ContainerSupport.mapped { try AppGroupInbox(group: group, app: app, root: root) }
        let wait = try parsed.number("wait")
        let items = try ContainerSupport.mapped {
            if let wait { return try inbox.waitForEntries(timeout: wait) }
            return try inbox.pending()
        }
        if parsed.flag("consume"), let last = items.last {
            try ContainerSupport.mapped { try inbox.consume(through: last.entry.sequence) }
        }
        if parsed.flag("json") {
            context.printJSON(
                [("group", .string(group.rawValue)), ("app", .string(app.bundleIdentifier))], array: "items",
                count: items.count
            ) { ContainerSupport.json(items[$0].entry, url: items[$0].url) }
        } else if items.isEmpty {
            context.print("no new entries for \(app.bundleIdentifier) in \(group)")
        } else {
            for item in items { context.print("\(ContainerSupport.line(item.entry))  \(item.url.path)") }
        }
        return wait != nil && items.isEmpty ? .failure : .success
    }

    static let run = CommandSpec(
        ["app", "run"], summary: "Run an installed app's program as the device would (its containers, its groups).",
        arguments: "BUNDLE-ID [ARGUMENTS…]", positionalCount: 1...Int.max,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value("timeout", "SECONDS", "Kill it after this wall time (default 60)."),
            .flag("json", "Machine output."),
        ],
        discussion: """
            The program (the app bundle's CFBundleExecutable, copied in by 'exthost install') runs confined by the
            same launcher as an extension, with HOME and TMPDIR in its data container and its App Group containers
            granted: FileManager.containerURL(forSecurityApplicationGroupIdentifier:) and UserDefaults(suiteName:)
            answer as on a device. Its output is printed; the exit status is the program's (1 when it was killed).
            """
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        guard let launcher = SandboxPolicy.launcherNextToExecutable() else {
            throw CommandError.failed("exthost-sandbox-exec is not next to this executable; build the package first")
        }
        var timeout = Duration.seconds(60)
        if let seconds = try parsed.number("timeout") {
            guard seconds > 0 else { throw CommandError.usage("--timeout must be positive") }
            timeout = .milliseconds(Int(seconds * 1000))
        }
        let report: AppRunReport
        do {
            report = try await ExtensionHost.runApp(
                parsed.positionals[0], on: root, launcher: launcher, arguments: Array(parsed.positionals.dropFirst()),
                timeout: timeout)
        } catch let error as ShareError {
            throw error.isBadInput ? CommandError.input(error.message) : CommandError.failed(error.message)
        }
        if parsed.flag("json") {
            context.printJSON(
                .object([
                    ("bundleIdentifier", .string(report.bundleIdentifier)), ("executable", .string(report.executable)),
                    ("pid", .int(report.pid)), ("exitStatus", .string(report.exitStatus)),
                    ("sandboxEnforced", .bool(report.sandboxEnforced)), ("output", .string(report.output)),
                ]))
        } else {
            context.write(report.output, toError: false)
        }
        if report.succeeded { return .success }
        if !parsed.flag("json") { context.printError("\(report.bundleIdentifier): \(report.exitStatus)") }
        return .failure
    }
}
