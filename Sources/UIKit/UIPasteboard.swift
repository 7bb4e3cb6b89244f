import Dispatch
package import ExtensionIPC
public import Foundation

/// Apple's `UIPasteboard` (UIKit/uipasteboard): the systemwide general pasteboard — "For sharing
/// data with any other app, use the systemwide general pasteboard."
///
/// Where the contents live: on iOS the pasteboard is a system service (`pasted`), not a file an app
/// can write. So here: the device's pasteboard is the host's (`<root>/Pasteboard/general.json`,
/// outside every sandbox); an extension's ``general`` asks its host over its connection, an app's
/// over its app channel, and `exthost pasteboard show` prints it. A process exthost did not start
/// (a unit test) gets a pasteboard of its own, in memory.
///
/// Items are dictionaries keyed by representation type. Writing converts values as UIKit does for
/// the common ones: `String` → UTF-8 bytes, `URL` → its absolute string, `UIImage` → PNG data,
/// `Data` as is. Reading gives back `String` for text types, `URL` for `public.url`/`public.file-url`,
/// `UIImage` for image types, else `Data`. One change moves at most 512 KiB of item data through
/// the service (a frame of the connection); a larger write is refused with a line on standard error.
// @unchecked Sendable: an instance holds no mutable state; the shared state (the app's service, the
// local contents, the request counter) is read and written only under `UIPasteboard.lock`.
open class UIPasteboard: NSObject, @unchecked Sendable {
    /// A pasteboard's name (`UIPasteboard.Name`).
    public struct Name: RawRepresentable, Hashable, Sendable {
        /// The string.
        public var rawValue: String
        /// A name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `general`: "The name that identifies the general pasteboard".
        public static let general = Name(rawValue: "com.apple.UIKit.pboard.general")
    }

    /// Keys of ``setItems(_:options:)``'s options (`UIPasteboard.OptionsKey`).
    public struct OptionsKey: RawRepresentable, Hashable, Sendable {
        /// The string.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// "The time and date that you want the system to remove the pasteboard items from the
        /// pasteboard" (a `Date`).
        public static let expirationDate = OptionsKey(rawValue: "UIPasteboardOptionExpirationDate")
        /// "An option that specifies whether the pasteboard items are available only on the local
        /// device" (a `Bool`).
        public static let localOnly = OptionsKey(rawValue: "UIPasteboardOptionLocalOnly")
    }

    /// Where a pasteboard's contents come from and go.
    package enum Backing: Sendable {
        /// The device's, through exthost's host.
        case service
        /// This process's own (outside exthost).
        case local
    }

    /// The app's channel to the host, set by the app runtime when exthost launched the app: it
    /// sends a request and returns the host's reply (nil when the channel is gone).
    package static var appService: (@Sendable (PasteboardRequest) -> PasteboardReply?)? {
        get { lock.withLock { storedAppService } }
        set { lock.withLock { storedAppService = newValue } }
    }
    nonisolated(unsafe) private static var storedAppService: (@Sendable (PasteboardRequest) -> PasteboardReply?)?
    private static let lock = NSLock()
    nonisolated(unsafe) private static var localContents = PasteboardContents()
    nonisolated(unsafe) private static var nextRequestID: UInt64 = 1

    /// "The systemwide general pasteboard, which you use for general copy-paste operations."
    public class var general: UIPasteboard { sharedGeneral }
    private static let sharedGeneral = UIPasteboard()

    /// "The name of the pasteboard."
    open var name: Name { .general }

    override private init() { super.init() }

    // MARK: - The service

    /// The contents as the device holds them now (each read asks the service, as each read of
    /// `UIPasteboard` asks `pasted`).
    private func fetch() -> PasteboardContents {
        exchange(items: nil, expirationDate: nil, localOnly: nil) ?? PasteboardContents()
    }

