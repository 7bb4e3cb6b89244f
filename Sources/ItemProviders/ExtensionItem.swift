/// One item a host shares: the model of Apple's `NSExtensionItem`.
///
/// `attributedTitle` and `attributedContentText` are plain strings here. As on Apple's platforms
/// they are views onto ``userInfo``: setting ``userInfo`` afterwards overrides all three of
/// `attachments`, `attributedTitle` and `attributedContentText` — the title and content text
/// become the values under ``attributedTitleKey`` and ``attributedContentTextKey`` (nil when
/// absent) and the attachments become nil (providers are not `Sendable`, so they never live in
/// `userInfo`; assign ``attachments`` after ``userInfo``). Not `Sendable`: it holds providers.
public final class ExtensionItem {
    /// `NSExtensionItemAttributedTitleKey`.
    public static let attributedTitleKey = "NSExtensionItemAttributedTitleKey"
    /// `NSExtensionItemAttributedContentTextKey`.
    public static let attributedContentTextKey = "NSExtensionItemAttributedContentTextKey"
    /// `NSExtensionItemAttachmentsKey` (its value is the attachment count, for display).
    public static let attachmentsKey = "NSExtensionItemAttachmentsKey"

    private var extraUserInfo: [String: any Sendable] = [:]

    /// The providers of the item, in the order the host added them.
    public var attachments: [ItemProvider]?
    /// The title (`attributedTitle`).
    public var attributedTitle: String?
    /// The content text (`attributedContentText`): in a share extension, usually the text the user
    /// selected or typed.
    public var attributedContentText: String?

    /// An empty item.
    public init() {}

    /// An item with attachments, a title and content text.
    public init(attachments: [ItemProvider]?, attributedTitle: String? = nil, attributedContentText: String? = nil) {
        self.attachments = attachments
        self.attributedTitle = attributedTitle
        self.attributedContentText = attributedContentText
    }

    /// The item's dictionary: the title and content text under their keys, the attachment count
    /// under ``attachmentsKey``, and whatever else was set. Setting it overrides the three views.
    public var userInfo: [String: any Sendable]? {
        get {
            var info = extraUserInfo
            if let attributedTitle { info[Self.attributedTitleKey] = attributedTitle }
            if let attributedContentText { info[Self.attributedContentTextKey] = attributedContentText }
            if let attachments { info[Self.attachmentsKey] = attachments.count }
            return info.isEmpty ? nil : info
        }
        set {
            var info = newValue ?? [:]
            attributedTitle = info.removeValue(forKey: Self.attributedTitleKey) as? String
            attributedContentText = info.removeValue(forKey: Self.attributedContentTextKey) as? String
            info.removeValue(forKey: Self.attachmentsKey)
            attachments = nil
            extraUserInfo = info
        }
    }
}
