public import Foundation
import ItemProviders
public import UniformTypes

/// What an app hands `UIActivityViewController(activityItems:applicationActivities:)`: the items,
/// the activities it excludes and the ones it adds.
public struct ActivityItems: Sendable, Hashable {
    /// The items, in order (each becomes one attachment, except an `NSExtensionItem`, which is its own item).
    public var items: [ActivityItem]
    /// `excludedActivityTypes`: activity types (system ones, or extensions' bundle identifiers) the
    /// sheet does not show.
    public var excludedActivityTypes: [String]
    /// `applicationActivities`: the app's own `UIActivity`s.
    public var applicationActivities: [ApplicationActivity]
    /// A payload preset the sharing app hands extensions as it is (Safari, Photos… build their own
    /// `NSExtensionItem`s); ``items`` then stand for its attachments' classes.
    public var presetName: String?

    /// Activity items.
    public init(
        items: [ActivityItem], excludedActivityTypes: [String] = [], applicationActivities: [ApplicationActivity] = []
    ) {
        self.items = items
        self.excludedActivityTypes = excludedActivityTypes
        self.applicationActivities = applicationActivities
    }
}

/// One activity item, by what the sharing app passes.
public indirect enum ActivityItem: Sendable, Hashable {
    /// An `NSString`.
    case text(String)
    /// An `NSAttributedString` (its characters).
    case attributedText(String)
    /// A web (or custom-scheme) `NSURL`.
    case url(URL)
    /// A file `NSURL`.
    case file(URL)
    /// `NSData`, typed only through an item source's `dataTypeIdentifier`.
    case data(Data, typeIdentifier: String?)
    /// A `UIImage` (its encoded bytes and their type).
    case image(Data, typeIdentifier: String)
    /// A `UIActivityItemSource`.
    case source(ActivityItemSource)
    /// An `NSExtensionItem` the app builds itself: it reaches share and action extensions as it is
    /// (its own item, with its title, text and attachments); system activities do not take it.
    case extensionItem(ActivityExtensionItem)

    /// The class the share sheet sees for it: a source's placeholder's (`activityViewControllerPlaceholderItem`:
    /// "only the class of the return type is consulted").
    public var itemClass: ItemClass {
        switch self {
        case .text: .string
        case .attributedText: .attributedString
        case .url: .url
        case .file: .fileURL
        case .data: .data
        case .image: .image
        case .source(let source): source.placeholder.itemClass
        case .extensionItem: .extensionItem
        }
    }
}

/// An `NSExtensionItem` given as an activity item: `attributedTitle`, `attributedContentText`
/// (their characters) and `attachments`, each described as an activity item is (text, a URL, a
/// file, data, an image — not an item source nor another extension item).
public struct ActivityExtensionItem: Sendable, Hashable {
    /// `attributedTitle`.
    public var title: String?
    /// `attributedContentText`.
    public var contentText: String?
    /// `attachments`, one `NSItemProvider` each.
    public var attachments: [ActivityItem]

    /// An item.
    public init(title: String? = nil, contentText: String? = nil, attachments: [ActivityItem]) {
        self.title = title
        self.contentText = contentText
        self.attachments = attachments
    }
}

/// The classes of activity items, as system activities test them.
public enum ItemClass: String, Sendable, Hashable, Codable, CaseIterable {
    /// `NSString`.
    case string
    /// `NSAttributedString`.
    case attributedString = "attributed-string"
    /// A web or custom-scheme `NSURL`.
    case url
    /// A file `NSURL`.
    case fileURL = "file-url"
    /// `NSData`.
    case data
    /// `UIImage`.
    case image
    /// `NSExtensionItem`.
    case extensionItem = "extension-item"
}

/// A `UIActivityItemSource`: a placeholder shown to the sheet at once, and the item, subject,
/// thumbnail and link metadata it gives when asked.
public struct ActivityItemSource: Sendable, Hashable {
    /// `activityViewControllerPlaceholderItem`: never a source itself.
    public var placeholder: ActivityItem
    /// `itemForActivityType` for any activity not in ``itemsByActivityType`` (nil: none).
    public var item: ActivityItem?
    /// `itemForActivityType` for given activity types (a nil value: nothing for that one).
    public var itemsByActivityType: [String: ActivityItem?]
    /// `dataTypeIdentifierForActivityType` (for `Data` items).
    public var dataTypeIdentifier: String?
    /// `subjectForActivityType`.
    public var subject: String?
    /// Whether `thumbnailImageForActivityType` gives an image.
    public var hasThumbnail: Bool
    /// `activityViewControllerLinkMetadata`.
    public var linkMetadata: LinkMetadata?

