import Foundation
import ItemProviders
import UniformTypes

/// One preset: what a real app shares, with the evidence behind it.
public struct PresetInfo: Sendable, Hashable {
    /// The preset's name (`safari-webpage`).
    public var name: String
    /// The app that shares it.
    public var sourceApp: String
    /// The iOS version(s) the evidence is from.
    public var iosVersion: String
    /// `observed-log`, `documented` or `inferred` (see ``PresetCatalog/confidenceMeanings``).
    public var confidence: String
    /// Where the shape comes from.
    public var citations: [String]
    /// Remarks on the evidence.
    public var notes: String?
    /// The items: per item the title, content text and attachments.
    public var items: [Item]

    /// One item of a preset.
    public struct Item: Sendable, Hashable {
        /// `attributedTitle`.
        public var title: String?
        /// `attributedContentText`.
        public var contentText: String?
        /// The attachments.
        public var attachments: [Attachment]
    }

    /// One attachment of a preset.
    public struct Attachment: Sendable, Hashable {
        /// The registered types in order.
        public var types: [String]
        /// `data`, `file` or `inplace`.
        public var kind: String
        /// The provider's suggested name.
        public var suggestedName: String?
        /// What `loadItem` gives on a device, as the evidence says.
        public var loadsAs: String?
    }

    /// Whether the share is a Safari web page (the presets named `safari-webpage…`).
    public var isWebpage: Bool { name.hasPrefix("safari-webpage") }
}

/// The preset catalogue, built into the binary from `Scripts/data/payloads.json`.
public enum PresetCatalog {
    /// What each confidence level means.
    public static let confidenceMeanings: [(String, String)] = [
        ("observed-log", "verbatim debug output or screenshot of registeredTypeIdentifiers"),
        ("documented", "developer report, code comment written from observation, radar, or Apple documentation"),
        ("inferred", "assembled from indirect evidence; order and secondary types uncertain"),
    ]

    /// Every preset, in catalogue order.
    public static let presets: [PresetInfo] = parse()

    /// The preset called `name`, if any.
    public static func preset(named name: String) -> PresetInfo? {
        presets.first { $0.name == name }
    }

    private static func parse() -> [PresetInfo] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let list = root["presets"] as? [[String: Any]]
        else { return [] }
        return list.compactMap { entry in
            guard let name = entry["name"] as? String, let items = entry["items"] as? [[String: Any]] else {
                return nil
            }
            return PresetInfo(
                name: name, sourceApp: entry["source_app"] as? String ?? "",
                iosVersion: entry["ios_version"] as? String ?? "",
                confidence: entry["confidence"] as? String ?? "", citations: entry["citation"] as? [String] ?? [],
                notes: entry["notes"] as? String,
                items: items.map { item in
                    PresetInfo.Item(
                        title: item["attributedTitle"] as? String,
                        contentText: item["attributedContentText"] as? String,
                        attachments: (item["attachments"] as? [[String: Any]] ?? []).map { attachment in
                            PresetInfo.Attachment(
                                types: attachment["types"] as? [String] ?? [],
                                kind: attachment["kind"] as? String ?? "data",
                                suggestedName: attachment["suggestedName"] as? String,
                                loadsAs: attachment["loads_as"] as? String)
                        })
                })
        }
    }
}

extension Payload {
    /// The names of the presets, in catalogue order.
    public static var presetNames: [String] { PresetCatalog.presets.map(\.name) }

    /// Builds the preset called `name` with generated contents: text and URLs as objects (the URLs
    /// are `https://example.com/…`, the texts the item's content text or the quoted text of the
    /// evidence), images, PDFs, movies, audio and vCards as small files of the right format
    /// written under the temporary directory (`exthost-presets/NAME/`), data kinds in memory,
    /// `inplace` kinds as open-in-place file representations.
    /// - Throws: ``PayloadError`` for an unknown name (listing the known ones) or when the sample
    ///   files cannot be written.
    public static func preset(named name: String) throws -> Payload {
        guard let preset = PresetCatalog.preset(named: name) else {
            throw PayloadError(
                source: "preset \(name)", "no such preset; known: \(presetNames.joined(separator: ", "))")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("exthost-presets", isDirectory: true).appendingPathComponent(
                name, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PayloadError(source: "preset \(name)", "cannot create \(directory.path)", cause: error)
        }
        var items: [ExtensionItem] = []
        var descriptions: [PayloadItemDescription] = []
        var counter = 0
        for item in preset.items {
            var builders: [AttachmentBuilder] = []
            for attachment in item.attachments {
                counter += 1
                builders.append(
                    try PresetBuilder(preset: preset, item: item, directory: directory, index: counter)
                        .build(attachment))
            }
            items.append(
                ExtensionItem(
                    attachments: builders.map(\.provider), attributedTitle: item.title,
                    attributedContentText: item.contentText))
            descriptions.append(
                PayloadItemDescription(
                    title: item.title, contentText: item.contentText, attachments: builders.map(\.description)))
        }
        return Payload(items: items, isWebpage: preset.isWebpage, source: "preset \(name)", descriptions: descriptions)
    }
}

/// Generates one preset attachment.
private struct PresetBuilder {
    let preset: PresetInfo
    let item: PresetInfo.Item
    let directory: URL
    let index: Int

