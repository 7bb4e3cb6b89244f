import Foundation
import Payloads
import SheetReports
import UniformTypes

/// The preview header `UIActivityViewController` draws above the activities (iOS 13+).
///
/// Rules (evidence: the article this project started from, WWDC 2019 session 262, SwiftUI's
/// `ShareLink` page, developers' reports):
/// 1. An item source whose `activityViewControllerLinkMetadata` gives `LPLinkMetadata`, and whose
///    `itemForActivityType` gives an item, decides the header: the metadata's title (else its
///    URL's host), the URL's host below it, its icon (`iconProvider`, else `imageProvider`), else
///    the link placeholder. Changing the same metadata object later updates the header.
/// 2. Otherwise the items are ranked by kind — an item source above text, text above a URL, a URL
///    above data (files, then images, then bare data, exthost's placing of the kinds the evidence
///    does not rank) — and the first of the best kind decides. So a URL shared with a String shows
///    the String, not the link: the article's problem.
/// 3. Text shows its first line; a web URL its host beside a link placeholder while the system
///    fetches the page (exthost does not fetch: `decidedBy` says so); a file its name and type; an
///    image its type's description ("PNG image"); data its type's description.
enum SheetPreviewRules {
    static func preview(_ items: [ActivityItem], registry: TypeRegistry) -> SheetPreview {
        for (index, item) in items.enumerated() {
            guard case .source(let source) = item, let metadata = source.linkMetadata, source.item != nil else {
                continue
            }
            let link = metadata.originalURL ?? metadata.url
            return SheetPreview(
                title: metadata.title ?? link?.host ?? link?.absoluteString ?? "",
                subtitle: link?.host,
                image: metadata.hasIcon || metadata.hasImage ? "icon" : "link-placeholder",
                decidedBy:
                    "item \(index): LPLinkMetadata from activityViewControllerLinkMetadata (it wins over every item)",
                updatedTitle: metadata.laterTitle)
        }
        guard
            let (index, best) = items.enumerated().min(by: { rank($0.element) < rank($1.element) })
                .map({ ($0.offset, $0.element) })
        else {
            return SheetPreview(title: "", subtitle: nil, image: "icon", decidedBy: "no items")
        }
        let withoutMetadata = items.contains {
            if case .source(let source) = $0, source.linkMetadata != nil, source.item == nil { return true }
            return false
        }
        var preview = describe(best, index: index, registry: registry)
        if withoutMetadata {
            preview.decidedBy +=
                "; an item source's LPLinkMetadata is ignored because its itemForActivityType gives no item"
        }
        return preview
    }

    /// Lower is better; the kind an item source's placeholder has decides only among sources.
    static func rank(_ item: ActivityItem) -> Int {
        switch item {
        case .source: 0
        case .text, .attributedText: 1
        case .url: 2
        case .file: 3
        case .image: 4
        case .data: 5
        case .extensionItem: 6
        }
    }

    static let kindNames = ["an item source", "text", "a URL", "a file", "an image", "data", "an NSExtensionItem"]

    static func describe(_ item: ActivityItem, index: Int, registry: TypeRegistry) -> SheetPreview {
        let why =
            "item \(index): \(kindNames[rank(item)]) (item source > text > URL > file > image > data; ties go to the earlier item)"
        switch item {
        case .text(let text), .attributedText(let text):
            let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            return SheetPreview(title: line, subtitle: nil, image: "type-icon", decidedBy: why)
        case .url(let url):
            guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                return SheetPreview(title: url.absoluteString, subtitle: nil, image: "link-placeholder", decidedBy: why)
            }
            return SheetPreview(
                title: url.host ?? url.absoluteString, subtitle: url.host, image: "link-placeholder",
                decidedBy: why + "; the system would fetch the page for its title and icon (exthost does not fetch)")
        case .file(let url):
            let type = registry.preferredType(forFileNamed: url.path, conformingTo: nil)
            let visual = registry.conforms(type, to: "public.image") || registry.conforms(type, to: "com.adobe.pdf")
            return SheetPreview(
                title: url.lastPathComponent, subtitle: typeDescription(type, registry: registry),
                image: visual ? "thumbnail" : "type-icon", decidedBy: why)
        case .image(_, let type):
            return SheetPreview(
                title: typeDescription(UniformTypeIdentifier(type), registry: registry), subtitle: nil, image: "image",
                decidedBy: why)
        case .data(_, let type):
            return SheetPreview(
                title: typeDescription(UniformTypeIdentifier(type ?? "public.data"), registry: registry), subtitle: nil,
                image: "type-icon", decidedBy: why)
        case .extensionItem(let given):
            // exthost's choice (undocumented): the item's title, else its text, under a type icon.
            return SheetPreview(
                title: given.title ?? given.contentText ?? "", subtitle: nil, image: "type-icon", decidedBy: why)
        case .source(let source):
            var preview = describe(source.placeholder, index: index, registry: registry)
            if source.placeholder.isSource == false, let subject = source.subject, preview.title.isEmpty {
                preview.title = subject
            }
            if source.hasThumbnail { preview.image = "thumbnail" }
            preview.decidedBy = why + "; shown as its placeholder, \(kindNames[rank(source.placeholder)])"
            return preview
        }
    }

    /// `UTTypeDescription` when the type declares one (an app's exported type); for a system type,
    /// whose descriptions exthost's table lacks, the form iOS uses built from its preferred
    /// extension: "PNG image", "PDF document", "MP4 movie", "MP3 audio" (a report shows "PNG image"
    /// for a shared UIImage); else the identifier.
    static func typeDescription(_ type: UniformTypeIdentifier, registry: TypeRegistry) -> String {
        let declaration = registry.declaration(for: type)
        if let description = declaration?.description, !description.isEmpty { return description }
        guard let ext = declaration?.filenameExtensions.first?.uppercased() else { return type.rawValue }
        if registry.conforms(type, to: "public.image") { return "\(ext) image" }
        if registry.conforms(type, to: "public.movie") { return "\(ext) movie" }
        if registry.conforms(type, to: "public.audio") { return "\(ext) audio" }
        return "\(ext) document"
    }
}

extension ActivityItem {
    var isSource: Bool {
        if case .source = self { return true }
        return false
    }
}
