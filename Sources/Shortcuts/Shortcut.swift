public import Foundation
import LocatedDocuments
public import Payloads
public import UniformTypes

/// A Shortcuts shortcut as the app stores it: a property list (`.shortcut`, `Shortcut.wflow`) with
/// `WFWorkflowActions`, `WFWorkflowTypes` (`ActionExtension`: shown in the share sheet) and
/// `WFWorkflowInputContentItemClasses` (what it accepts from the sheet).
public struct Shortcut: Sendable {
    /// One action: its identifier and parameters.
    public struct Action: Sendable {
        /// `WFWorkflowActionIdentifier`.
        public var identifier: String
        /// `WFWorkflowActionParameters`.
        var parameters: LocatedValue
        /// Where it is written.
        var location: LocatedValue.Location

        /// A parameter, by key.
        func parameter(_ key: String) -> LocatedValue? { parameters[key] }
    }

    /// The actions exthost runs; any other identifier is refused when the shortcut is read.
    public static let knownActions: [String: String] = [
        "is.workflow.actions.detect.images": "Get Images from Input",
        "is.workflow.actions.detect.text": "Get Text from Input",
        "is.workflow.actions.detect.link": "Get URLs from Input",
        "is.workflow.actions.count": "Count",
        "is.workflow.actions.conditional": "If / Otherwise / End If",
        "is.workflow.actions.selectphoto": "Select Photos",
        "is.workflow.actions.gettext": "Text",
    ]

    /// The name (`WFWorkflowName`, else the file's name).
    public var name: String
    /// The file.
    public var file: URL
    /// Whether it is in the share sheet (`WFWorkflowTypes` contains `ActionExtension`).
    public var showsInShareSheet: Bool
    /// `WFWorkflowInputContentItemClasses` (empty: any).
    public var inputClasses: [String]
    /// The actions, in order.
    public var actions: [Action]
    /// `GroupingIdentifier` → the indexes of its If, Otherwise and End If.
    var blocks: [String: (start: Int, otherwise: Int?, end: Int)]

