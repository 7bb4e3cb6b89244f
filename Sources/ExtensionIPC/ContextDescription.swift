/// The extension context the host hands over in ``Welcome``: what the share sheet was given.
public struct ContextDescription: Codable, Hashable, Sendable {
    /// The extension items (`NSExtensionContext.inputItems`), in order.
    public var items: [ItemDescription]

    /// A context with `items`.
    public init(items: [ItemDescription]) { self.items = items }
}

/// One `NSExtensionItem`.
public struct ItemDescription: Codable, Hashable, Sendable {
    /// `attributedTitle` as plain text.
    public var title: String?
    /// `attributedContentText` as plain text.
    public var contentText: String?
    /// The item's attachments (item providers), in order.
    public var attachments: [AttachmentDescription]

    /// An item.
    public init(title: String? = nil, contentText: String? = nil, attachments: [AttachmentDescription]) {
        self.title = title
        self.contentText = contentText
        self.attachments = attachments
    }
}

/// One item provider: its registered representations, in registration (fidelity) order.
public struct AttachmentDescription: Codable, Hashable, Sendable {
    /// The attachment's index across all items of the context (what ``LoadRequest`` names).
    public var index: Int
    /// `suggestedName` (a file name without directories; the extension must still not trust it).
    public var suggestedName: String?
    /// `registeredTypeIdentifiers` with how each can be loaded.
    public var representations: [RepresentationDescription]

    /// An attachment.
    public init(index: Int, suggestedName: String? = nil, representations: [RepresentationDescription]) {
        self.index = index
        self.suggestedName = suggestedName
        self.representations = representations
    }
}

/// How a representation can be loaded (as registered with the item provider).
public enum RepresentationKind: String, Codable, Hashable, Sendable {
    /// `registerDataRepresentation`: bytes, streamed as ``DataChunk``s.
    case data
    /// `registerFileRepresentation` (a copy): a descriptor the extension copies into its `tmp/`.
    case file
    /// `registerFileRepresentation(fileOptions: .openInPlace)`: a descriptor to the original,
    /// usable only while its security scope is being accessed.
    case openInPlace = "open-in-place"
}

/// One registered type of an attachment.
public struct RepresentationDescription: Codable, Hashable, Sendable {
    /// The uniform type identifier, e.g. `public.png`.
    public var typeIdentifier: String
    /// How it loads.
    public var kind: RepresentationKind
    /// The size in bytes when the host knows it.
    public var byteCount: Int64?
    /// For ``RepresentationKind/openInPlace``: the opaque token to present in
    /// ``Message/startAccessing(_:)``.
    public var securityScopeToken: String?
    /// For a data representation the host registered as an object: the class `loadItem` returns
    /// in the extension (nil: `Data`).
    public var objectClass: ObjectClass?

    /// A representation.
    public init(
        typeIdentifier: String, kind: RepresentationKind, byteCount: Int64? = nil, securityScopeToken: String? = nil,
        objectClass: ObjectClass? = nil
    ) {
        self.typeIdentifier = typeIdentifier
        self.kind = kind
        self.byteCount = byteCount
        self.securityScopeToken = securityScopeToken
        self.objectClass = objectClass
    }
}

/// The class of the object behind a data representation, so `loadItem` in the extension returns
/// what it returns on a device (`if let url = item as? URL`). The bytes that travel are the
/// object's data representation; the extension rebuilds the object from them.
public enum ObjectClass: String, Codable, Hashable, Sendable, CaseIterable {
    /// `NSURL`: the bytes are the absolute string in UTF-8.
    case url
    /// `NSString`: UTF-8 text.
    case string
    /// `NSData`: the bytes themselves.
    case data
    /// A property list (`NSDictionary`, `NSArray`, …): a binary or XML plist.
    case propertyList = "property-list"
    /// `NSAttributedString`: its plain text in UTF-8.
    case attributedString = "attributed-string"
    /// `UIImage`: encoded image bytes (PNG, JPEG, …).
    case image
}
