public import ActivationRules
import Archives
public import Foundation
public import ItemProviders
import Predicates
public import UniformTypes

/// What a host shares with a share extension: extension items whose attachments are item
/// providers, built from a folder, an archive, a single file, a `share.json` manifest or a named
/// preset.
///
/// Not `Sendable`: it holds item providers.
public struct Payload {
    /// The extension items, in order.
    public var items: [ExtensionItem]
    /// Whether the share is a Safari web page (the device then adds `com.apple.active-webpage`).
    public var isWebpage: Bool
    /// What it was built from, for messages: a path, or `preset NAME`.
    public var source: String
    /// What every item and attachment is (types, kinds, sizes, knobs), for display.
    public var descriptions: [PayloadItemDescription]
    /// The temporary folder an archive was extracted into (nil for other sources); its files back
    /// the file representations, so remove it with ``removeExtractedFiles()`` once the share is over.
    public var extractedDirectory: URL?

    /// A payload.
    public init(items: [ExtensionItem], isWebpage: Bool = false, source: String, descriptions: [PayloadItemDescription])
    {
        self.items = items
        self.isWebpage = isWebpage
        self.source = source
        self.descriptions = descriptions
    }

    /// Builds a payload from what is at `url`:
    /// - a folder with a `share.json` inside: the manifest (see ``Manifest``);
    /// - a folder: one extension item, one attachment per top-level entry sorted by name (hidden
    ///   entries skipped);
    /// - an archive (`.zip`, `.tar`, `.tar.gz`, `.tgz`): extracted safely (no `..`, no absolute
    ///   paths, no escaping links) into a fresh temporary folder, then read as a folder;
    /// - any other file: one item with one attachment.
    ///
    /// Attachment rules, as the Files app shares: every file is a file representation typed from
    /// its extension (or by libmagic when it has none or an unknown one), whatever it holds — a
    /// `.txt` in Latin-1 is shared like any other (`loadItem` gives its file URL); a folder is a
    /// folder file representation (`public.folder`, or its package type). Text and web links as
    /// `String` and `URL` objects come from a manifest or a preset, as apps share them.
    /// - Throws: ``PayloadError`` naming the file (and the line and column in `share.json`).
    public static func load(_ url: URL, registry: TypeRegistry = .system) throws -> Payload {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PayloadError(source: path, "no such file or folder")
        }
        if isDirectory.boolValue {
            return try loadFolder(url, source: path, registry: registry)
        }
        if ArchiveFormat(fileName: url.lastPathComponent) != nil || url.lastPathComponent.lowercased().hasSuffix(".tgz")
        {
            return try loadArchive(url, registry: registry)
        }
        let builder = try FolderEntry.attachment(for: url, registry: registry)
        let item = ExtensionItem(attachments: [builder.provider])
        return Payload(
            items: [item], source: path,
            descriptions: [PayloadItemDescription(title: nil, contentText: nil, attachments: [builder.description])])
    }

    static func loadFolder(_ url: URL, source: String, registry: TypeRegistry) throws -> Payload {
        let manifest = url.appendingPathComponent(Manifest.fileName)
        if FileManager.default.fileExists(atPath: manifest.path) {
            return try Manifest.load(manifest, folder: url, registry: registry)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw PayloadError(source: source, "cannot list the folder", cause: error)
        }
        let urls = names.map { url.appendingPathComponent($0) }
        // The files no name types are sniffed all at once, on every core.
        let unnamed = urls.filter { FolderEntry.needsSniffing($0, registry: registry) }
        let sniffed = Dictionary(
            zip(unnamed.map(\.path), ContentSniffer.typeIdentifiers(ofFilesAt: unnamed, registry: registry)),
            uniquingKeysWith: { first, _ in first })
        let builders = try urls.map {
            try FolderEntry.attachment(for: $0, registry: registry, sniffed: sniffed)
        }
        let item = ExtensionItem(attachments: builders.map(\.provider))
        return Payload(
            items: [item], source: source,
            descriptions: [
                PayloadItemDescription(title: nil, contentText: nil, attachments: builders.map(\.description))
            ])
    }

    static func loadArchive(_ url: URL, registry: TypeRegistry) throws -> Payload {
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("exthost-payload-\(UUID().uuidString)", isDirectory: true)
        do {
            try ArchiveExtractor().extract(archiveAt: url, into: destination)
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw PayloadError(source: url.path, "cannot extract the archive: \(error)", cause: error)
        }
        do {
            var payload = try loadFolder(destination, source: url.path, registry: registry)
            payload.extractedDirectory = destination
            return payload
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
    }

    /// Removes the folder an archive was extracted into (nothing for other sources). The file
    /// representations of this payload cannot be loaded afterwards.
    public func removeExtractedFiles() {
        if let extractedDirectory { try? FileManager.default.removeItem(at: extractedDirectory) }
    }

    /// The payload as an activation rule sees it: per attachment the types the
    /// extension can see, in registration order (hidden representations left out); the title and
    /// content text as `attributedTitle` / `attributedContentText`; ``isWebpage``.
    ///
    /// - Parameter consumer: who the extension is to the host. The default, another team's
    ///   extension, sees only `.all` representations; the same team's also sees `.team`. `.group`
    ///   is macOS-only, so no other process sees it on iOS; `.ownProcess` never leaves the host.
    public func activationPayload(consumer: ProviderConsumer = .otherTeam) -> ActivationPayload {
        let activationItems = items.map { item in
            var otherKeys: [String: PlistValue] = [:]
            if let title = item.attributedTitle { otherKeys["attributedTitle"] = .string(title) }
            if let text = item.attributedContentText { otherKeys["attributedContentText"] = .string(text) }
            let attachments = item.attachments?.map { provider in
                ActivationPayload.Attachment(
                    provider.representations.filter { consumer.sees($0.visibility) }.map(\.typeIdentifier))
            }
            return ActivationPayload.Item(attachments, otherKeys: otherKeys)
        }
        return ActivationPayload(items: activationItems, isWebpage: isWebpage)
    }

    /// The number of attachments over all items.
    public var attachmentCount: Int { items.reduce(0) { $0 + ($1.attachments?.count ?? 0) } }
}