    /// A source.
    public init(
        placeholder: ActivityItem, item: ActivityItem?, itemsByActivityType: [String: ActivityItem?] = [:],
        dataTypeIdentifier: String? = nil, subject: String? = nil, hasThumbnail: Bool = false,
        linkMetadata: LinkMetadata? = nil
    ) {
        self.placeholder = placeholder
        self.item = item
        self.itemsByActivityType = itemsByActivityType
        self.dataTypeIdentifier = dataTypeIdentifier
        self.subject = subject
        self.hasThumbnail = hasThumbnail
        self.linkMetadata = linkMetadata
    }

    /// `itemForActivityType(activityType)`.
    public func item(for activityType: String?) -> ActivityItem? {
        if let activityType, let override = itemsByActivityType[activityType] { return override }
        return item
    }
}

/// `LPLinkMetadata`, as far as the preview header uses it.
public struct LinkMetadata: Sendable, Hashable, Codable {
    /// `originalURL`.
    public var originalURL: URL?
    /// `url`.
    public var url: URL?
    /// `title`.
    public var title: String?
    /// Whether `iconProvider` is set.
    public var hasIcon: Bool
    /// Whether `imageProvider` is set (used for the icon when there is no icon).
    public var hasImage: Bool
    /// A title set on the same object after presentation (the header updates to it).
    public var laterTitle: String?

    /// Metadata.
    public init(
        originalURL: URL? = nil, url: URL? = nil, title: String? = nil, hasIcon: Bool = false, hasImage: Bool = false,
        laterTitle: String? = nil
    ) {
        self.originalURL = originalURL
        self.url = url
        self.title = title
        self.hasIcon = hasIcon
        self.hasImage = hasImage
        self.laterTitle = laterTitle
    }
}

/// An app's own `UIActivity` (`applicationActivities`).
public struct ApplicationActivity: Sendable, Hashable {
    /// `activityType`.
    public var type: String
    /// `activityTitle`.
    public var title: String
    /// `activityCategory`: `.share` sits in the app row, `.action` (the default) in the action list.
    public var isShare: Bool
    /// The classes its `canPerform(withActivityItems:)` accepts (it appears when every item is one).
    public var accepts: Set<ItemClass>
    /// What its `canPerform(withActivityItems:)` answered for these items, when it was asked
    /// (it then decides instead of ``accepts``).
    public var canPerform: Bool?

    /// An activity.
    public init(type: String, title: String, isShare: Bool = false, accepts: Set<ItemClass>, canPerform: Bool? = nil) {
        self.type = type
        self.title = title
        self.isShare = isShare
        self.accepts = accepts
        self.canPerform = canPerform
    }
}

extension ActivityItems {
    /// The extension items a share or action extension receives when the user picks
    /// `activityType` (nil: what the sheet sees before anything is picked — each source's
    /// placeholder): one `NSExtensionItem` with one attachment per activity item, as iOS sends them;
    /// an `NSExtensionItem` given as an activity item follows it as its own item, as it is (XExtensionItem's
    /// notes: it "reaches extensions as-is"; the order after iOS's own item is exthost's choice).
    ///
    /// Types each attachment registers (what the system offers, as Tumblr's XExtensionItem mirrors
    /// it, and the App Extension Programming Guide's `com.adobe.pdf` + `public.file-url` for a file):
    /// `String` → `public.plain-text` (loads as `NSString`); a web `URL` → `public.url` (`NSURL`);
    /// a file `URL` → its own type, then `public.file-url`; `Data` → the source's
    /// `dataTypeIdentifier` (`public.data` without one); `UIImage` → `public.image` (loads as
    /// `UIImage`). An item source gives `itemForActivityType`; a nil item gives no attachment. The
    /// first subject becomes the item's `attributedContentText`.
    public func payload(for activityType: String?, registry: TypeRegistry) throws -> Payload {
        if let presetName { return try Payload.preset(named: presetName) }
        let plain = items.filter { if case .extensionItem = $0 { false } else { true } }
        let builders = try plain.compactMap { item -> AttachmentBuilder? in
            switch item {
            case .source(let source):
                let chosen = activityType == nil ? source.placeholder : source.item(for: activityType)
                guard let chosen else { return nil }
                return try Self.attachment(chosen, dataTypeIdentifier: source.dataTypeIdentifier, registry: registry)
            default:
                return try Self.attachment(item, dataTypeIdentifier: nil, registry: registry)
            }
        }
        let subject = items.lazy.compactMap { item -> String? in
            if case .source(let source) = item { return source.subject }
            return nil
        }.first
        var extensionItems: [ExtensionItem] = []
        var descriptions: [PayloadItemDescription] = []
        if !plain.isEmpty {
            extensionItems.append(ExtensionItem(attachments: builders.map(\.provider), attributedContentText: subject))
            descriptions.append(
                PayloadItemDescription(title: nil, contentText: subject, attachments: builders.map(\.description)))
        }
        // The app's own NSExtensionItems reach the extension as they are, after the one iOS makes
        // for the other items.
        for case .extensionItem(let given) in items {
            let attachments = try given.attachments.map {
                try Self.attachment($0, dataTypeIdentifier: nil, registry: registry)
            }
            extensionItems.append(
                ExtensionItem(
                    attachments: attachments.map(\.provider), attributedTitle: given.title,
                    attributedContentText: given.contentText))
            descriptions.append(
                PayloadItemDescription(
                    title: given.title, contentText: given.contentText, attachments: attachments.map(\.description)))
        }
        return Payload(items: extensionItems, source: "activity items", descriptions: descriptions)
    }

