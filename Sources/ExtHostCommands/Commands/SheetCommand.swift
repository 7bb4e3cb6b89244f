import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import Payloads
import ShareSheet
import SheetReports

/// `exthost sheet`: what `UIActivityViewController` shows for some activity items on a device, and
/// what choosing one of its activities does.
enum SheetCommand {
    static var all: [CommandSpec] { [sheet] }

    /// `sheet --perform ID --json` for an activity the sheet does not show (exit 3).
    struct NotShown: Codable, Sendable, Equatable {
        /// The activity asked for.
        var activity: String
        /// Always false.
        var shown: Bool
        /// Why it is not shown, and so cannot be chosen.
        var error: String
    }

    static let sheet = CommandSpec(
        ["sheet"],
        summary:
            "The share sheet for some items: which activities appear and why, its preview; --perform one (exit 0–3).",
        arguments: "[ITEMS]", positionalCount: 0...1,
        options: [
            .value(.activityItems, "FILE.json", "The sharing app's activity items (see 'exthost sheet --help')."),
            .value(.payload, "NAME", "An app that shares this payload preset's items as they are."),
            .values(.exclude, "TYPE", "Add an activity type to excludedActivityTypes (repeatable)."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(
                .perform, "ID", "Choose this activity (an id the sheet lists, or cancel) and report the completion."),
            .value(
                .extensionExecutable, "PATH",
                "With --perform: run this program as the chosen extension (your own, not yet installed)."),
            .values(
                .extensionArgument, "ARG",
                "An argument for --extension-executable (repeatable; any value, also one beginning with '-').",
                anyValue: true),
            .value(
                .from, "BUNDLE-ID",
                "With --perform: the sharing app (Copy to/Open in gives it as sourceApplication within its team)."),
            .value(
                .saveTo, "FOLDER",
                "With --perform Save to Files: on-my-iphone (Files/On My iPhone, the default) or downloads."),
            .value(.html, "FILE.html", "Also write the sheet as a page."),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            ITEMS is a file or a folder: each file becomes a file URL activity item, as an app shares documents.
            --activity-items FILE is a JSON manifest: {"items": [...], "excludedActivityTypes": [...],
            "applicationActivities": [...]}; an item is {"text": "..."}, {"attributedText": "..."}, {"url": "..."},
            {"file": "path"}, {"image": "path"}, {"data": {"text"|"base64"|"file": ...}} or {"itemSource":
            {"placeholder": ITEM, "item": ITEM|null, "itemForActivityType": {TYPE: ITEM|null}, "dataTypeIdentifier",
            "subject", "thumbnail": bool, "linkMetadata": {"originalURL", "url", "title", "icon", "image",
            "laterTitle"}}} or {"extensionItem": {"attributedTitle", "attributedContentText", "attachments": [ITEM…]}}
            (an NSExtensionItem the app builds: extensions receive it as its own item, no system activity takes it);
            an application activity is {"type", "title", "category": "share"|"action",
            "accepts": ["string"|"attributed-string"|"url"|"file-url"|"data"|"image"|"extension-item"]}. Paths are relative to the
            manifest.

            Every installed share extension (app row) and action extension (action list) is listed, shown when its
            NSExtensionActivationRule accepts the items (typed with what every installed app declares), with the
            rule's explanation; "Open in"/"Copy to" each app whose CFBundleDocumentTypes claim every shared file;
            the system activities; the app's own. The preview header says which item and which rule decided it.

            --perform ID runs the chosen extension in its sandbox with the items each item source gives for that
            activity type and prints the completion the sharing app receives (activityType, completed,
            returnedItems, activityError); "Copy to" copies the files into the app's Documents/Inbox. Copy
            (com.apple.UIKit.activity.CopyToPasteboard) puts one pasteboard item per activity item on the device's
            pasteboard (text as public.utf8-plain-text, a URL as public.url, an image or a file as its bytes under
            its type; see 'exthost pasteboard show'). Save to Files (com.apple.DocumentManagerUICore.SaveToFiles)
            writes each item as a file into <root>/Files/On My iPhone (--save-to downloads: <root>/Downloads); a
            taken name becomes "name 2.ext", "name 3.ext"… (Keep Both), nothing is overwritten.
            Exit: 0 shown (or performed and completed), 1 performed and not completed, 2 bad input, 3 the chosen
            activity is not shown.
            """,
        examples: ["exthost init Demo && exthost sheet Demo/items"]
    ) { parsed, context in
        try await run(parsed, context)
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let root = try ContainerSupport.root(parsed, context)
        var items = try activityItems(parsed, context)
        items.excludedActivityTypes += parsed[.exclude]
        let report: SheetReport
        do {
            report = try ShareSheet.present(items, on: root)
        } catch {
            throw CommandError.input("\(error)")
        }
        if let path = parsed[.html] {
            do {
                try Data(report.html.utf8).write(to: context.resolve(path), options: .atomic)
            } catch {
                throw CommandError.input("\(path): cannot write the page: \(error.localizedDescription)")
            }
        }
        guard let id = parsed[.perform] else {
            if parsed[.json] {
                try context.printJSON(encoding: report)
            } else {
                context.print(text(report, context))
            }
            return .success
        }
        var options = SheetPerformOptions(programs: try Executables.programs())
        options.sharingApp = parsed[.from]
        if let folder = parsed[.saveTo] {
            guard let location = FilesLocation(rawValue: folder) else {
                throw CommandError.usage(
                    "--save-to is \(FilesLocation.allCases.map(\.rawValue).joined(separator: " or ")), not '\(folder)'")
            }
            options.saveLocation = location
        }
        if let path = parsed[.extensionExecutable] {
            options.extensionExecutable = context.resolve(path)
            options.extensionArguments = parsed[.extensionArgument]
        }
        let performance: SheetPerformance
        do {
            performance = try await ShareSheet.perform(id, items: items, on: root, options: options)
        } catch {
            switch error.kind {
            case .badInput: throw CommandError.input(error.description)
            case .failed: throw CommandError.failed(error.description)
            case .notShown:
                if parsed[.json] {
                    try context.printJSON(encoding: NotShown(activity: id, shown: false, error: error.description))
                }
                context.printError("error: \(error.description)")
                return .no
            }
        }
        if parsed[.json] {
            try context.printJSON(encoding: performance)
        } else {
            context.print(text(performance))
        }
        return performance.completion.completed || id == "cancel" ? .success : .failure
    }

    static func activityItems(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ActivityItems {
        let given = [parsed.positionals.first, parsed[.activityItems], parsed[.payload]]
        guard given.compactMap({ $0 }).count == 1 else {
            throw CommandError.usage(
                "exthost sheet needs exactly one of ITEMS, --activity-items FILE or --payload NAME")
        }
        do {
            if let manifest = parsed[.activityItems] {
                return try ActivityItems.load(contentsOf: context.resolve(manifest))
            }
            if let name = parsed[.payload] { return try ActivityItems(preset: name) }
        } catch {
            throw CommandError.input("\(error)")
        }
        let path = parsed.positionals.first ?? ""
        let url = context.resolve(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw CommandError.input("\(path): no such file or folder")
        }
        guard isFolder.boolValue else { return ActivityItems(items: [.file(url)]) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let files = names.sorted().filter { !$0.hasPrefix(".") }.map { url.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        guard !files.isEmpty else { throw CommandError.input("\(path): no files to share") }
        return ActivityItems(items: files.map { .file($0) })
    }

    static func text(_ report: SheetReport, _ context: CommandContext) -> String {
        var lines: [String] = []
        let preview = report.preview
        lines.append("Preview: \(preview.title)\(preview.subtitle.map { " — \($0)" } ?? "") [\(preview.image)]")
        lines.append("  decided by \(preview.decidedBy)")
        if let later = preview.updatedTitle { lines.append("  then updates to: \(later)") }
        for (section, title) in [("app-row", "App row"), ("actions", "Actions")] {
            let rows = report.activities.filter { $0.shown && $0.section == section }
            lines.append("\(title):")
            if rows.isEmpty { lines.append("  (none)") }
            let width = rows.map(\.title.count).max() ?? 0
            for row in rows {
                lines.append("  ✓ \(row.title.padded(width))  \(row.kind)  \(row.id)")
            }
        }
        let hidden = report.activities.filter { !$0.shown }
        lines.append("Hidden:")
        if hidden.isEmpty { lines.append("  (none)") }
        for row in hidden {
            lines.append("  ✗ \(row.title) (\(row.kind) \(row.id)): \(row.reason)")
            if let explanation = row.explanation, row.kind.hasSuffix("extension") {
                let tree = TreeRenderer(colors: context.usesColor).render(explanation)
                lines.append(contentsOf: tree.split(separator: "\n").map { "      " + $0 })
            }
        }
        return lines.joined(separator: "\n")
    }

    static func text(_ performance: SheetPerformance) -> String {
        let completion = performance.completion
        var lines = [
            "completionWithItemsHandler(activityType: \(completion.activityType ?? "nil"), completed: \(completion.completed), "
                + "returnedItems: \(completion.returnedItems.map { "\($0.count) item(s)" } ?? "nil"), "
                + "activityError: \(completion.activityError.map { "\($0.domain) \($0.code) \($0.message)" } ?? "nil"))"
        ]
        for (index, item) in (completion.returnedItems ?? []).enumerated() {
            lines.append("returned item \(index): \(item.title ?? "(no title)")")
            for attachment in item.attachments {
                let body =
                    attachment.data.map { String(decoding: $0.prefix(200), as: UTF8.self) } ?? attachment.error ?? ""
                lines.append("  \(attachment.typeIdentifier): \(body)")
            }
        }
        if let share = performance.share, let run = share.extension {
            lines.append("extension \(run.bundleIdentifier): \(run.outcome) — \(run.reason)")
            for mistake in share.mistakes { lines.append("mistake: \(mistake)") }
        }
        for path in performance.delivered ?? [] { lines.append("delivered: \(path)") }
        if let pasteboard = performance.pasteboard {
            lines.append(
                "pasteboard: change count \(pasteboard.changeCount), \(pasteboard.items.count) item(s): "
                    + pasteboard.items.map { $0.joined(separator: "+") }.joined(separator: ", "))
        }
        for file in performance.saved ?? [] {
            lines.append(
                "saved: \(file.path) (\(file.typeIdentifier), \(file.bytes) bytes)"
                    + (file.requestedName.map { "; \($0) was taken" } ?? ""))
        }
        if let launch = performance.app {
            lines.append(
                AppHandOff.line(launch.delivery, start: launch.start, bundle: launch.bundleIdentifier, pid: launch.pid))
            lines.append(AppHandOff.sourceLine(launch.sourceApplication))
            lines += AppHandOff.refusalLines(launch)
        }
        return lines.joined(separator: "\n")
    }
}
