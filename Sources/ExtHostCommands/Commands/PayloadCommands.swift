import Foundation
import ItemProviders
import Payloads
import UniformTypes

/// `exthost payload …`: what a host shares, as the share extension would see it.
enum PayloadCommands {
    static var all: [CommandSpec] { [show, presets] }

    static let json = OptionSpec.flag(.json, "Print one JSON object instead of text.")
    static let payloadName = OptionSpec.value(
        .payload, "NAME", "Show a named payload preset (see 'exthost payload presets').")

    static let itemsDiscussion = """
        ITEMS is a folder, an archive (.zip, .tar, .tar.gz) or a single file. A folder becomes one extension item
        with one attachment per top-level entry, sorted by name (hidden entries skipped): .txt as text
        (public.utf8-plain-text), .url and .webloc as a URL (public.url), a folder as a folder file representation
        (public.folder), any other file as a file representation typed from its extension, or by its contents
        (libmagic) when it has none. An archive is extracted safely (no '..', no absolute paths, no escaping links)
        and read as a folder. A folder with a share.json manifest gets exactly what the manifest says: several
        items, each attachment's representations in order as data, file or in-place, their visibility, suggested
        name, title and content text, and the load knobs loadDelayMilliseconds and failWith (README, "Payloads").
        """

    static let show = CommandSpec(
        ["payload", "show"],
        summary: "The extension items of a payload: per attachment the types, kinds, names, sizes.",
        arguments: "[ITEMS]", positionalCount: 0...1, options: [payloadName, RuleCommands.declarations, json],
        discussion: itemsDiscussion
            + "\n\nTypes the extension cannot see (visibility team, group or ownProcess) are listed but marked hidden;"
            + "\nthey are left out of registeredTypeIdentifiers, which is what activation rules see."
    ) { parsed, context in
        var registry = TypeRegistry.system
        let files = parsed[.declarations].map { context.resolve($0) }
        if !files.isEmpty {
            do {
                registry = try registry.adding(declarationsFromPlistsAt: files).0
            } catch let error as TypeRegistryError {
                throw CommandError.input(error.message)
            }
        }
        let payload = try load(parsed, context, command: "exthost payload show", registry: registry)
        defer { payload.removeExtractedFiles() }
        if parsed[.json] {
            try context.printJSON(encoding: PayloadReports.Show(payload))
        } else {
            context.print(rendered(payload, relativeTo: context.currentDirectory))
        }
        return .success
    }

    static let presets = CommandSpec(
        ["payload", "presets"], summary: "The payload presets: what real apps share, with evidence and confidence.",
        arguments: "[NAME]", positionalCount: 0...1, options: [json],
        discussion: """
            Without NAME, one line per preset: name, app, confidence, registered types per attachment. With NAME,
            the preset's evidence: iOS version, confidence, citations and notes. Confidence levels:
            \(PresetCatalog.confidenceMeanings.map { "  \($0.0): \($0.1)" }.joined(separator: "\n"))
            """,
        examples: ["exthost payload presets"]
    ) { parsed, context in
        var selected = PresetCatalog.presets
        if let name = parsed.positionals.first {
            guard let preset = PresetCatalog.preset(named: name) else {
                throw CommandError.input(
                    "exthost payload presets: no preset '\(name)'; known: \(Payload.presetNames.joined(separator: ", "))"
                )
            }
            selected = [preset]
        }
        if parsed[.json] {
            try context.printJSON(
                encoding: PayloadReports.Presets(presets: selected.map(PayloadReports.Presets.Preset.init)))
        } else if selected.count == 1, parsed.positionals.count == 1 {
            context.print(evidence(selected[0]))
        } else {
            context.print(table(selected))
        }
        return .success
    }

    // MARK: - Loading

    /// The payload named by ITEMS or `--payload NAME` (exactly one of them).
    static func load(
        _ parsed: ParsedArguments, _ context: CommandContext, command: String, registry: TypeRegistry = .system
    )
        throws -> Payload
    {
        let items = parsed.positionals.first
        let preset = parsed[.payload]
        switch (items, preset) {
        case (let path?, nil): return try load(items: path, context, registry: registry)
        case (nil, let name?): return try load(preset: name)
        case (_?, _?): throw CommandError.usage("\(command): give ITEMS or --payload NAME, not both")
        case (nil, nil):
            throw CommandError.usage("\(command) needs ITEMS (a folder, archive or file) or --payload NAME")
        }
    }

    static func load(items path: String, _ context: CommandContext, registry: TypeRegistry = .system) throws -> Payload
    {
        do {
            var payload = try Payload.load(context.resolve(path), registry: registry)
            payload.source = path
            return payload
        } catch let error as PayloadError {
            throw CommandError.input(error.description)
        }
    }

