public import Foundation
import LocatedDocuments
import UniformTypes

extension ActivityItems {
    /// Reads an activity-items manifest (JSON):
    ///
    /// ```json
    /// {
    ///   "items": [
    ///     { "text": "Look at this" },
    ///     { "url": "https://example.com/page" },
    ///     { "file": "menu.pdf" },
    ///     { "image": "photo.png" },
    ///     { "data": { "text": "{\"name\": \"Alice\"}" } },
    ///     { "itemSource": {
    ///         "placeholder": { "url": "" },
    ///         "item": { "data": { "file": "alice.card" } },
    ///         "itemForActivityType": { "com.apple.UIKit.activity.Message": null },
    ///         "dataTypeIdentifier": "com.example.carddrop.card",
    ///         "subject": "A card", "thumbnail": true,
    ///         "linkMetadata": { "url": "https://example.com", "title": "Example", "icon": true } } },
    ///     { "extensionItem": { "attributedTitle": "Trip", "attributedContentText": "Our trip",
    ///         "attachments": [ { "url": "https://example.com/trip" }, { "image": "photo.png" } ] } }
    ///   ],
    ///   "excludedActivityTypes": ["com.apple.UIKit.activity.Print"],
    ///   "applicationActivities": [
    ///     { "type": "com.example.favorite", "title": "Favorite", "category": "action", "accepts": ["url"] } ]
    /// }
    /// ```
    ///
    /// Paths are relative to the manifest's folder and stay inside it; `data` is `text` (UTF-8),
    /// `base64` or `file` (its bytes).
    /// - Throws: ``PayloadError`` naming the file, line and column.
    public static func load(contentsOf url: URL) throws -> ActivityItems {
        let source = url.path
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw PayloadError(source: source, "cannot read the activity items", cause: error)
        }
        let json = LocatedReader(source: source)
        let reader = ActivityItemsReader(json: json, folder: url.deletingLastPathComponent().standardizedFileURL)
        return try reader.activityItems(try json.parse(bytes))
    }
}

private struct ActivityItemsReader {
    let json: LocatedReader
    let folder: URL

    func activityItems(_ root: LocatedValue) throws -> ActivityItems {
        let top = try json.object(
            root, "the activity items", allowed: ["items", "excludedActivityTypes", "applicationActivities"])
        let items = try json.array(top["items"], "items", parent: root).map { try item($0, allowSource: true) }
        return ActivityItems(
            items: items, excludedActivityTypes: try strings(top["excludedActivityTypes"], "excludedActivityTypes"),
            applicationActivities: try
                (top["applicationActivities"].map { value -> [LocatedValue] in
                    guard case .array(let values, _) = value else {
                        throw json.fail(value, "applicationActivities must be an array")
                    }
                    return values
                } ?? []).map(activity))
    }

    func strings(_ value: LocatedValue?, _ what: String) throws -> [String] {
        guard let value else { return [] }
        guard case .array(let values, _) = value else { throw json.fail(value, "\(what) must be an array of strings") }
        return try values.map { element in
            guard let text = try json.string(element, what) else { throw json.fail(element, "\(what) holds a null") }
            return text
        }
    }

    func item(_ value: LocatedValue, allowSource: Bool) throws -> ActivityItem {
        let kinds = ["text", "attributedText", "url", "file", "image", "data", "itemSource", "extensionItem"]
        let fields = try json.object(value, "an activity item", allowed: kinds)
        guard fields.count == 1, let (kind, member) = fields.first else {
            throw json.fail(value, "an activity item has exactly one of \(kinds.joined(separator: ", "))")
        }
        switch kind {
        case "text": return .text(try text(member, kind))
        case "attributedText": return .attributedText(try text(member, kind))
        case "url":
            let string = try text(member, kind)
            // `URL(string: "")` is nil: the AirDrop-only placeholder trick uses `NSURL(string: "")`.
            guard let url = URL(string: string) ?? (string.isEmpty ? URL(string: "about:blank") : nil) else {
                throw json.fail(member, "url must be a URL, not '\(string)'")
            }
            return .url(url)
        case "file": return .file(try path(member, kind))
        case "image":
            let url = try path(member, kind)
            let type = TypeRegistry.system.preferredType(forFileNamed: url.path, conformingTo: .image)
            return .image(try contents(of: url, member), typeIdentifier: type.isDynamic ? "public.png" : type.rawValue)
        case "data": return .data(try data(member), typeIdentifier: nil)
        case "extensionItem":
            guard allowSource else {
                throw json.fail(
                    member,
                    "an NSExtensionItem is an activity item of its own: not an item source's item nor an attachment")
            }
            return .extensionItem(try extensionItem(member))
        default:
            guard allowSource else {
                throw json.fail(member, "a placeholder or item of an item source cannot be an item source itself")
            }
            return .source(try source(member))
        }
    }