    static func attachment(_ item: ActivityItem, dataTypeIdentifier: String?, registry: TypeRegistry) throws
        -> AttachmentBuilder
    {
        let builder = AttachmentBuilder(registry: registry)
        switch item {
        case .text(let text):
            builder.addObject(text, bytes: Data(text.utf8), type: "public.plain-text", origin: "String")
        case .attributedText(let text):
            builder.addObject(
                AttributedTextObject(string: text), bytes: Data(text.utf8), type: "public.plain-text",
                origin: "NSAttributedString")
        case .url(let url):
            builder.addObject(url, bytes: Data(url.absoluteString.utf8), type: "public.url", origin: url.absoluteString)
        case .file(let url):
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw PayloadError(source: url.path, "no such file (a file URL activity item)")
            }
            builder.provider.suggestedName = url.lastPathComponent
            builder.addFile(url, type: FolderEntry.fileType(url, registry: registry))
            builder.addObject(url, bytes: Data(url.absoluteString.utf8), type: "public.file-url", origin: url.path)
        case .data(let data, let type):
            let uti = type ?? dataTypeIdentifier ?? "public.data"
            builder.addObject(data, bytes: data, type: uti, origin: "Data")
        case .image(let data, let type):
            builder.addObject(
                ImageObject(data: data, typeIdentifier: type), bytes: data, type: "public.image", origin: "UIImage")
        case .source:
            throw PayloadError(source: "activity items", "a placeholder or item cannot itself be an item source")
        case .extensionItem:
            throw PayloadError(
                source: "activity items", "an NSExtensionItem's attachment cannot itself be an NSExtensionItem")
        }
        return builder
    }
}

extension ActivityItems {
    /// The activity items of an app that shares the preset `name`: extensions receive the preset's
    /// items as they are; each attachment stands, for the system activities and the preview, as
    /// the class `loadItem` gives for it on a device (a web `NSURL`, an `NSString`, a file URL, a
    /// `UIImage`, else `NSData` of its first type).
    /// - Throws: ``PayloadError`` for an unknown preset.
    public init(preset name: String) throws {
        guard let preset = PresetCatalog.preset(named: name) else {
            throw PayloadError(
                source: "preset \(name)", "no such preset; known: \(Payload.presetNames.joined(separator: ", "))")
        }
        var items: [ActivityItem] = []
        for item in preset.items {
            for attachment in item.attachments {
                let loadsAs = attachment.loadsAs ?? ""
                let first = attachment.types.first ?? "public.data"
                let index = items.count + 1
                if attachment.kind != "data" || attachment.types.contains("public.file-url") || loadsAs.contains("file")
                {
                    let name = attachment.suggestedName ?? "attachment \(index)"
                    items.append(.file(URL(fileURLWithPath: name)))
                } else if attachment.types.contains("public.url") {
                    items.append(.url(URL(string: "https://example.com/\(name)/\(index)") ?? URL(fileURLWithPath: "/")))
                } else if attachment.types.contains("public.plain-text") || loadsAs.contains("NSString") {
                    items.append(.text(item.contentText ?? "Shared from \(preset.sourceApp)"))
                } else if loadsAs.hasPrefix("UIImage") {
                    items.append(.image(Data(), typeIdentifier: first))
                } else {
                    items.append(.data(Data(), typeIdentifier: first))
                }
            }
        }
        self.init(items: items)
        presetName = name
    }
}