    static func load(preset name: String) throws -> Payload {
        do {
            return try Payload.preset(named: name)
        } catch let error as PayloadError {
            throw CommandError.input(error.description)
        }
    }

    // MARK: - Rendering

    static func byteText(_ count: Int64?) -> String {
        guard let count else { return "?" }
        if count < 10_000 { return "\(count) B" }
        if count < 10_000_000 { return "\(count / 1024) KiB" }
        return "\(count / (1024 * 1024)) MiB"
    }

    /// The text form of `payload show`; paths under the working directory are shown relative to it.
    static func rendered(_ payload: Payload, relativeTo directory: String) -> String {
        let items = payload.items.count
        let attachments = payload.attachmentCount
        var lines = [
            "\(payload.source): \(items) item\(items == 1 ? "" : "s"), \(attachments) attachment\(attachments == 1 ? "" : "s")"
                + (payload.isWebpage ? ", a Safari web page" : "")
        ]
        let all = payload.descriptions.flatMap { $0.attachments.flatMap(\.representations) }
        let typeWidth = all.map(\.typeIdentifier.count).max() ?? 0
        let kindWidth = all.map(\.kind.description.count).max() ?? 0
        let sizeWidth = all.map { byteText($0.byteCount).count }.max() ?? 0
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for (itemIndex, item) in payload.descriptions.enumerated() {
            lines.append("item \(itemIndex + 1)")
            if let title = item.title { lines.append("  attributedTitle: \(title)") }
            if let text = item.contentText { lines.append("  attributedContentText: \(text)") }
            for (index, attachment) in item.attachments.enumerated() {
                let name = attachment.suggestedName.map { "suggestedName \($0)" } ?? "no suggestedName"
                lines.append(
                    "  attachment \(index + 1) (\(name)): registeredTypeIdentifiers "
                        + "[\(attachment.visibleTypeIdentifiers.joined(separator: ", "))]")
                for (number, representation) in attachment.representations.enumerated() {
                    let size = byteText(representation.byteCount)
                    let origin =
                        representation.origin.hasPrefix(prefix)
                        ? String(representation.origin.dropFirst(prefix.count)) : representation.origin
                    var line =
                        "    \(number + 1). \(representation.typeIdentifier.padded(typeWidth))  "
                        + "\(representation.kind.description.padded(kindWidth))  "
                        + "\(size.leftPadded(sizeWidth))  \(origin)"
                    if representation.visibility != .all {
                        line += "  [hidden: \(representation.visibility)]"
                    }
                    if representation.loadDelayMilliseconds > 0 {
                        line += "  [delay \(representation.loadDelayMilliseconds) ms]"
                    }
                    if let failure = representation.failure { line += "  [fails: \(failure)]" }
                    lines.append(line)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func typesText(_ preset: PresetInfo) -> String {
        preset.items.map { item in
            item.attachments.map { "[\($0.types.joined(separator: ", "))]\($0.kind == "data" ? "" : " \($0.kind)")" }
                .joined(separator: " ")
        }.joined(separator: " | ")
    }

    static func table(_ presets: [PresetInfo]) -> String {
        let nameWidth = max(4, presets.map(\.name.count).max() ?? 0)
        let appWidth = min(22, max(3, presets.map(\.sourceApp.count).max() ?? 0))
        func row(_ name: String, _ app: String, _ confidence: String, _ types: String) -> String {
            name.padded(nameWidth) + "  " + String(app.prefix(appWidth)).padded(appWidth) + "  "
                + confidence.padded(12) + "  " + types
        }
        var lines = [row("NAME", "APP", "CONFIDENCE", "TYPES (per attachment; items separated by |)")]
        for preset in presets {
            lines.append(row(preset.name, preset.sourceApp, preset.confidence, typesText(preset)))
        }
        lines.append("\(presets.count) presets; 'exthost payload presets NAME' shows a preset's evidence.")
        return lines.joined(separator: "\n")
    }

    static func evidence(_ preset: PresetInfo) -> String {
        var lines = [
            "\(preset.name): \(preset.sourceApp)", "  iOS: \(preset.iosVersion)",
            "  confidence: \(preset.confidence)"
                + (PresetCatalog.confidenceMeanings.first { $0.0 == preset.confidence }.map { " (\($0.1))" } ?? ""),
            "  types: \(typesText(preset))",
        ]
        for (index, item) in preset.items.enumerated() {
            for (number, attachment) in item.attachments.enumerated() where attachment.loadsAs != nil {
                lines.append("  item \(index + 1) attachment \(number + 1) loads as: \(attachment.loadsAs ?? "")")
            }
        }
        lines.append("  evidence:")
        lines += preset.citations.map { "    - \($0)" }
        if let notes = preset.notes { lines.append("  notes: \(notes)") }
        return lines.joined(separator: "\n")
    }
}
