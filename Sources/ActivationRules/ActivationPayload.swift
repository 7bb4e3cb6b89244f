public import Foundation
public import Predicates

/// What a rule is evaluated against: the shared extension items, each with its
/// attachments' registered type identifiers, and whether the share is a Safari web page.
public struct ActivationPayload: Sendable, Hashable {
    /// One attachment (an item provider as the rule sees it).
    public struct Attachment: Sendable, Hashable {
        /// The registered types, in registration order.
        public var registeredTypeIdentifiers: [String]
        /// Any other keys of the attachment's dictionary (`fileProviderItem`, …), kept as given.
        public var otherKeys: [String: PlistValue]

        /// Creates an attachment.
        public init(_ registeredTypeIdentifiers: [String], otherKeys: [String: PlistValue] = [:]) {
            self.registeredTypeIdentifiers = registeredTypeIdentifiers
            self.otherKeys = otherKeys
        }

        /// The attachment as the rule sees it.
        public var plistValue: PlistValue {
            var dictionary = otherKeys
            dictionary["registeredTypeIdentifiers"] = .array(registeredTypeIdentifiers.map(PlistValue.string))
            return .dictionary(dictionary)
        }
    }

    /// One extension item.
    public struct Item: Sendable, Hashable {
        /// Its attachments; `nil` when the item has no `attachments` key at all.
        public var attachments: [Attachment]?
        /// Any other keys (`attributedTitle`, `attributedContentText`, `userInfo`, …), kept as given.
        public var otherKeys: [String: PlistValue]

        /// Creates an item.
        public init(_ attachments: [Attachment]?, otherKeys: [String: PlistValue] = [:]) {
            self.attachments = attachments
            self.otherKeys = otherKeys
        }

        /// The item as the rule sees it.
        public var plistValue: PlistValue {
            var dictionary = otherKeys
            if let attachments { dictionary["attachments"] = .array(attachments.map(\.plistValue)) }
            return .dictionary(dictionary)
        }

        /// Whether one of its attachments registers `type` (case-insensitively).
        public func hasAttachment(registering type: String) -> Bool {
            (attachments ?? []).contains { attachment in
                attachment.registeredTypeIdentifiers.contains { $0.lowercased() == type }
            }
        }
    }

    /// The extension items, in order.
    public var items: [Item]
    /// Whether the share comes from a Safari web page (the device adds `com.apple.active-webpage`).
    public var isWebpage: Bool

    /// Creates a payload.
    public init(items: [Item], isWebpage: Bool = false) {
        self.items = items
        self.isWebpage = isWebpage
    }

    /// The whole object a rule is evaluated against: `{extensionItems: [...]}`.
    public var plistValue: PlistValue {
        .dictionary(["extensionItems": .array(items.map(\.plistValue))])
    }

    /// The number of attachments over all items.
    public var attachmentCount: Int { items.reduce(0) { $0 + ($1.attachments?.count ?? 0) } }

    // MARK: - Reading

    /// Reads a payload from its plist-shaped value:
    /// `{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": [...]}]}], "webpage": true}`.
    ///
    /// - Parameters:
    ///   - value: the parsed object.
    ///   - source: a name for messages (the file path).
    /// - Throws: ``ActivationRuleError`` with code `invalidPayload`, naming the path to the bad value
    ///   (`extensionItems[0].attachments[1].registeredTypeIdentifiers[0]`).
    public init(_ value: PlistValue, source: String) throws {
        func fail(_ path: String, _ expected: String, _ found: PlistValue) -> ActivationRuleError {
            ActivationRuleError(
                .invalidPayload, "\(source): \(path) must be \(expected), not a \(found.typeName)")
        }
        guard case .dictionary(let root) = value else { throw fail("the top level", "an object", value) }
        let known: Set<String> = ["extensionItems", "webpage"]
        if let unknown = root.keys.sorted().first(where: { !known.contains($0) }) {
            throw ActivationRuleError(
                .invalidPayload,
                "\(source): unknown top-level key '\(unknown)'; a payload has 'extensionItems' and optionally 'webpage'"
            )
        }
        var isWebpage = false
        if let webpage = root["webpage"] {
            guard case .bool(let flag) = webpage else { throw fail("webpage", "true or false", webpage) }
            isWebpage = flag
        }
        guard let itemsValue = root["extensionItems"] else {
            throw ActivationRuleError(
                .invalidPayload, "\(source): the payload has no 'extensionItems' array")
        }
        guard case .array(let itemValues) = itemsValue else { throw fail("extensionItems", "an array", itemsValue) }
        var items: [Item] = []
        for (itemIndex, itemValue) in itemValues.enumerated() {
            let itemPath = "extensionItems[\(itemIndex)]"
            guard case .dictionary(var itemDictionary) = itemValue else { throw fail(itemPath, "an object", itemValue) }
            var attachments: [Attachment]?
            if let attachmentsValue = itemDictionary.removeValue(forKey: "attachments") {
                guard case .array(let attachmentValues) = attachmentsValue else {
                    throw fail(itemPath + ".attachments", "an array", attachmentsValue)
                }
                var list: [Attachment] = []
                for (attachmentIndex, attachmentValue) in attachmentValues.enumerated() {
                    let path = "\(itemPath).attachments[\(attachmentIndex)]"
                    guard case .dictionary(var attachmentDictionary) = attachmentValue else {
                        throw fail(path, "an object", attachmentValue)
                    }
                    let typesValue = attachmentDictionary.removeValue(forKey: "registeredTypeIdentifiers") ?? .array([])
                    guard case .array(let typeValues) = typesValue else {
                        throw fail(path + ".registeredTypeIdentifiers", "an array of strings", typesValue)
                    }
                    var types: [String] = []
                    for (typeIndex, typeValue) in typeValues.enumerated() {
                        guard case .string(let type) = typeValue else {
                            throw fail("\(path).registeredTypeIdentifiers[\(typeIndex)]", "a string", typeValue)
                        }
                        types.append(type)
                    }
                    list.append(Attachment(types, otherKeys: attachmentDictionary))
                }
                attachments = list
            }
            items.append(Item(attachments, otherKeys: itemDictionary))
        }
        self.init(items: items, isWebpage: isWebpage)
    }