    /// Sends a read or a write; the contents after it, nil when the service refused it.
    @discardableResult
    private func exchange(items: [PasteboardItem]?, expirationDate: Date?, localOnly: Bool?) -> PasteboardContents? {
        if let reply = ExtensionPasteboard.request(items: items, expirationDate: expirationDate, localOnly: localOnly) {
            return Self.accept(reply)
        }
        if let service = Self.appService {
            let id = Self.lock.withLock { () -> UInt64 in
                defer { Self.nextRequestID += 1 }
                return Self.nextRequestID
            }
            let reply =
                service(
                    PasteboardRequest(requestID: id, items: items, expirationDate: expirationDate, localOnly: localOnly)
                )
                ?? PasteboardReply(requestID: id, contents: nil, error: "the app's channel to exthost is closed")
            return Self.accept(reply)
        }
        return Self.lock.withLock {
            if let items {
                Self.localContents.changeCount += 1
                Self.localContents.items = items
                Self.localContents.expirationDate = expirationDate
                Self.localContents.localOnly = localOnly
            }
            return Self.localContents.visible()
        }
    }

    private static func accept(_ reply: PasteboardReply) -> PasteboardContents? {
        if let error = reply.error {
            FileHandle.standardError.write(Data("UIPasteboard: \(error)\n".utf8))
        }
        return reply.error == nil ? reply.contents : nil
    }

    // MARK: - Attributes and items

    /// "The number of times the pasteboard's contents change."
    open var changeCount: Int { fetch().changeCount }

    /// "The number of items in the pasteboard."
    open var numberOfItems: Int { fetch().items.count }

    /// "The types of the first item on the pasteboard."
    open var types: [String] { fetch().items.first?.representations.map(\.type) ?? [] }

    /// "Returns an array of representation types for each specified pasteboard item" (nil: all).
    open func types(forItemSet itemSet: IndexSet?) -> [[String]]? {
        let items = fetch().items
        let chosen = itemSet.map { set in set.filter { $0 < items.count }.map { items[$0] } } ?? items
        return chosen.map { $0.representations.map(\.type) }
    }

    /// "Returns whether the pasteboard holds data of the specified representation type."
    open func contains(pasteboardTypes: [String]) -> Bool {
        let wanted = Set(pasteboardTypes)
        return fetch().items.contains { item in item.representations.contains { wanted.contains($0.type) } }
    }

    /// "The items on the pasteboard": one dictionary per item, by representation type.
    open var items: [[String: Any]] {
        get { fetch().items.map(Self.dictionary) }
        set { setItems(newValue, options: [:]) }
    }

    /// "Adds an array of items to a pasteboard, and sets privacy options for all the items on the
    /// pasteboard": the items replace what is there; `.expirationDate` and `.localOnly` are kept
    /// with them (after the date, readers see no items).
    open func setItems(_ items: [[String: Any]], options: [OptionsKey: Any] = [:]) {
        store(
            items.map(Self.item), expirationDate: options[.expirationDate] as? Date,
            localOnly: options[.localOnly] as? Bool)
    }

    /// "Adds an array of items to the current pasteboard" (appends to what is there).
    open func addItems(_ items: [[String: Any]]) {
        let current = fetch()
        store(
            current.items + items.map(Self.item), expirationDate: current.expirationDate, localOnly: current.localOnly)
    }

    private func store(_ items: [PasteboardItem], expirationDate: Date? = nil, localOnly: Bool? = nil) {
        let size = items.reduce(0) { $0 + $1.representations.reduce(0) { $0 + $1.data.count } }
        guard size <= PasteboardRequest.maximumDataSize else {
            FileHandle.standardError.write(
                Data(
                    "UIPasteboard: \(size) bytes is more than the \(PasteboardRequest.maximumDataSize) exthost's pasteboard service takes in one change; the pasteboard is unchanged\n"
                        .utf8))
            return
        }
        exchange(items: items, expirationDate: expirationDate, localOnly: localOnly)
    }

    /// Replaces the items through the service (or this process's pasteboard), as the share sheet's
    /// Copy does in the app's process; the contents after, nil when the service refused.
    package func replaceItems(_ items: [PasteboardItem]) -> PasteboardContents? {
        exchange(items: items, expirationDate: nil, localOnly: nil)
    }

