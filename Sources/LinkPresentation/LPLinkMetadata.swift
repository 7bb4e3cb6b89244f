@_exported public import ExtensionFoundation
public import Foundation

/// `LPLinkMetadata`: what the share sheet's preview header shows for a link, handed over by an
/// item source's `activityViewControllerLinkMetadata(_:)`. Fill at least ``originalURL`` and
/// ``url``; a nil ``iconProvider`` makes the header use ``imageProvider``. The sheet reads the
/// same object each time it is presented, so setting a property later updates the header.
open class LPLinkMetadata: NSObject, @unchecked Sendable {
    /// The URL the user shared.
    open var originalURL: URL?
    /// The URL after redirects.
    open var url: URL?
    /// The page's title.
    open var title: String?
    /// The site's icon.
    open var iconProvider: NSItemProvider?
    /// A representative image.
    open var imageProvider: NSItemProvider?

    /// Empty metadata.
    public override init() { super.init() }
}
