public import Archives
public import Foundation
import HostSystem

/// The manifest an export carries (`exthost-export.json` at the top of the archive).
struct ExportManifest: Codable, Sendable {
    struct Item: Codable, Sendable {
        var path: String
        var name: String
        var type: String
        var size: Int64
        var sha256: String
        var source: String
        var committedAt: Date
    }
    var format: Int
    var group: String
    var entries: [Item]

    static let fileName = "exthost-export.json"
}

extension AppGroupStore {
    /// Writes every committed entry into an archive at `url` (tar, tar.gz or zip, from the name
    /// unless `format` is given): each file at its container path, plus `exthost-export.json`
    /// listing name, type, size and SHA-256 of each. Files are streamed from descriptors opened
    /// beneath the container, under its shared lock, so the set is consistent. The archive appears
    /// at `url` only when complete.
    /// - Returns: the entries exported.
    /// - Throws: ``AppGroupError`` (`.io` wrapping the archive error).
    @discardableResult
    public func exportEntries(to url: URL, format: ArchiveFormat? = nil) throws -> [JournalEntry] {
        try lock.withLock(.shared) {
            let entries = try index.refreshAll(repair: false).entries
            do {
                // On any error the writer is dropped, and its deinit removes the partial file.
                let writer = try ArchiveWriter(url: url, format: format)
                let manifest = ExportManifest(
                    format: 1, group: group.rawValue,
                    entries: entries.map {
                        ExportManifest.Item(
                            path: $0.path.description, name: $0.name, type: $0.typeIdentifier, size: $0.size,
                            sha256: $0.sha256, source: $0.source, committedAt: $0.committedAt)
                    })
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                try writer.addData(Array(try encoder.encode(manifest)), as: ExportManifest.fileName)
                for entry in entries {
                    let fd = try directory.open(entry.path)
                    defer { try? fd.close() }
                    try writer.addFile(fileDescriptor: fd.rawValue, as: entry.path.description)
                }
                try writer.finish()
            } catch let error as ArchiveError {
                throw AppGroupError(.io, "cannot export \(group) to \(url.path)", cause: error)
            }
            return entries
        }
    }

    /// Imports the files of an archive as new entries, all committed as one batch (all or none).
    ///
    /// - Important: The archive is extracted with `ArchiveExtractor`, which refuses `..` and
    ///   absolute paths, links that escape, device nodes, and archives that expand beyond `limits`
    ///   (total size, entry count, compression ratio); then every file is opened beneath the
    ///   extraction directory with no link followed. Symbolic links inside the archive are refused.
    ///
    /// With `exthost-export.json` (an ``exportEntries(to:format:)`` archive) the listed files are
    /// imported with their names and types, and each must match its recorded size and SHA-256;
    /// without it every regular file is imported, named after its last path component, typed by
    /// `typeIdentifier`.
    /// - Returns: the new entries.
    /// - Throws: ``AppGroupError``: `.escapesContainer` (traversal, absolute path, any link),
    ///   `.tooLarge` (size, entry count, ratio), `.corrupt` (unreadable archive, checksum mismatch),
    ///   with the `ArchiveError` as the cause.
    @discardableResult
    public func importEntries(
        fromArchiveAt url: URL, limits: ExtractionLimits = .default,
        typeIdentifier: (String) -> String = { _ in "public.data" }
    ) throws -> [JournalEntry] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exthost-import-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw AppGroupError(.io, "cannot create \(scratch.path)", cause: UnderlyingFailure(error))
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let extracted = scratch.appendingPathComponent("archive")
        do {
            try ArchiveExtractor(limits: limits).extract(archiveAt: url, into: extracted)
        } catch let error as ArchiveError {
            let code: AppGroupError.Code
            switch error.code {
            case .unsafePath, .escapingLink, .traversesLink: code = .escapesContainer
            case .tooLarge, .compressionRatio, .tooManyEntries: code = .tooLarge
            default: code = .corrupt
            }
            throw AppGroupError(code, "refused to import \(url.path)", cause: error)
        }
        let source = try ContainerDirectory(url: extracted)
        defer { source.close() }
        var planned: [(path: ContainerPath, name: String, type: String, expected: (Int64, String)?)] = []
        if let manifestBytes = try? source.readFile(try ContainerPath(ExportManifest.fileName), limit: 64 << 20) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let manifest: ExportManifest
            do {
                manifest = try decoder.decode(ExportManifest.self, from: Data(manifestBytes))
            } catch {
                throw AppGroupError(
                    .corrupt, "\(url.path): \(ExportManifest.fileName) does not decode", cause: UnderlyingFailure(error)
                )
            }
            for item in manifest.entries {
                planned.append((try ContainerPath(item.path), item.name, item.type, (item.size, item.sha256)))
            }
        } else {
            try source.walk { path, kind in
                switch kind {
                case .directory: return
                case .regular: planned.append((path, path.lastComponent, typeIdentifier(path.lastComponent), nil))
                default:
                    throw AppGroupError(
                        .escapesContainer,
                        "\(url.path): '\(path)' is a link or special file; import takes regular files")
                }
            }
        }
        var writers: [EntryWriter] = []
        defer { for writer in writers { writer.discard() } }
        for item in planned {
            let writer = try makeEntry(name: item.name, typeIdentifier: item.type)
            writers.append(writer)
            let fd = try source.open(item.path)
            defer { try? fd.close() }
            try writer.copy(from: fd)
            if let (size, sha256) = item.expected {
                let written = try writer.staged.finish()
                guard written.size == size, written.sha256 == sha256 else {
                    throw AppGroupError(
                        .corrupt,
                        "\(url.path): '\(item.path)' has \(written.size) bytes, sha256 \(written.sha256); the manifest "
                            + "records \(size) bytes, sha256 \(sha256)")
                }
            }
        }
        return try commit(writers)
    }
}