    /// "Returns the data for the first item in the pasteboard of the indicated type."
    open func data(forPasteboardType pasteboardType: String) -> Data? {
        fetch().items.lazy.compactMap { $0.data(for: pasteboardType) }.first
    }

    /// "Puts data in the pasteboard for the specified representation type" (replacing the items).
    open func setData(_ data: Data, forPasteboardType pasteboardType: String) {
        store([PasteboardItem(representations: [PasteboardRepresentation(type: pasteboardType, data: data)])])
    }

    /// "Returns an object in the pasteboard for the first item of the indicated type."
    open func value(forPasteboardType pasteboardType: String) -> Any? {
        data(forPasteboardType: pasteboardType).map { Self.object(type: pasteboardType, data: $0) }
    }

    /// "Puts an object in the pasteboard for the specified representation type" (replacing the items).
    open func setValue(_ value: Any, forPasteboardType pasteboardType: String) {
        store([Self.item([pasteboardType: value])])
    }

    /// "The item providers of the pasteboard's items": one `NSItemProvider` per item, each
    /// representation registered as data. Setting it is ``setItemProviders(_:localOnly:expirationDate:)``
    /// with neither option.
    open var itemProviders: [NSItemProvider] {
        get { providers() }
        set { setItemProviders(newValue, localOnly: false, expirationDate: nil) }
    }

    /// "Sets the item providers on the pasteboard, with the specified privacy options": each
    /// provider becomes one item holding every type it registers, loaded as data now (iOS loads them
    /// lazily, when pasted; a load that fails or takes over 10 seconds leaves that type out).
    open func setItemProviders(_ itemProviders: [NSItemProvider], localOnly: Bool, expirationDate: Date?) {
        let items = itemProviders.map { provider in
            PasteboardItem(
                representations: provider.registeredTypeIdentifiers.compactMap { type in
                    Self.load(type, from: provider).map { PasteboardRepresentation(type: type, data: $0) }
                })
        }
        store(items, expirationDate: expirationDate, localOnly: localOnly ? true : nil)
    }

