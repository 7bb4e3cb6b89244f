public import ItemProviders

/// What one representation of an attachment is, for `exthost payload show`: the host's view, with
/// what the wire never carries (visibility, origin, load delay, a planned failure). The extension
/// sees `ExtensionIPC.RepresentationDescription` instead (the wire's, with the security-scope
/// token and the class `loadItem` returns).
public struct PayloadRepresentationDescription: Sendable, Hashable {
    /// The registered type.
    public var typeIdentifier: String
    /// How it is backed (data, file, open-in-place, …).
    public var kind: RegisteredRepresentation.Kind
    /// Who may see it.
    public var visibility: RepresentationVisibility
    /// Its size in bytes, when known without loading it.
    public var byteCount: Int64?
    /// Where its bytes come from: a file path, `text`, a URL, `generated`.
    public var origin: String
    /// A load delay in milliseconds (a manifest knob; 0 when none).
    public var loadDelayMilliseconds: Int
    /// The error every load ends with (a manifest knob), as `domain code: message`.
    public var failure: String?
}

/// What one attachment (item provider) is.
public struct PayloadAttachmentDescription: Sendable, Hashable {
    /// The provider's `suggestedName`.
    public var suggestedName: String?
    /// Every registered representation in registration order, hidden ones included.
    public var representations: [PayloadRepresentationDescription]

    /// The types the extension sees (hidden representations left out), in order.
    public var visibleTypeIdentifiers: [String] {
        representations.filter { ProviderConsumer.otherTeam.sees($0.visibility) }.map(\.typeIdentifier)
    }
}

/// What one extension item is.
public struct PayloadItemDescription: Sendable, Hashable {
    /// `attributedTitle`.
    public var title: String?
    /// `attributedContentText`.
    public var contentText: String?
    /// The attachments in order.
    public var attachments: [PayloadAttachmentDescription]
}
