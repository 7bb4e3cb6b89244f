import Foundation
public import Payloads
public import UniformTypes

/// The system's own activities and what each accepts, as `UIActivityViewController` tests them:
/// the classes of the activity items (for an item source, its placeholder's: "only the class of
/// the return type is consulted"), plus the few rules some add. An activity appears when it accepts
/// every item.
///
/// Evidence (UIKit's `UIActivity.ActivityType` pages; decompiled `UIAirDropActivity` and
/// `_UIActivityItemTypes()` tests):
/// - AirDrop: `NSString`, `NSAttributedString`, `UIImage`, `NSURL` (any, even an empty one — the
///   AirDrop-only sheet of a card-sharing app relies on it); `NSData` only from an item source that
///   gives its `dataTypeIdentifier`.
/// - Copy: `NSString`, `UIImage`, `NSURL` (not an empty one).
/// - Message: `NSString`, `NSAttributedString`, `UIImage`, `NSURL`; `NSData` only with a type.
/// - Mail: the same.
/// - Print: images, and PDFs or images as files or typed data; never when a video is shared.
/// - Save to Camera Roll: `UIImage`, or a file URL of an image or video.
/// - Assign to Contact: exactly one image.
/// - Add to Reading List: a web URL (`http`, `https`).
/// - Save to Files: files, images, text, typed data.
public struct SystemActivity: Sendable, Hashable {
    /// `com.apple.UIKit.activity.<Name>`.
    public var type: String
    /// What the sheet shows.
    public var title: String
    /// App row (share) or action list.
    public var isShare: Bool

    /// Every system activity, in the order the sheet shows them within their section.
    public static let all: [SystemActivity] = [
        SystemActivity(type: "com.apple.UIKit.activity.AirDrop", title: "AirDrop", isShare: true),
        SystemActivity(type: "com.apple.UIKit.activity.Message", title: "Messages", isShare: true),
        SystemActivity(type: "com.apple.UIKit.activity.Mail", title: "Mail", isShare: true),
        SystemActivity(type: "com.apple.UIKit.activity.CopyToPasteboard", title: "Copy", isShare: false),
        SystemActivity(type: "com.apple.UIKit.activity.AddToReadingList", title: "Add to Reading List", isShare: false),
        SystemActivity(type: "com.apple.UIKit.activity.AssignToContact", title: "Assign to Contact", isShare: false),
        SystemActivity(type: "com.apple.UIKit.activity.SaveToCameraRoll", title: "Save Image", isShare: false),
        SystemActivity(type: "com.apple.UIKit.activity.Print", title: "Print", isShare: false),
        SystemActivity(type: "com.apple.DocumentManagerUICore.SaveToFiles", title: "Save to Files", isShare: false),
    ]

    /// Whether the activity accepts `items`; nil when it does, otherwise why not.
    public func refusal(_ items: [ActivityItem], registry: TypeRegistry) -> String? {
        func typed(_ item: ActivityItem) -> Bool {
            if case .source(let source) = item { return source.dataTypeIdentifier != nil }
            return false
        }
        func isEmptyURL(_ item: ActivityItem) -> Bool {
            switch item {
            case .url(let url): url.absoluteString.isEmpty || url.absoluteString == "about:blank"
            case .source(let source): isEmptyURL(source.placeholder)
            default: false
            }
        }
        func conforms(_ item: ActivityItem, _ target: UniformTypeIdentifier) -> Bool {
            item.documentType(registry: registry).map { registry.conforms($0, to: target) } ?? false
        }
        let name = type.split(separator: ".").last.map(String.init) ?? type
        // An NSExtensionItem "reaches extensions as-is"; the system's own activities do not know how
        // to process it (XExtensionItem's notes name Message, Mail, Print, Copy, Assign to Contact,
        // Save to Camera Roll, Add to Reading List and AirDrop; Save to Files is taken to be the same).
        if items.contains(where: { $0.itemClass == .extensionItem }) {
            return "\(title) does not take an NSExtensionItem (only extensions receive one as it is)"
        }
        switch name {
        case "AirDrop":
            if let bad = items.first(where: { $0.itemClass == .data && !typed($0) }) {
                return
                    "\(Self.describe(bad)) is data without a type (AirDrop takes data only from an item source that gives dataTypeIdentifier)"
            }
            return nil
        case "CopyToPasteboard":
            if let bad = items.first(where: {
                ![.string, .image, .url, .fileURL].contains($0.itemClass) || isEmptyURL($0)
            }) {
                return "Copy does not take \(Self.describe(bad))"
            }
            return nil
        case "Message", "Mail":
            if let bad = items.first(where: { ($0.itemClass == .data && !typed($0)) || isEmptyURL($0) }) {
                return "\(title) does not take \(Self.describe(bad))"
            }
            return nil
        case "Print":
            if items.contains(where: { conforms($0, "public.movie") }) {
                return "Print refuses a share holding a video"
            }
            let printable = items.allSatisfy { item in
                item.itemClass == .image || conforms(item, "com.adobe.pdf") || conforms(item, "public.image")
            }
            return printable ? nil : "Print takes only images and PDFs"
        case "SaveToCameraRoll":
            let saveable = items.allSatisfy { item in
                item.itemClass == .image || conforms(item, "public.image") || conforms(item, "public.movie")
            }
            return saveable ? nil : "Save Image takes only images and videos"
        case "AssignToContact":
            return items.count == 1 && (items[0].itemClass == .image || conforms(items[0], "public.image"))
                ? nil : "Assign to Contact takes exactly one image"
        case "AddToReadingList":
            let web = items.contains { item in
                if case .url(let url) = item, ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
                    return true
                }
                if case .source(let source) = item, case .url(let url) = source.placeholder,
                    ["http", "https"].contains(url.scheme?.lowercased() ?? "")
                {
                    return true
                }
                return false
            }
            return web ? nil : "Add to Reading List needs a web URL"
        default:  // Save to Files
            if let bad = items.first(where: { $0.itemClass == .url || ($0.itemClass == .data && !typed($0)) }) {
                return "Save to Files does not take \(Self.describe(bad))"
            }
            return nil
        }
    }

    /// `a URL`, `text`, … for messages.
    static func describe(_ item: ActivityItem) -> String {
        switch item {
        case .text: "text"
        case .attributedText: "attributed text"
        case .url(let url): url.absoluteString.isEmpty || url.absoluteString == "about:blank" ? "an empty URL" : "a URL"
        case .file(let url): "the file \(url.lastPathComponent)"
        case .data: "data"
        case .image: "an image"
        case .source(let source): "an item source whose placeholder is \(describe(source.placeholder))"
        case .extensionItem: "an NSExtensionItem"
        }
    }
}

extension ActivityItem {
    /// The type of the document the item stands for: a file URL's (from its extension), an item
    /// source's `dataTypeIdentifier`, else its placeholder's; nil for text, web URLs, images, bare data.
    func documentType(registry: TypeRegistry) -> UniformTypeIdentifier? {
        switch self {
        case .file(let url): registry.preferredType(forFileNamed: url.path, conformingTo: nil)
        case .source(let source):
            source.dataTypeIdentifier.map { UniformTypeIdentifier($0) }
                ?? source.placeholder.documentType(registry: registry)
        default: nil
        }
    }
}