    /// The bytes `provider` gives for `type` (its completion runs on a background queue).
    private static func load(_ type: String, from provider: NSItemProvider) -> Data? {
        let semaphore = DispatchSemaphore(value: 0)
        let box = LoadedData()
        _ = provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
            box.set(data)
            semaphore.signal()
        }
        guard semaphore.wait(timeout: .now() + 10) == .success else { return nil }
        return box.data
    }

    private func providers() -> [NSItemProvider] {
        fetch().items.map { item in
            let provider = NSItemProvider()
            for representation in item.representations {
                let data = representation.data
                provider.registerDataRepresentation(forTypeIdentifier: representation.type) { completion in
                    completion(data, nil)
                    return nil
                }
            }
            return provider
        }
    }

    // MARK: - Standard data types

    /// "The string value of the first pasteboard item" (setting it replaces the items with one
    /// `public.utf8-plain-text` item).
    open var string: String? {
        get { strings?.first }
        set { strings = newValue.map { [$0] } ?? [] }
    }

    /// "An array of strings in all pasteboard items" (nil when there are none).
    open var strings: [String]? {
        get { Self.nonEmpty(fetch().items.compactMap(Self.text)) }
        set { store((newValue ?? []).map { Self.item([Self.utf8Text: $0]) }) }
    }

    /// "The URL object of the first pasteboard item."
    open var url: URL? {
        get { urls?.first }
        set { urls = newValue.map { [$0] } ?? [] }
    }

    /// "An array of URL objects in all pasteboard items" (each written as `public.url`, or
    /// `public.file-url` for a file URL).
    open var urls: [URL]? {
        get { Self.nonEmpty(fetch().items.compactMap(Self.link)) }
        set {
            store(
                (newValue ?? []).map { url in
                    PasteboardItem(representations: [
                        PasteboardRepresentation(
                            type: url.isFileURL ? "public.file-url" : "public.url", data: Data(url.absoluteString.utf8))
                    ])
                })
        }
    }

    /// "The image object of the first pasteboard item."
    open var image: UIImage? {
        get { images?.first }
        set { images = newValue.map { [$0] } ?? [] }
    }

    /// "An array of image objects in all pasteboard items" (written as `public.png`).
    open var images: [UIImage]? {
        get { Self.nonEmpty(fetch().items.compactMap(Self.picture)) }
        set { store((newValue ?? []).map { Self.item(["public.png": $0]) }) }
    }

    /// "A Boolean value that indicates whether the pasteboard contains nonempty string data."
    open var hasStrings: Bool { fetch().items.contains { Self.text($0).map { !$0.isEmpty } ?? false } }
    /// "A Boolean value that indicates whether the pasteboard contains URL data."
    open var hasURLs: Bool { fetch().items.contains { Self.link($0) != nil } }
    /// "A Boolean value that indicates whether the pasteboard contains image data."
    open var hasImages: Bool { fetch().items.contains { $0.representations.contains { Self.isImage($0.type) } } }

    // MARK: - Conversions

    static let utf8Text = "public.utf8-plain-text"
    static let textTypes: Set<String> = [
        "public.utf8-plain-text", "public.plain-text", "public.text", "public.utf16-plain-text",
        "public.utf16-external-plain-text",
    ]
    static let urlTypes: Set<String> = ["public.url", "public.file-url"]
    static let imageTypes: Set<String> = [
        "public.image", "public.png", "public.jpeg", "public.heic", "public.tiff", "com.compuserve.gif",
        "com.microsoft.bmp",
    ]

    static func isImage(_ type: String) -> Bool { imageTypes.contains(type) }

    static func nonEmpty<T>(_ values: [T]) -> [T]? { values.isEmpty ? nil : values }

    static func text(_ item: PasteboardItem) -> String? {
        item.representations.first { textTypes.contains($0.type) }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    static func link(_ item: PasteboardItem) -> URL? {
        item.representations.first { urlTypes.contains($0.type) }.flatMap {
            URL(string: String(decoding: $0.data, as: UTF8.self))
        }
    }

    static func picture(_ item: PasteboardItem) -> UIImage? {
        item.representations.lazy.filter { isImage($0.type) }.compactMap { UIImage(data: $0.data) }.first
    }

    static func object(type: String, data: Data) -> Any {
        if textTypes.contains(type) { return String(decoding: data, as: UTF8.self) }
        if urlTypes.contains(type), let url = URL(string: String(decoding: data, as: UTF8.self)) { return url }
        if isImage(type), let image = UIImage(data: data) { return image }
        return data
    }

    static func dictionary(_ item: PasteboardItem) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for representation in item.representations where dictionary[representation.type] == nil {
            dictionary[representation.type] = object(type: representation.type, data: representation.data)
        }
        return dictionary
    }

    /// An item from a dictionary of values; values of no known kind are left out (with a line on
    /// standard error), as UIKit drops what it cannot archive.
    static func item(_ dictionary: [String: Any]) -> PasteboardItem {
        var representations: [PasteboardRepresentation] = []
        for (type, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            let bytes: Data?
            switch value {
            case let data as Data: bytes = data
            case let string as String: bytes = Data(string.utf8)
            case let url as URL: bytes = Data(url.absoluteString.utf8)
            case let image as UIImage: bytes = image.pngData() ?? image.jpegData(compressionQuality: 1)
            case let attributed as NSAttributedString: bytes = Data(attributed.string.utf8)
            case let number as NSNumber: bytes = Data(number.stringValue.utf8)
            default: bytes = nil
            }
            guard let bytes else {
                FileHandle.standardError.write(
                    Data("UIPasteboard: a \(Swift.type(of: value)) for \(type) cannot be put on the pasteboard\n".utf8))
                continue
            }
            representations.append(PasteboardRepresentation(type: type, data: bytes))
        }
        return PasteboardItem(representations: representations)
    }
}

/// Bytes handed from a load's completion queue.
// @unchecked Sendable: `stored` is read and written only under `lock`.
private final class LoadedData: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    func set(_ data: Data?) { lock.withLock { stored = data } }
    var data: Data? { lock.withLock { stored } }
}
