public import ActivationRules

// What the share sheet shows, as values: the report of `ShareSheet.present` and of
// `UIActivityViewController.sheet(on:)`. A module of its own so that UIKit (which extensions link)
// can return it without linking the share sheet itself.

/// One row the share sheet could show, shown or hidden, and why.
public struct SheetActivity: Codable, Sendable, Hashable {
    /// `share-extension`, `action-extension`, `app`, `shortcut` or `system`.
    public var kind: String
    /// The activity type (an extension's bundle identifier; `com.apple.UIKit.activity.…`;
    /// `open-in:`/`copy-to:` and the app's bundle identifier for an app).
    public var id: String
    /// What the row says.
    public var title: String
    /// The activity type the sharing app's completion receives and `excludedActivityTypes` matches:
    /// ``id``, except for an app — `com.apple.UIKit.activity.RemoteOpenInApplication-ByCopy` (or
    /// `-InPlace`) for every app, as UIKit reports it.
    public var activityType: String?
    /// The bundle it comes from.
    public var bundleIdentifier: String?
    /// Whether the sheet shows it.
    public var shown: Bool
    /// Why it is shown or hidden.
    public var reason: String
    /// `app-row` (share activities) or `actions` (the list below).
    public var section: String
    /// For an extension: how its activation rule decided.
    public var explanation: Explanation?

    /// A row.
    public init(
        kind: String, id: String, title: String, activityType: String? = nil, bundleIdentifier: String? = nil,
        shown: Bool, reason: String, section: String, explanation: Explanation? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.activityType = activityType
        self.bundleIdentifier = bundleIdentifier
        self.shown = shown
        self.reason = reason
        self.section = section
        self.explanation = explanation
    }
}

/// The preview header at the top of the sheet.
public struct SheetPreview: Codable, Sendable, Hashable {
    /// The title line.
    public var title: String
    /// The line below it.
    public var subtitle: String?
    /// What stands left of it: `icon`, `image`, `thumbnail`, `link-placeholder` or `type-icon`.
    public var image: String
    /// Which item and which rule decided the header.
    public var decidedBy: String
    /// A title the header changes to after presentation (metadata filled in later).
    public var updatedTitle: String?

    /// A header.
    public init(title: String, subtitle: String? = nil, image: String, decidedBy: String, updatedTitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        self.decidedBy = decidedBy
        self.updatedTitle = updatedTitle
    }
}

/// One shared item as the sheet sees it.
public struct SheetItem: Codable, Sendable, Hashable {
    /// Its position in `activityItems`.
    public var index: Int
    /// Its class (an item source's placeholder's).
    public var itemClass: String
    /// The types its attachment registers.
    public var registeredTypeIdentifiers: [String]

    /// An item.
    public init(index: Int, itemClass: String, registeredTypeIdentifiers: [String]) {
        self.index = index
        self.itemClass = itemClass
        self.registeredTypeIdentifiers = registeredTypeIdentifiers
    }
}

/// What `UIActivityViewController` shows for some activity items on a device.
public struct SheetReport: Codable, Sendable {
    /// Every activity, shown ones first in the order the sheet shows them, then hidden ones.
    public var activities: [SheetActivity]
    /// The preview header.
    public var preview: SheetPreview
    /// The items.
    public var items: [SheetItem]

    /// A sheet.
    public init(activities: [SheetActivity], preview: SheetPreview, items: [SheetItem]) {
        self.activities = activities
        self.preview = preview
        self.items = items
    }
}

// The JSON keeps every key the documentation lists, null when empty.
extension SheetActivity {
    private enum CodingKeys: String, CodingKey {
        case kind, id, title, activityType, bundleIdentifier, shown, reason, section, explanation
    }

    /// Encodes every key, `null` for a missing value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(activityType ?? id, forKey: .activityType)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(shown, forKey: .shown)
        try container.encode(reason, forKey: .reason)
        try container.encode(section, forKey: .section)
        try container.encodeIfPresent(explanation, forKey: .explanation)
    }
}

extension SheetPreview {
    private enum CodingKeys: String, CodingKey { case title, subtitle, image, decidedBy, updatedTitle }

    /// Encodes every key, `null` for a missing value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(subtitle, forKey: .subtitle)
        try container.encode(image, forKey: .image)
        try container.encode(decidedBy, forKey: .decidedBy)
        try container.encode(updatedTitle, forKey: .updatedTitle)
    }
}
