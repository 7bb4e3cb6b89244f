import Foundation
import ItemProviders
import LocatedDocuments
import UniformTypes

/// The `share.json` manifest: several extension items with exactly the representations, order,
/// visibility and test knobs a test wants.
///
/// ```json
/// {
///   "webpage": false,
///   "items": [
///     {
///       "title": "Trip notes", "contentText": "Selected text",
///       "attachments": [
///         { "file": "photo.jpg" },
///         {
///           "suggestedName": "Report",
///           "loadDelayMilliseconds": 200,
///           "failWith": { "domain": "NSItemProviderErrorDomain", "code": -1000, "message": "…" },
///           "representations": [
///             { "type": "com.adobe.pdf", "kind": "in-place", "file": "Report.pdf" },
///             { "type": "public.plain-text", "kind": "data", "text": "summary", "visibility": "ownProcess" },
///             { "type": "public.url", "kind": "data", "url": "https://example.com/report" },
///             { "type": "public.png", "kind": "data", "file": "thumb.png" }
///           ]
///         }
///       ]
///     }
///   ]
/// }
/// ```
///
/// - Top level: `items` (required; may be empty, as hosts send), `webpage` (bool, default false).
/// - Item: `attachments` (may be empty or left out: an item with only a title or text), `title`,
///   `contentText` (strings).
/// - Attachment: either `file` alone (the entry is read like a folder entry: a file
///   representation of its type, or a folder) or `representations` (required, non-empty, in
///   registration order), plus `suggestedName`, `preferredPresentationSize` (`[width, height]`),
///   `loadDelayMilliseconds`, `failWith`.
/// - Representation: `type` (required), `kind` (`data`, `file`, `in-place`; default `data`),
///   `visibility` (`all`, `team`, `group`, `ownProcess`; default `all`), and its content: `text`,
///   `url`, `file` (a path relative to the folder, never leaving it), `propertyList` (any
///   property-list value: an object, array, string, number or boolean; `{"$date": ISO-8601}`; `{"$data": base64}`) or `javaScriptPreprocessingResults`
///   (the object a Safari page script passed to `completionFunction`, handed over as
///   `{NSExtensionJavaScriptPreprocessingResultsKey: object}`); `file` and `in-place` need `file`.
///   `loadDelayMilliseconds` and `failWith` here override the attachment's.
/// - `failWith`: `code` (required integer), `domain` (default `NSItemProviderErrorDomain`),
///   `message` (default Apple's "Cannot load representation of type …").
///
/// Unknown keys are errors, each reported with its line and column.
public enum Manifest {
    /// `share.json`.
    public static let fileName = "share.json"