    /// Reads the shortcut at `url`.
    /// - Throws: ``ShortcutError`` naming the line and column of what is wrong.
    public static func load(contentsOf url: URL) throws(ShortcutError) -> Shortcut {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ShortcutError(url, nil, "cannot read the shortcut")
        }
        let root: LocatedValue
        do { root = try LocatedValue.read([UInt8](data), as: .propertyList) } catch {
            throw ShortcutError(url, error.location, error.message)
        }
        guard root.isDictionary else { throw ShortcutError(url, root.location, "a shortcut is a dictionary") }
        guard let actionList = root["WFWorkflowActions"]?.array else {
            throw ShortcutError(url, root.location, "no WFWorkflowActions array")
        }
        var actions: [Action] = []
        for entry in actionList {
            guard let identifier = entry["WFWorkflowActionIdentifier"]?.string else {
                throw ShortcutError(url, entry.location, "an action without WFWorkflowActionIdentifier")
            }
            let isAppIntent = identifier.split(separator: ".").count >= 3 && !identifier.hasPrefix("is.workflow.")
            guard knownActions[identifier] != nil || isAppIntent else {
                throw ShortcutError(
                    url, entry["WFWorkflowActionIdentifier"]?.location,
                    "unknown action \(identifier) (exthost runs \(knownActions.keys.sorted().joined(separator: ", ")), "
                        + "and an app's intents as <bundle identifier>.<intent class name>)")
            }
            let parameters = entry["WFWorkflowActionParameters"] ?? .dictionary([], entry.location)
            guard parameters.isDictionary else {
                throw ShortcutError(url, parameters.location, "WFWorkflowActionParameters must be a dictionary")
            }
            actions.append(Action(identifier: identifier, parameters: parameters, location: entry.location))
        }
        var blocks: [String: (start: Int, otherwise: Int?, end: Int)] = [:]
        var open: [(group: String, start: Int, otherwise: Int?)] = []
        for (index, action) in actions.enumerated() where action.identifier == "is.workflow.actions.conditional" {
            guard let group = action.parameter("GroupingIdentifier")?.string else {
                throw ShortcutError(url, action.location, "an If without GroupingIdentifier")
            }
            switch Int(action.parameter("WFControlFlowMode")?.number ?? -1) {
            case 0: open.append((group, index, nil))
            case 1:
                guard let last = open.last, last.group == group else {
                    throw ShortcutError(url, action.location, "Otherwise without its If (GroupingIdentifier \(group))")
                }
                open[open.count - 1].otherwise = index
            case 2:
                guard let last = open.popLast(), last.group == group else {
                    throw ShortcutError(url, action.location, "End If without its If (GroupingIdentifier \(group))")
                }
                blocks[group] = (last.start, last.otherwise, index)
            default:
                throw ShortcutError(
                    url, action.parameter("WFControlFlowMode")?.location ?? action.location,
                    "WFControlFlowMode must be 0 (If), 1 (Otherwise) or 2 (End If)")
            }
        }
        if let unclosed = open.last {
            throw ShortcutError(url, actions[unclosed.start].location, "an If without End If")
        }
        let name = root["WFWorkflowName"]?.string ?? url.deletingPathExtension().lastPathComponent
        let types = (root["WFWorkflowTypes"]?.array ?? []).compactMap(\.string)
        let classes = (root["WFWorkflowInputContentItemClasses"]?.array ?? []).compactMap(\.string)
        for item in root["WFWorkflowInputContentItemClasses"]?.array ?? [] {
            guard let name = item.string, ContentItem.knownClasses.contains(name) else {
                throw ShortcutError(
                    url, item.location,
                    "unknown input class '\(item.string ?? "")' (one of \(ContentItem.knownClasses.sorted().joined(separator: ", ")))"
                )
            }
        }
        return Shortcut(
            name: name, file: url, showsInShareSheet: types.contains("ActionExtension"), inputClasses: classes,
            actions: actions, blocks: blocks)
    }

    /// Whether the share sheet offers it for `items`: shown in the share sheet, and (unless it accepts
    /// any input) at least one item is of a class it accepts — Shortcuts passes it only those.
    public func accepts(_ items: [ContentItem]) -> Bool {
        showsInShareSheet && !acceptedInput(items).isEmpty
    }

    /// The items of a class it accepts (all, when it names none).
    public func acceptedInput(_ items: [ContentItem]) -> [ContentItem] {
        guard !inputClasses.isEmpty else { return items }
        return items.filter { item in inputClasses.contains { item.isAccepted(by: $0) } }
    }

    /// The shortcuts in a device's library (`<root>/Shortcuts/*.shortcut`), readable ones only.
    public static func library(at root: URL) -> [Shortcut] {
        let folder = root.appendingPathComponent("Shortcuts")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        return names.filter { $0.hasSuffix(".shortcut") || $0.hasSuffix(".wflow") }.compactMap {
            try? load(contentsOf: folder.appendingPathComponent($0))
        }
    }
}

/// One item of a shortcut's input or of an action's output, by its Shortcuts class.
public enum ContentItem: Sendable, Hashable {
    /// `WFStringContentItem`.
    case text(String)
    /// `WFRichTextContentItem`.
    case richText(String)
    /// `WFURLContentItem`.
    case url(URL)
    /// `WFImageContentItem`: a file, or bytes with their type.
    case image(name: String, data: Data, typeIdentifier: String)
    /// `WFPDFContentItem`.
    case pdf(URL)
    /// `WFGenericFileContentItem`.
    case file(URL, typeIdentifier: String)
    /// A number (`Count`'s output).
    case number(Double)

    /// The classes a shortcut may name in `WFWorkflowInputContentItemClasses`.
    public static let knownClasses: Set<String> = [
        "WFImageContentItem", "WFStringContentItem", "WFURLContentItem", "WFGenericFileContentItem", "WFPDFContentItem",
        "WFRichTextContentItem", "WFSafariWebPageContentItem", "WFArticleContentItem", "WFAppStoreAppContentItem",
        "WFContactContentItem", "WFDateContentItem", "WFEmailAddressContentItem", "WFLocationContentItem",
        "WFDCMapsLinkContentItem", "WFAVAssetContentItem", "WFPhoneNumberContentItem", "WFiTunesProductContentItem",
        "WFFolderContentItem", "WFAppContentItem",
    ]