    func build(_ attachment: PresetInfo.Attachment) throws -> AttachmentBuilder {
        let builder = AttachmentBuilder(registry: .system, suggestedName: attachment.suggestedName)
        var primaryFile: URL?
        for type in attachment.types {
            switch (type, attachment.kind) {
            case ("public.url", _):
                let link = URL(string: "https://example.com/\(preset.name)/\(index)") ?? URL(fileURLWithPath: "/")
                builder.addObject(link, bytes: Data(link.absoluteString.utf8), type: type, origin: link.absoluteString)
            case ("public.plain-text", _), ("public.utf8-plain-text", _):
                let text = sampleText(attachment)
                builder.addObject(text, bytes: Data(text.utf8), type: type, origin: "text")
            case ("public.file-url", _):
                let file = try primaryFile ?? writeSample(for: fileURLTarget(attachment), attachment)
                builder.addObject(file, bytes: Data(file.absoluteString.utf8), type: type, origin: file.path)
            case (_, "file"), (_, "inplace"):
                let file = try writeSample(for: type, attachment)
                primaryFile = primaryFile ?? file
                builder.addFile(file, type: type, openInPlace: attachment.kind == "inplace")
            default:
                let bytes = SampleContent.bytes(for: type, label: preset.name)
                let loadsAs = attachment.loadsAs ?? ""
                if loadsAs.hasPrefix("UIImage") {
                    // The markup editor's screenshot before iOS 26: an in-memory image, not a file.
                    builder.addObject(
                        ImageObject(data: bytes, typeIdentifier: type), bytes: bytes, type: type, origin: "generated")
                } else if loadsAs.hasPrefix("NSDictionary"), let plist = try? javaScriptResults() {
                    builder.addObject(plist, bytes: plist.data, type: type, origin: "generated")
                } else {
                    builder.addObject(bytes, bytes: bytes, type: type, origin: "generated")
                }
            }
        }
        return builder
    }

    /// Safari's JavaScript preprocessing results: the dictionary the page's `completionFunction`
    /// received, under `NSExtensionJavaScriptPreprocessingResultsKey`.
    func javaScriptResults() throws -> PropertyListObject {
        let results: [String: Any] = [
            "URL": "https://example.com/\(preset.name)", "title": item.contentText ?? "Shared from \(preset.sourceApp)",
        ]
        return try PropertyListObject(encoding: ["NSExtensionJavaScriptPreprocessingResultsKey": results])
    }

    /// The text of a text attachment: the item's content text, else the quoted text of the
    /// evidence, else a sentence naming the app.
    func sampleText(_ attachment: PresetInfo.Attachment) -> String {
        if let text = item.contentText, !text.isEmpty { return text }
        if let loadsAs = attachment.loadsAs, let open = loadsAs.firstIndex(of: "'"),
            let close = loadsAs[loadsAs.index(after: open)...].firstIndex(of: "'")
        {
            return String(loadsAs[loadsAs.index(after: open)..<close])
        }
        return "Shared from \(preset.sourceApp)"
    }

    /// What a `public.file-url`-only attachment points at (a PDF for Notes scans, a log for
    /// analytics files).
    func fileURLTarget(_ attachment: PresetInfo.Attachment) -> String {
        if attachment.loadsAs?.contains(".pdf") == true { return "com.adobe.pdf" }
        if preset.name.contains("ips") { return "public.plain-text" }
        return "public.data"
    }

    func writeSample(for type: String, _ attachment: PresetInfo.Attachment) throws -> URL {
        let fileExtension = TypeRegistry.system.preferredFilenameExtension(for: UniformTypeIdentifier(type)) ?? "bin"
        var name = attachment.suggestedName ?? "IMG_\(1000 + index)"
        if (name as NSString).pathExtension.isEmpty || attachment.types.count > 1 {
            name = "\((name as NSString).deletingPathExtension).\(fileExtension)"
        }
        let url = directory.appendingPathComponent(name)
        do {
            // Atomic: another process may be building the same preset at the same moment.
            try SampleContent.bytes(for: type, label: preset.name).write(to: url, options: .atomic)
        } catch {
            throw PayloadError(source: "preset \(preset.name)", "cannot write \(url.path)", cause: error)
        }
        return url
    }
}
