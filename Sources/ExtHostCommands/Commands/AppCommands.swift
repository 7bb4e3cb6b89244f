import AppGroups
import ExtensionHost
import Foundation
import HostSystem

/// `exthost app …`: what the main app sees.
enum AppCommands {
    static var all: [CommandSpec] { [inbox, run, launch, terminate] }

    static let inbox = CommandSpec(
        ["app", "inbox"], summary: "List the entries committed to a group since the app's cursor.",
        options: [
            .value(.group, "GROUP", "The App Group (default: the one group the installed apps are entitled to)."),
            .value(
                .asBundle, "APP", "The app bundle (default: the one .app under <root>/Bundles entitled to GROUP)."),
            ContainerSupport.defineOption, ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.consume, "Move the cursor past what is listed."),
            .value(.after, "SEQUENCE", "List from after this sequence number instead of the app's cursor."),
            .value(.limit, "N", "List at most N entries (a page; the next page is --after the last sequence)."),
            .value(.wait, "SECONDS", "Wait up to SECONDS for an entry when none is pending (exit 1 if none came)."),
            .flag(.json, "Machine output."),
        ],
        discussion: """
            The cursor lives in the app's own container (Data/Application/<UUID>), so two apps of one group each
            have their own. Waiting uses the commit notification the store posts after each commit.
            """
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let group = try ContainerSupport.group(parsed[.group] ?? ContainerSupport.onlyGroup(on: root))
        let app = try ContainerSupport.appIdentity(for: group, root: root, parsed, context)
        let inbox = try ContainerSupport.mapped { try AppGroupInbox(group: group, app: app, root: root) }
        let wait = try parsed.value(.wait)
        let after = try parsed.value(.after).map { value in
            guard value >= 0, value == value.rounded() else {
                throw CommandError.usage("--after must be a sequence number")
            }
            return Int(value)
        }
        let limit = try parsed.value(.limit).map { value in
            guard value >= 1, value == value.rounded() else {
                throw CommandError.usage("--limit must be a positive whole number")
            }
            return Int(value)
        }
        // Without --wait the entries are listed as they are read from the journal, one at a time:
        // 100 000 of them never exist in memory at once.
        var waited: [InboxItem]?
        if let wait {
            waited = Array(
                try ContainerSupport.mapped { try inbox.waitForEntries(timeout: wait) }.prefix(limit ?? Int.max))
        }
        func forEachItem(_ body: (InboxItem) throws -> Void) throws {
            if let waited { return try waited.forEach(body) }
            try ContainerSupport.mapped { try inbox.forEachPending(after: after, limit: limit, body) }
        }
        var last: Int?
        if parsed[.json] {
            // Each entry is written straight from the journal record (no URL, no value tree): the
            // same text as its ContainerReports.Entry encoding.
            try context.printJSON(
                [("group", .string(group.rawValue)), ("app", .string(app.bundleIdentifier))], array: "items"
            ) { (emit: ((inout [UInt8]) -> Void) throws -> Void) in
                try forEachItem { item in
                    last = item.entry.sequence
                    try emit { ContainerReports.Entry.writeJSON(item.entry, filePath: item.path, indent: 2, into: &$0) }
                }
            }
        } else {
            try forEachItem { item in
                last = item.entry.sequence
                context.print("\(ContainerSupport.line(item.entry))  \(item.path)")
            }
            if last == nil { context.print("no new entries for \(app.bundleIdentifier) in \(group)") }
        }
        if parsed[.consume], let last {
            try ContainerSupport.mapped { try inbox.consume(through: last) }
        }
        return wait != nil && last == nil ? .failure : .success
    }

    static let run = CommandSpec(
        ["app", "run"], summary: "Run an installed app's program as the device would (its containers, its groups).",
        arguments: "BUNDLE-ID [ARGUMENTS…]", positionalCount: 1...Int.max,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(.timeout, "SECONDS", "Kill it after this wall time (default 60)."),
            .flag(.json, "Machine output."),
        ],
        discussion: """
            The program (the app bundle's CFBundleExecutable, copied in by 'exthost install'; the built-in app
            for a bundle without one) runs confined by the same launcher as an extension, with HOME and TMPDIR in
            its data container and its App Group containers granted:
            FileManager.containerURL(forSecurityApplicationGroupIdentifier:) and UserDefaults(suiteName:) answer
            as on a device. A program on the app life cycle (UIApplicationMain, an @main UIApplicationDelegate)
            runs its launch sequence, then is terminated. Its output is printed; the exit status is the
            program's (1 when it was killed).
            """,
        examples: ["exthost init Demo && exthost share Demo/items && exthost app run io.exthost.Generic"]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let programs = try Executables.programs()
        var options = try AppHandOff.options(programs)
        if let seconds = try parsed.value(.timeout) {
            guard seconds > 0 else { throw CommandError.usage("--timeout must be positive") }
            options.timeout = .milliseconds(Int(seconds * 1000))
        }
        options.arguments = Array(parsed.positionals.dropFirst())
        let report = try await AppHandOff.mapped {
            try await ExtensionHost.runApp(
                parsed.positionals[0], on: root, launcher: programs.launcher, options: options)
        }
        if parsed[.json] {
            try context.printJSON(encoding: report)
        } else {
            context.write(report.output, toError: false)
        }
        if report.succeeded { return .success }
        if !parsed[.json] {
            context.printError(
                "\(report.bundleIdentifier): \(report.launchFailure.map { "its program \(report.executable) \($0); " } ?? "")"
                    + report.exitStatus)
        }
        return .failure
    }

    static let launch = CommandSpec(
        ["app", "launch"],
        summary: "Launch an installed app and keep it running: 'exthost open' then delivers to it warm.",
        arguments: "BUNDLE-ID", positionalCount: 1...1,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.json, "Print one JSON report when the app ends."),
        ],
        discussion: """
            The app runs its launch sequence (didFinishLaunching, then its scene connects) and stays in memory,
            listening on <root>/Run/<BUNDLE-ID>.sock, until 'exthost app terminate BUNDLE-ID', Ctrl-C or SIGTERM.
            Meanwhile 'exthost open', 'exthost airdrop' and the sheet's Copy to/Open in deliver to it as iOS does
            to a running app: scene(_:openURLContexts:) (or application(_:open:options:) without scenes); with no
            app running they launch it, and the URL arrives in scene(_:willConnectTo:options:) instead. The app's
            output is printed as it comes. Exit: 0 when it ended normally, 1 otherwise, 2 bad input.
            """
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let bundle = parsed.positionals[0]
        let programs = try Executables.programs()
        var options = try AppHandOff.options(programs)
        options.keepRunning = true
        options.timeout = .seconds(10)
        if context.isProcess && !parsed[.json] { options.output = .standardOutput }
        try await AppHandOff.mapped { try AppLaunchServer.checkCanServe(bundle, on: root) }
        let json = parsed[.json]
        let report = try await AppHandOff.mapped {
            try await ExtensionHost.runApp(bundle, on: root, launcher: programs.launcher, options: options) {
                app in
                if !json {
                    context.print("\(bundle) is running (pid \(app.pid)); 'exthost app terminate \(bundle)' ends it")
                }
                do {
                    let listener = try AppLaunchServer.listen(app, on: root)
                    let handlers = AppHandOff.stopOnSignals { listener.stop() }
                    await listener.serve { delivery in
                        if !json { context.print(AppHandOff.line(delivery, start: "warm", bundle: bundle)) }
                    }
                    withExtendedLifetime(handlers) {}
                } catch {
                    context.printError("cannot listen for \(bundle): \(error)")
                }
            }
        }
        if json {
            try context.printJSON(encoding: report)
        } else {
            context.write(report.output, toError: false)
            if let failure = report.launchFailure {
                context.printError("\(bundle): its program \(report.executable) \(failure); it \(report.exitStatus)")
            } else if !report.ranLifeCycle {
                context.printError(
                    "\(bundle): its program does not run the app life cycle (UIApplicationMain or an @main "
                        + "UIApplicationDelegate); it \(report.exitStatus)")
            }
        }
        return report.succeeded ? .success : .failure
    }

    static let terminate = CommandSpec(
        ["app", "terminate"], summary: "End an app 'exthost app launch' keeps running (exit 3 if it is not running).",
        arguments: "BUNDLE-ID", positionalCount: 1...1,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        guard let pid = AppLaunchServer.terminate(parsed.positionals[0], on: root) else {
            context.print("\(parsed.positionals[0]) is not running")
            return .no
        }
        context.print("terminated \(parsed.positionals[0]) (pid \(pid))")
        return .success
    }
}