    /// The item's class.
    public var className: String {
        switch self {
        case .text: "WFStringContentItem"
        case .richText: "WFRichTextContentItem"
        case .url: "WFURLContentItem"
        case .image: "WFImageContentItem"
        case .pdf: "WFPDFContentItem"
        case .file: "WFGenericFileContentItem"
        case .number: "WFNumberContentItem"
        }
    }

    /// Whether a shortcut accepting `className` takes this item: its own class; rich text as text
    /// and text as rich text; any file (a PDF, an image file) as a generic file; a web URL as a
    /// Safari web page or an article.
    func isAccepted(by className: String) -> Bool {
        if className == self.className { return true }
        switch (self, className) {
        case (.richText, "WFStringContentItem"), (.text, "WFRichTextContentItem"): return true
        case (.pdf, "WFGenericFileContentItem"), (.image, "WFGenericFileContentItem"): return true
        case (.url(let url), "WFSafariWebPageContentItem"), (.url(let url), "WFArticleContentItem"):
            return ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        default: return false
        }
    }

    /// A short description for the report.
    public var summary: String {
        switch self {
        case .text(let text), .richText(let text): "\(className) \"\(text.prefix(40))\""
        case .url(let url): "\(className) \(url.absoluteString)"
        case .image(let name, let data, let type): "\(className) \(name) (\(type), \(data.count) bytes)"
        case .pdf(let url): "\(className) \(url.lastPathComponent)"
        case .file(let url, let type): "\(className) \(url.lastPathComponent) (\(type))"
        case .number(let value): "\(className) \(value.formatted())"
        }
    }
}

extension Double {
    fileprivate func formatted() -> String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

extension ContentItem {
    /// What Shortcuts receives for the sheet's items: text, rich text, a URL, an image (an image
    /// file, `UIImage`, or image data), a PDF, another file; an item source gives its item.
    public static func items(from activityItems: [ActivityItem], registry: TypeRegistry) -> [ContentItem] {
        activityItems.flatMap { item -> [ContentItem] in
            // An NSExtensionItem reaches Shortcuts (an action extension) as it is: its attachments.
            if case .extensionItem(let given) = item {
                return given.attachments.compactMap { self.item(from: $0, registry: registry) }
            }
            return self.item(from: item, registry: registry).map { [$0] } ?? []
        }
    }

    static func item(from item: ActivityItem, registry: TypeRegistry) -> ContentItem? {
        switch item {
        case .text(let text): return .text(text)
        case .attributedText(let text): return .richText(text)
        case .url(let url): return url.isFileURL ? file(url, registry: registry) : .url(url)
        case .file(let url): return file(url, registry: registry)
        case .image(let data, let type): return .image(name: "image", data: data, typeIdentifier: type)
        case .data(let data, let type):
            guard let type, let identifier = UniformTypeIdentifier(validating: type),
                registry.conforms(identifier, to: .image)
            else { return nil }
            return .image(name: "image", data: data, typeIdentifier: type)
        case .source(let source): return self.item(from: source.item ?? source.placeholder, registry: registry)
        case .extensionItem(let given):
            return given.attachments.first.flatMap { self.item(from: $0, registry: registry) }
        }
    }

    /// A file as Shortcuts types it: an image, a PDF, or a generic file.
    public static func file(_ url: URL, registry: TypeRegistry) -> ContentItem? {
        let type = registry.preferredType(forFileNamed: url.path)
        if registry.conforms(type, to: .image) {
            guard let data = try? Data(contentsOf: url) else { return nil }
            return .image(name: url.lastPathComponent, data: data, typeIdentifier: type.rawValue)
        }
        if registry.conforms(type, to: "com.adobe.pdf") { return .pdf(url) }
        return .file(url, typeIdentifier: type.rawValue)
    }
}
