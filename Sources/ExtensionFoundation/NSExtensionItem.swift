public import Foundation
package import ItemProviders

/// `NSExtensionItemAttributedTitleKey`: the key of ``NSExtensionItem/attributedTitle`` in `userInfo`.
public let NSExtensionItemAttributedTitleKey = ExtensionItem.attributedTitleKey
/// `NSExtensionItemAttributedContentTextKey`: the key of ``NSExtensionItem/attributedContentText``.
public let NSExtensionItemAttributedContentTextKey = ExtensionItem.attributedContentTextKey
/// `NSExtensionItemAttachmentsKey`: the key of ``NSExtensionItem/attachments`` in `userInfo`.
public let NSExtensionItemAttachmentsKey = ExtensionItem.attachmentsKey

/// Apple's `NSExtensionItem`: one shared item — a title, content text, and attachments (item
/// providers). A share sheet sends one item with an attachment per shared thing.
///
/// As on Apple's platforms, the title, content text and attachments are views onto ``userInfo``.
open class NSExtensionItem: NSObject {
    private var info: [AnyHashable: Any] = [:]

    /// An empty item.
    public override init() { super.init() }

    /// The attachments, in the order the host added them.
    open var attachments: [NSItemProvider]? {
        get { info[NSExtensionItemAttachmentsKey] as? [NSItemProvider] }
        set { info[NSExtensionItemAttachmentsKey] = newValue }
    }

    /// The title. Safari leaves it nil and puts the page title in ``attributedContentText``.
    open var attributedTitle: NSAttributedString? {
        get { info[NSExtensionItemAttributedTitleKey] as? NSAttributedString }
        set { info[NSExtensionItemAttributedTitleKey] = newValue }
    }

    /// The content text: a web page's title, or the text the user typed in a compose sheet.
    open var attributedContentText: NSAttributedString? {
        get { info[NSExtensionItemAttributedContentTextKey] as? NSAttributedString }
        set { info[NSExtensionItemAttributedContentTextKey] = newValue }
    }

    /// The item's dictionary: the title, content text and attachments under their keys, plus
    /// anything else the host put there.
    open var userInfo: [AnyHashable: Any]? {
        get { info.isEmpty ? nil : info }
        set { info = newValue ?? [:] }
    }

    /// The item as the model sees it (attachments' models, plain-text title and content).
    package var model: ExtensionItem {
        ExtensionItem(
            attachments: attachments?.map(\.model), attributedTitle: attributedTitle?.string,
            attributedContentText: attributedContentText?.string)
    }

    /// An item over a model item.
    package convenience init(model: ExtensionItem) {
        self.init()
        attachments = model.attachments?.map { NSItemProvider(model: $0) }
        attributedTitle = model.attributedTitle.map { NSAttributedString(string: $0) }
        attributedContentText = model.attributedContentText.map { NSAttributedString(string: $0) }
    }
}
