import AppGroups
import Foundation
import HostSystem
import UniformTypes

/// `exthost container …`: list, show, verify, recover, write and the shared defaults suite.
enum ContainerCommands {
    static var all: [CommandSpec] {
        [list, show, verify, recover, write] + ContainerArchiveCommands.all + ContainerDefaultsCommand.all
    }

    static let list = CommandSpec(
        ["container", "list"], summary: "List the containers of a device root with identifiers and sizes.",
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Machine output.")],
        examples: ["exthost init Demo && exthost share Demo/items && exthost container list"]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let containers = root.containers()
        if parsed[.json] {
            try context.printJSON(
                encoding: ContainerReports.List(
                    root: root.url.path,
                    containers: containers.map {
                        ContainerReports.List.Container(
                            kind: $0.kind.rawValue, identifier: $0.identifier, uuid: $0.uuid.uuidString,
                            path: $0.url.path, bytes: Int(size(of: $0.url)))
                    }))
            return .success
        }
        if containers.isEmpty {
            context.print("no containers under \(root.url.path)")
            return .success
        }
        for info in containers {
            context.print(
                "\(info.kind.relativeDirectory)/\(info.uuid.uuidString)  \(info.identifier)  \(size(of: info.url)) B")
        }
        return .success
    }

    static let show = CommandSpec(
        ["container", "show"], summary: "Show a group container: where it is and its committed entries.",
        arguments: "GROUP", positionalCount: 1...1,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Machine output.")]
    ) { parsed, context in
        let group = try ContainerSupport.group(parsed.positionals[0])
        let store = try ContainerSupport.mapped {
            try AppGroupStore.inspect(group, root: ContainerSupport.root(parsed, context))
        }
        let entries = try ContainerSupport.mapped { try store.entries() }
        if parsed[.json] {
            try context.printJSON(
                encoding: ContainerReports.Show(
                    group: group.rawValue, uuid: store.container.uuid.uuidString, path: store.container.url.path,
                    journal: store.journalID.uuidString,
                    entries: entries.map { ContainerReports.Entry($0, url: store.url(for: $0)) }))
            return .success
        }
        context.print("\(group)  \(store.container.url.path)")
        context.print("journal \(store.journalID.uuidString): \(entries.count) entr\(entries.count == 1 ? "y" : "ies")")
        for entry in entries { context.print("  " + ContainerSupport.line(entry)) }
        return .success
    }

    static let verify = CommandSpec(
        ["container", "verify"],
        summary: "Check every entry against its file and checksum, the journal, orphans and leftovers.",
        arguments: "GROUP", positionalCount: 1...1,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Machine output.")],
        discussion: "Reads only (under the container's shared lock). Exits 1 and lists the problems when any are found."
    ) { parsed, context in
        let group = try ContainerSupport.group(parsed.positionals[0])
        let store = try ContainerSupport.mapped {
            try AppGroupStore.inspect(group, root: ContainerSupport.root(parsed, context))
        }
        let report = try ContainerSupport.mapped { try store.verify() }
        if parsed[.json] {
            try context.printJSON(
                encoding: ContainerReports.Verify(
                    group: group.rawValue, clean: report.isClean, entries: report.entryCount,
                    bytesChecked: report.bytesChecked,
                    problems: report.problems.map {
                        ContainerReports.Verify.Problem(kind: $0.kind.rawValue, path: $0.path, detail: $0.detail)
                    }))
        } else if report.isClean {
            context.print("\(group): \(report.entryCount) entries, \(report.bytesChecked) bytes checked, no problems")
        } else {
            context.print("\(group): \(report.problems.count) problem(s) in \(report.entryCount) entries")
            for problem in report.problems { context.print("  \(problem)") }
        }
        return report.isClean ? .success : .failure
    }

    static let recover = CommandSpec(
        ["container", "recover"],
        summary: "Run recovery now: cut a torn journal tail, remove stale temporaries, quarantine orphans.",
        arguments: "GROUP", positionalCount: 1...1,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Machine output.")]
    ) { parsed, context in
        let group = try ContainerSupport.group(parsed.positionals[0])
        let store = try ContainerSupport.mapped {
            try AppGroupStore.recovering(group, root: try ContainerSupport.root(parsed, context))
        }
        let lines = store.lastRecovery.lines
        if parsed[.json] {
            try context.printJSON(encoding: ContainerReports.Recover(group: group.rawValue, actions: lines))
        } else {
            context.print(lines.isEmpty ? "\(group): nothing to recover" : lines.joined(separator: "\n"))
        }
        return .success
    }