    static func load(_ url: URL, folder: URL, registry: TypeRegistry) throws -> Payload {
        let source = url.path
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw PayloadError(source: source, "cannot read the manifest", cause: error)
        }
        let root = try LocatedReader(source: source).parse(bytes)
        let reader = Reader(
            source: source, folder: folder.standardizedFileURL.resolvingSymlinksInPath(), registry: registry)
        return try reader.payload(root)
    }

    private struct Reader {
        let source: String
        let folder: URL
        let registry: TypeRegistry

        var json: LocatedReader { LocatedReader(source: source) }
        func fail(_ value: LocatedValue, _ message: String) -> PayloadError { json.fail(value, message) }
        func object(_ value: LocatedValue, _ what: String, allowed: [String]) throws -> [String: LocatedValue] {
            try json.object(value, what, allowed: allowed)
        }
        func string(_ value: LocatedValue?, _ what: String) throws -> String? { try json.string(value, what) }
        func array(_ value: LocatedValue?, _ what: String, parent: LocatedValue) throws -> [LocatedValue] {
            try json.array(value, what, parent: parent)
        }
        func integer(_ value: LocatedValue?, _ what: String) throws -> Int? { try json.integer(value, what) }

        func payload(_ root: LocatedValue) throws -> Payload {
            let top = try object(root, "the manifest", allowed: ["items", "webpage"])
            var isWebpage = false
            if let webpage = top["webpage"] {
                guard case .bool(let flag, _) = webpage else { throw fail(webpage, "webpage must be true or false") }
                isWebpage = flag
            }
            var items: [ExtensionItem] = []
            var descriptions: [PayloadItemDescription] = []
            // Hosts send empty item lists and items without attachments (a title or text alone).
            for itemValue in try json.array(top["items"], "items", parent: root, allowingEmpty: true) {
                let fields = try object(itemValue, "an item", allowed: ["title", "contentText", "attachments"])
                let title = try string(fields["title"], "title")
                let contentText = try string(fields["contentText"], "contentText")
                var builders: [AttachmentBuilder] = []
                let attachments =
                    try fields["attachments"].map {
                        try json.array($0, "attachments", parent: itemValue, allowingEmpty: true)
                    } ?? []
                for attachmentValue in attachments {
                    builders.append(try attachment(attachmentValue))
                }
                items.append(
                    ExtensionItem(
                        attachments: builders.map(\.provider), attributedTitle: title,
                        attributedContentText: contentText
                    ))
                descriptions.append(
                    PayloadItemDescription(
                        title: title, contentText: contentText, attachments: builders.map(\.description)))
            }
            return Payload(items: items, isWebpage: isWebpage, source: source, descriptions: descriptions)
        }

        func knobs(_ fields: [String: LocatedValue], inheriting base: LoadKnobs) throws -> LoadKnobs {
            var knobs = base
            if let value = fields["loadDelayMilliseconds"],
                let delay = try integer(value, "loadDelayMilliseconds")
            {
                guard (0...600_000).contains(delay) else {
                    throw fail(value, "loadDelayMilliseconds must be between 0 and 600000")
                }
                knobs.delayMilliseconds = delay
            }
            if let failValue = fields["failWith"] {
                let failFields = try object(failValue, "failWith", allowed: ["domain", "code", "message"])
                guard let code = try integer(failFields["code"], "failWith.code") else {
                    throw fail(failValue, "failWith needs a code")
                }
                knobs.failure = LoadKnobs.Failure(
                    domain: try string(failFields["domain"], "failWith.domain") ?? ItemProviderError.domain, code: code,
                    message: try string(failFields["message"], "failWith.message") ?? "")
            }
            return knobs
        }

        func file(_ value: LocatedValue) throws -> URL {
            guard let path = try string(value, "file"), !path.isEmpty else { throw fail(value, "file must be a path") }
            guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                throw fail(value, "file must be a path inside the folder (no leading '/', no '..')")
            }
            let url = folder.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw fail(value, "no file '\(path)' in \(folder.path)")
            }
            let resolved = url.resolvingSymlinksInPath().path
            guard resolved == folder.path || resolved.hasPrefix(folder.path + "/") else {
                throw fail(value, "'\(path)' leads outside the folder (through a symbolic link)")
            }
            return url
        }

        func attachment(_ value: LocatedValue) throws -> AttachmentBuilder {
            let fields = try object(
                value, "an attachment",
                allowed: [
                    "file", "representations", "suggestedName", "preferredPresentationSize", "loadDelayMilliseconds",
                    "failWith",
                ])
            if let fileValue = fields["file"] {
                guard fields.count == 1 else {
                    throw fail(value, "an attachment with 'file' takes no other keys (use 'representations' instead)")
                }
                return try FolderEntry.attachment(for: try file(fileValue), registry: registry)
            }
            let base = try knobs(fields, inheriting: LoadKnobs())
            let builder = AttachmentBuilder(
                registry: registry, suggestedName: try string(fields["suggestedName"], "suggestedName"))
            if let sizeValue = fields["preferredPresentationSize"] {
                guard case .array(let numbers, _) = sizeValue, numbers.count == 2,
                    case .number(let width, _) = numbers[0], case .number(let height, _) = numbers[1], width >= 0,
                    height >= 0
                else { throw fail(sizeValue, "preferredPresentationSize must be [width, height], two numbers ≥ 0") }
                builder.provider.preferredPresentationSize = PresentationSize(width: width, height: height)
            }
            for representationValue in try array(fields["representations"], "representations", parent: value) {
                try representation(representationValue, into: builder, base: base)
            }
            return builder
        }

        func representation(_ value: LocatedValue, into builder: AttachmentBuilder, base: LoadKnobs) throws {
            let fields = try object(
                value, "a representation",
                allowed: [
                    "type", "kind", "visibility", "text", "url", "file", "propertyList",
                    "javaScriptPreprocessingResults",
                    "loadDelayMilliseconds", "failWith",
                ])
            guard let type = try string(fields["type"], "type"), UniformTypeIdentifier.isValidSyntax(type) else {
                throw fail(fields["type"] ?? value, "a representation needs a type (a uniform type identifier)")
            }
            var knobs = try knobs(fields, inheriting: base)
            if var failure = knobs.failure, failure.message.isEmpty {
                failure.message = "Cannot load representation of type \(type)"
                knobs.failure = failure
            }
            let kindText = try string(fields["kind"], "kind") ?? "data"
            var visibility = RepresentationVisibility.all
            if let visibilityValue = fields["visibility"] {
                guard let text = try string(visibilityValue, "visibility"),
                    let parsed = RepresentationVisibility(rawValue: text)
                else { throw fail(visibilityValue, "visibility must be all, team, group or ownProcess") }
                visibility = parsed
            }
            let contents = ["text", "url", "file", "propertyList", "javaScriptPreprocessingResults"].filter {
                fields[$0] != nil
            }
            guard contents.count == 1 else {
                throw fail(
                    value,
                    "a representation needs exactly one of text, url, file, propertyList, javaScriptPreprocessingResults "
                        + "(found \(contents.count))")
            }
            let plistValue = fields["propertyList"] ?? fields["javaScriptPreprocessingResults"]
            if let plistValue, kindText != "data" {
                throw fail(plistValue, "a property list is data: kind must be data, not '\(kindText)'")
            }
            switch kindText {
            case "data":
                if let plistValue {
                    let plist = try json.propertyListObject(
                        plistValue, javaScriptResults: fields["javaScriptPreprocessingResults"] != nil)
                    builder.addObject(
                        plist, bytes: plist.data, type: type, visibility: visibility, origin: "property list",
                        knobs: knobs)
                } else if let text = try string(fields["text"], "text") {
                    builder.addObject(
                        text, bytes: Data(text.utf8), type: type, visibility: visibility, origin: "text", knobs: knobs)
                } else if let urlValue = fields["url"] {
                    guard let text = try string(urlValue, "url"), let link = URL(string: text), link.scheme != nil
                    else {
                        throw fail(urlValue, "url must be an absolute URL")
                    }
                    builder.addObject(
                        link, bytes: Data(link.absoluteString.utf8), type: type, visibility: visibility,
                        origin: link.absoluteString, knobs: knobs)
                } else if let fileValue = fields["file"] {
                    builder.addData(fromFileAt: try file(fileValue), type: type, visibility: visibility, knobs: knobs)
                }
            case "file", "in-place":
                guard let fileValue = fields["file"] else {
                    throw fail(value, "a \(kindText) representation needs a file")
                }
                builder.addFile(
                    try file(fileValue), type: type, openInPlace: kindText == "in-place", visibility: visibility,
                    knobs: knobs)
            default:
                throw fail(fields["kind"] ?? value, "kind must be data, file or in-place, not '\(kindText)'")
            }
        }
    }
}
