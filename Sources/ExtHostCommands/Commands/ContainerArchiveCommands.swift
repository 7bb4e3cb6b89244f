import AppGroups
import Archives
import Foundation
import UniformTypes

/// `exthost container export|import`: a group's committed entries to and from tar, tar.gz or zip.
enum ContainerArchiveCommands {
    static var all: [CommandSpec] { [export, importArchive] }

    static let export = CommandSpec(
        ["container", "export"], summary: "Write a group's committed entries to OUT.tar, OUT.tar.gz or OUT.zip.",
        arguments: "GROUP OUT", positionalCount: 2...2,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Machine output.")],
        discussion: """
            Each entry's file is stored at its container path (Inbox/…), with exthost-export.json listing names,
            types, sizes and SHA-256 checksums. The format comes from the name (.tar, .tar.gz/.tgz, .zip); the
            archive appears only when complete.
            """
    ) { parsed, context in
        let group = try ContainerSupport.group(parsed.positionals[0])
        let out = context.resolve(parsed.positionals[1])
        guard ArchiveFormat(fileName: out.lastPathComponent) != nil else {
            throw CommandError.usage("'\(parsed.positionals[1])' does not end in .tar, .tar.gz, .tgz or .zip")
        }
        let store = try ContainerSupport.mapped {
            try AppGroupStore.inspect(group, root: ContainerSupport.root(parsed, context))
        }
        let entries = try ContainerSupport.mapped { try store.exportEntries(to: out) }
        if parsed[.json] {
            try context.printJSON(encoding: ContainerReports.Export(archive: out.path, entries: entries.count))
        } else {
            context.print(
                "exported \(entries.count) entr\(entries.count == 1 ? "y" : "ies") of \(group) to \(out.path)")
        }
        return .success
    }

    static let importArchive = CommandSpec(
        ["container", "import"], summary: "Commit the files of an archive into a group container, all or none.",
        arguments: "GROUP IN", positionalCount: 2...2,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(
                .asBundle, "BUNDLE", "Open the group as this bundle (checks entitlements, creates the container)."),
            ContainerSupport.defineOption,
            .value(.maxSize, "BYTES", "Refuse archives that expand beyond BYTES (default 4 GiB)."),
            .value(.maxRatio, "N", "Refuse archives above N:1 expansion once past 16 MiB (default 200)."),
            .flag(.json, "Print the new entries as JSON."),
        ],
        discussion: """
            Refuses entries with '..' or absolute paths, links that escape or that the archive holds at all,
            special files, and archives that expand beyond the size, entry-count or ratio limits; nothing is
            committed then and the exit status is 2 (bad input). An archive from 'container export' keeps names and types and is checked against its
            SHA-256 manifest. Without --as-bundle the group's container must exist.
            """
    ) { parsed, context in
        let group = try ContainerSupport.group(parsed.positionals[0])
        let input = context.resolve(parsed.positionals[1])
        let root = try ContainerSupport.root(parsed, context)
        var limits = ExtractionLimits.default
        if let size = try parsed.value(.maxSize) { limits.maximumTotalSize = Int64(size) }
        if let ratio = try parsed.value(.maxRatio) { limits.maximumCompressionRatio = Int64(ratio) }
        let store: AppGroupStore
        var registry = TypeRegistry.system
        if let bundle = parsed[.asBundle] {
            let identity = try ContainerSupport.identity(bundle, parsed, context)
            store = try ContainerSupport.mapped { try AppGroupStore.open(group, as: identity, root: root) }
            registry = ContainerSupport.registry(forBundle: identity.bundleURL)
        } else {
            store = try ContainerSupport.mapped { try AppGroupStore.recovering(group, root: root) }
        }
        let entries: [JournalEntry]
        do {
            entries = try store.importEntries(fromArchiveAt: input, limits: limits) { name in
                ContainerSupport.typeIdentifier(forFileName: name, in: registry)
            }
        } catch let error as AppGroupError where [.escapesContainer, .tooLarge, .corrupt].contains(error.code) {
            // The archive is bad input (exit 2); nothing was committed.
            throw CommandError.input(error.description + "; nothing was imported")
        } catch let error as AppGroupError {
            throw ContainerSupport.commandError(error)
        }
        if parsed[.json] {
            try context.printJSON(encoding: entries.map { ContainerReports.Entry($0, url: store.url(for: $0)) })
        } else {
            for entry in entries { context.print(ContainerSupport.line(entry)) }
        }
        return .success
    }
}