    /// `{"attributedTitle", "attributedContentText", "attachments": [ITEM…]}`.
    func extensionItem(_ value: LocatedValue) throws -> ActivityExtensionItem {
        let fields = try json.object(
            value, "an extensionItem", allowed: ["attributedTitle", "attributedContentText", "attachments"])
        guard let list = fields["attachments"] else {
            throw json.fail(value, "an extensionItem needs attachments (an array of activity items)")
        }
        let attachments = try json.array(list, "attachments", parent: value).map { try item($0, allowSource: false) }
        return ActivityExtensionItem(
            title: try json.string(fields["attributedTitle"], "attributedTitle"),
            contentText: try json.string(fields["attributedContentText"], "attributedContentText"),
            attachments: attachments)
    }

    func text(_ value: LocatedValue, _ what: String) throws -> String {
        guard let text = try json.string(value, what) else { throw json.fail(value, "\(what) must be a string") }
        return text
    }

    func path(_ value: LocatedValue, _ what: String) throws -> URL {
        let path = try text(value, what)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
            throw json.fail(value, "\(what) must be a path inside the folder (no leading '/', no '..')")
        }
        let url = folder.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw json.fail(value, "no file '\(path)' in \(folder.path)")
        }
        return url
    }

    func contents(of url: URL, _ value: LocatedValue) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw json.fail(value, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    func data(_ value: LocatedValue) throws -> Data {
        let fields = try json.object(value, "data", allowed: ["text", "base64", "file"])
        guard fields.count == 1, let (kind, member) = fields.first else {
            throw json.fail(value, "data has exactly one of text, base64, file")
        }
        switch kind {
        case "text": return Data(try text(member, "data.text").utf8)
        case "base64":
            guard let data = Data(base64Encoded: try text(member, "data.base64")) else {
                throw json.fail(member, "data.base64 is not base64")
            }
            return data
        default: return try contents(of: try path(member, "data.file"), member)
        }
    }

    func source(_ value: LocatedValue) throws -> ActivityItemSource {
        let fields = try json.object(
            value, "an item source",
            allowed: [
                "placeholder", "item", "itemForActivityType", "dataTypeIdentifier", "subject", "thumbnail",
                "linkMetadata",
            ])
        guard let placeholderValue = fields["placeholder"] else {
            throw json.fail(value, "an item source needs a placeholder (activityViewControllerPlaceholderItem)")
        }
        var byActivity: [String: ActivityItem?] = [:]
        if let table = fields["itemForActivityType"] {
            guard case .dictionary(let members, _) = table else {
                throw json.fail(table, "itemForActivityType must map activity types to items")
            }
            for (type, member) in members {
                if case .null = member {
                    byActivity[type] = .some(nil)
                } else {
                    byActivity[type] = try item(member, allowSource: false)
                }
            }
        }
        var thumbnail = false
        if let value = fields["thumbnail"] {
            guard case .bool(let flag, _) = value else { throw json.fail(value, "thumbnail must be true or false") }
            thumbnail = flag
        }
        return ActivityItemSource(
            placeholder: try item(placeholderValue, allowSource: false),
            item: try fields["item"].map { try item($0, allowSource: false) }, itemsByActivityType: byActivity,
            dataTypeIdentifier: try json.string(fields["dataTypeIdentifier"], "dataTypeIdentifier"),
            subject: try json.string(fields["subject"], "subject"), hasThumbnail: thumbnail,
            linkMetadata: try fields["linkMetadata"].map(linkMetadata))
    }

    func linkMetadata(_ value: LocatedValue) throws -> LinkMetadata {
        let fields = try json.object(
            value, "linkMetadata", allowed: ["originalURL", "url", "title", "icon", "image", "laterTitle"])
        func url(_ key: String) throws -> URL? {
            guard let text = try json.string(fields[key], key) else { return nil }
            guard let url = URL(string: text) else { throw json.fail(fields[key] ?? value, "\(key) must be a URL") }
            return url
        }
        func flag(_ key: String) throws -> Bool {
            guard let value = fields[key] else { return false }
            guard case .bool(let flag, _) = value else { throw json.fail(value, "\(key) must be true or false") }
            return flag
        }
        return LinkMetadata(
            originalURL: try url("originalURL"), url: try url("url"), title: try json.string(fields["title"], "title"),
            hasIcon: try flag("icon"), hasImage: try flag("image"),
            laterTitle: try json.string(fields["laterTitle"], "laterTitle"))
    }

    func activity(_ value: LocatedValue) throws -> ApplicationActivity {
        let fields = try json.object(
            value, "an application activity", allowed: ["type", "title", "category", "accepts"])
        guard let type = try json.string(fields["type"], "type"), let title = try json.string(fields["title"], "title")
        else { throw json.fail(value, "an application activity needs a type and a title") }
        let category = try json.string(fields["category"], "category") ?? "action"
        guard category == "action" || category == "share" else {
            throw json.fail(fields["category"] ?? value, "category is action or share")
        }
        var accepts: Set<ItemClass> = []
        for name in try strings(fields["accepts"], "accepts") {
            guard let itemClass = ItemClass(rawValue: name) else {
                throw json.fail(
                    fields["accepts"] ?? value,
                    "accepts lists item classes (\(ItemClass.allCases.map(\.rawValue).joined(separator: ", "))), not '\(name)'"
                )
            }
            accepts.insert(itemClass)
        }
        return ApplicationActivity(type: type, title: title, isShare: category == "share", accepts: accepts)
    }
}