    /// Reads a payload from a JSON file holding the object described in ``init(_:source:)``.
    ///
    /// - Throws: ``ActivationRuleError``: `unreadable` when the file cannot be read, `invalidPayload`
    ///   when it is not JSON or not a payload.
    public static func load(jsonAt url: URL) throws -> ActivationPayload {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ActivationRuleError(.unreadable, "cannot read \(url.path)", cause: error)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
            throw ActivationRuleError(
                .invalidPayload, "\(url.path) is not valid JSON: \(detail)", cause: error)
        }
        guard let value = PlistValue(json: object) else {
            throw ActivationRuleError(.invalidPayload, "\(url.path) holds a value JSON cannot describe")
        }
        return try ActivationPayload(value, source: url.path)
    }

    // MARK: - Device adjustments

    /// The payload with the device's adjustments applied (types de-duplicated,
    /// `com.apple.active-webpage` added to the `public.url` attachments of a web page).
    public func adjusted(_ options: ActivationOptions) -> ActivationPayload {
        var copy = self
        for itemIndex in copy.items.indices {
            guard var attachments = copy.items[itemIndex].attachments else { continue }
            for index in attachments.indices {
                var types = attachments[index].registeredTypeIdentifiers
                if options.deduplicatesTypes {
                    var seen: Set<String> = []
                    types = types.filter { seen.insert($0).inserted }
                }
                if isWebpage, options.addsActiveWebpage,
                    types.contains(where: { $0.lowercased() == ActivationPayload.url }),
                    !types.contains(where: { $0.lowercased() == ActivationPayload.activeWebpage })
                {
                    types.append(ActivationPayload.activeWebpage)
                }
                attachments[index].registeredTypeIdentifiers = types
            }
            copy.items[itemIndex].attachments = attachments
        }
        return copy
    }

    /// The payloads tried in turn: the adjusted payload, then, when
    /// ``ActivationOptions/retriesWebpageItems`` is on and they exist and differ, only its items
    /// with a `com.apple.active-webpage` attachment, then only those with `com.apple.webarchive`.
    public func attempts(_ options: ActivationOptions) -> [(label: String, payload: ActivationPayload)] {
        let whole = adjusted(options)
        var result = [("the whole payload (\(ActivationPayload.describe(whole)))", whole)]
        guard options.retriesWebpageItems else { return result }
        for type in [ActivationPayload.activeWebpage, ActivationPayload.webarchive] {
            let kept = whole.items.filter { $0.hasAttachment(registering: type) }
            guard !kept.isEmpty, kept.count != whole.items.count else { continue }
            let retry = ActivationPayload(items: kept, isWebpage: whole.isWebpage)
            result.append(("retry on only the items with \(type) (\(ActivationPayload.describe(retry)))", retry))
        }
        return result
    }

    private static func describe(_ payload: ActivationPayload) -> String {
        let items = payload.items.count
        let attachments = payload.attachmentCount
        return "\(items) item\(items == 1 ? "" : "s"), \(attachments) attachment\(attachments == 1 ? "" : "s")"
    }

    static let url = "public.url"
    static let activeWebpage = "com.apple.active-webpage"
    static let webarchive = "com.apple.webarchive"
}