    static let write = CommandSpec(
        ["container", "write"], summary: "Commit files into a group container through the store, as a bundle would.",
        arguments: "GROUP FILE…", positionalCount: 2...Int.max,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(.asBundle, "BUNDLE", "The .app/.appex whose entitlements are checked (required)."),
            ContainerSupport.defineOption,
            .value(.type, "UTI", "The type identifier of every file (default: from the file name extension)."),
            .value(.repeatCount, "N", "Commit the files N times (for crash and load tests; default 1)."),
            .flag(
                .batch,
                "Commit the files (of each repeat) in batches — one lock, one syncfs, one journal append per batch, "
                    + "each all or nothing; as many files per batch as the open-file limit allows (each staged file "
                    + "holds two descriptors until its batch commits)."),
            .flag(.json, "Print the committed entries as JSON."),
        ],
        discussion: """
            Each file is committed as its own entry: copied into Inbox/ of the group container (clone,
            copy_file_range or a bounded buffer), fsynced, renamed into place, then appended to the journal and
            fsynced; the commit notification is posted after each. Killing the process at any instant leaves
            either nothing or complete, checksummed entries (the crash tests do exactly that with --repeat).
            With --batch the files of each repeat become visible together, as one share's results do.
            """
    ) { parsed, context in
        let group = try ContainerSupport.group(parsed.positionals[0])
        guard let bundle = parsed[.asBundle] else {
            throw CommandError.usage(
                "--as-bundle BUNDLE is required: the entitlements decide whether the group is open")
        }
        let identity = try ContainerSupport.identity(bundle, parsed, context)
        let repeats = try parsed.value(.repeatCount) ?? 1
        guard repeats >= 1 else { throw CommandError.usage("--repeat takes a positive number") }
        let root = try ContainerSupport.root(parsed, context)
        let store = try ContainerSupport.mapped { try AppGroupStore.open(group, as: identity, root: root) }
        for line in store.lastRecovery.lines { context.printError("recovery: \(line)") }
        var committed: [JournalEntry] = []
        let files = parsed.positionals.dropFirst().map { context.resolve($0) }
        // The bundle's declarations are read only when the type comes from file names.
        let fixedType = parsed[.type]
        let registry = fixedType == nil ? ContainerSupport.registry(forBundle: identity.bundleURL) : .system
        let type = { (url: URL) in
            fixedType ?? ContainerSupport.typeIdentifier(forFileName: url.lastPathComponent, in: registry)
        }
        // Each staged file holds two descriptors until it is committed; keep a margin.
        let perBatch = max(8, ((ResourceLimits.currentOpenFilesLimit ?? 4096) - 64) / 3)
        for _ in 0..<repeats {
            var batch: [JournalEntry] = []
            if parsed[.batch] {
                for start in stride(from: 0, to: files.count, by: perBatch) {
                    let chunk = files[start..<min(start + perBatch, files.count)]
                    batch += try ContainerSupport.mapped { try commitBatch(chunk, to: store, type: type) }
                }
            } else {
                for url in files {
                    batch.append(
                        try ContainerSupport.mapped { try store.commit(contentsOf: url, typeIdentifier: type(url)) })
                }
            }
            committed += batch
            if !parsed[.json] { for entry in batch { context.print(ContainerSupport.line(entry)) } }
        }
        if parsed[.json] {
            try context.printJSON(encoding: committed.map { ContainerReports.Entry($0, url: store.url(for: $0)) })
        }
        return .success
    }

    /// Stages every file of `files` and commits them as one batch (all or none).
    static func commitBatch(_ files: ArraySlice<URL>, to store: AppGroupStore, type: (URL) -> String) throws
        -> [JournalEntry]
    {
        var writers: [EntryWriter] = []
        defer { for writer in writers { writer.discard() } }
        for url in files {
            let writer = try store.makeEntry(name: url.lastPathComponent, typeIdentifier: type(url))
            writers.append(writer)
            let source: FileDescriptor
            do { source = try FileDescriptor.open(url.path) } catch {
                throw AppGroupError(.notFound, "cannot open \(url.path)", cause: error)
            }
            defer { try? source.close() }
            try writer.copy(from: source)
        }
        return try store.commit(writers)
    }

    /// Bytes of regular files under `url` (not following links).
    static func size(of url: URL) -> Int64 {
        guard
            let enumerator = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        else { return 0 }
        var total: Int64 = 0
        for case let item as URL in enumerator {
            let values = try? item.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += Int64(values?.fileSize ?? 0) }
        }
        return total
    }
}
