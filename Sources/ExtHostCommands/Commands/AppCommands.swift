import AppGroups
import Foundation

/// `exthost app …`: what the main app sees.
enum AppCommands {
    static var all: [CommandSpec] { [inbox] }

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
}