/// One entry of a shared folder (or a single shared file) as an attachment.
enum FolderEntry {
    static func attachment(for url: URL, registry: TypeRegistry, sniffed: [String: String] = [:]) throws
        -> AttachmentBuilder
    {
        let name = url.lastPathComponent
        let builder = AttachmentBuilder(registry: registry, suggestedName: name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw PayloadError(source: url.path, "no such file (a dangling link?)")
        }
        if isDirectory.boolValue {
            builder.addFile(url, type: folderType(url, registry: registry))
            return builder
        }
        // As the Files app shares a file: a file representation of its type, whatever it holds.
        builder.addFile(url, type: sniffed[url.path] ?? fileType(url, registry: registry))
        return builder
    }

    /// Whether the entry at `url` is a file whose name no declared type claims (its type then
    /// comes from its contents).
    static func needsSniffing(_ url: URL, registry: TypeRegistry) -> Bool {
        guard registry.declaredType(forFileNamed: url.lastPathComponent) == nil else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    static func folderType(_ url: URL, registry: TypeRegistry) -> String {
        registry.declaredType(forFileNamed: url.lastPathComponent, isDirectory: true)?.rawValue ?? "public.folder"
    }

    /// The type from the filename extension, or libmagic's when the extension is missing or unknown.
    static func fileType(_ url: URL, registry: TypeRegistry) -> String {
        registry.declaredType(forFileNamed: url.lastPathComponent)?.rawValue
            ?? ContentSniffer.typeIdentifier(ofFileAt: url, registry: registry)
    }
}
