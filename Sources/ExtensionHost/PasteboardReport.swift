public import ExtensionIPC
import Foundation

/// `exthost pasteboard show --json`: what the device's general pasteboard holds.
public struct PasteboardReport: Codable, Sendable {
    /// One representation, as the report shows it.
    public struct Representation: Codable, Sendable {
        /// Its type identifier.
        public var type: String
        /// Its size.
        public var bytes: Int
        /// The text of a text or URL representation (UTF-8).
        public var text: String?
        /// The bytes of any other representation, base64.
        public var base64: String?
    }

    /// The file the device keeps it in.
    public var path: String
    /// `UIPasteboard.changeCount`.
    public var changeCount: Int
    /// The bundle identifier of the process that wrote it last.
    public var writer: String?
    /// When its items expire (`UIPasteboard.OptionsKey.expirationDate`), ISO 8601.
    public var expirationDate: String?
    /// Whether they have expired (readers then see none).
    public var expired: Bool
    /// `UIPasteboard.OptionsKey.localOnly`.
    public var localOnly: Bool
    /// Each item's representations, in order.
    public var items: [[Representation]]

    /// The types shown as text; any other representation is shown by its size (base64 in JSON).
    public static let textualTypes: Set<String> = [
        "public.utf8-plain-text", "public.plain-text", "public.text", "public.url", "public.file-url", "public.html",
        "public.json",
    ]

    /// The report of `contents`, kept at `path`.
    public init(_ contents: PasteboardContents, path: String) {
        self.path = path
        changeCount = contents.changeCount
        writer = contents.writer
        expirationDate = contents.expirationDate.map { ISO8601DateFormatter().string(from: $0) }
        expired = contents.visible().items.count != contents.items.count
        localOnly = contents.localOnly ?? false
        items = contents.items.map { item in
            item.representations.map { representation in
                let isText = Self.textualTypes.contains(representation.type)
                return Representation(
                    type: representation.type, bytes: representation.data.count,
                    text: isText ? String(decoding: representation.data, as: UTF8.self) : nil,
                    base64: isText ? nil : representation.data.base64EncodedString())
            }
        }
    }
}
