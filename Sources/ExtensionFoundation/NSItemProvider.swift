public import Foundation
package import ItemProviders
import UniformTypes

/// Whether a representation loads as a copy or opens in place (`NSItemProviderFileOptions`).
public struct NSItemProviderFileOptions: OptionSet, Sendable, Hashable {
    /// The raw value.
    public let rawValue: Int
    /// Options from a raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The file can be opened in place (the receiver gets the original, security-scoped).
    public static let openInPlace = NSItemProviderFileOptions(rawValue: 1)
}

/// Which processes can see a representation (`NSItemProviderRepresentationVisibility`).
public enum NSItemProviderRepresentationVisibility: Int, Sendable, Hashable {
    /// Every process.
    case all = 0
    /// Processes of the same team (an extension of another app does not see it).
    case team = 1
    /// Processes in the same App Group (macOS only: on iOS no other process sees it).
    case group = 2
    /// The registering process only.
    case ownProcess = 3

    var model: RepresentationVisibility {
        switch self {
        case .all: .all
        case .team: .team
        case .group: .group
        case .ownProcess: .ownProcess
        }
    }
}

/// Apple's `NSItemProvider`: one shared thing with several representations, loaded lazily and
/// asynchronously.
///
/// Registration order is fidelity order. A request is answered by the exact registered type, else
/// by the first registered type that conforms to it. Loads call back on a background queue;
/// `loadFileRepresentation`'s file is deleted when the completion handler returns. Inside an
/// extension that exthost runs, every load crosses to the host process that shares the items.
///
/// Not `Sendable`, as on Apple's platforms: create, register and query it in one isolation domain.
open class NSItemProvider: NSObject {
    /// The model provider behind this one.
    package let model: ItemProvider

    /// An empty provider; register representations afterwards.
    public override init() {
        model = ItemProvider()
        model.typeRegistry = ProcessIdentity.typeRegistry
        super.init()
    }

    /// A provider over a model provider (the extension's proxies).
    package init(model: ItemProvider) {
        self.model = model
        super.init()
    }

    /// A provider for an object under one type: `loadItem` returns `item` itself; a `String`,
    /// `URL`, `Data`, `NSString`, `NSURL` or `NSData` also answers the data loads.
    public convenience init(item: Any?, typeIdentifier: String?) {
        self.init()
        if let item, let typeIdentifier { registerObject(item, typeIdentifier: typeIdentifier) }
    }

    /// A provider for the file at `fileURL`: one file representation typed from its filename
    /// extension; `loadItem` returns the URL. Nil when nothing exists there.
    public convenience init?(contentsOf fileURL: URL) {
        guard let model = ItemProvider(contentsOf: fileURL) else { return nil }
        self.init(model: model)
    }

    /// A provider for an object that can write itself (`NSString`, `NSURL`, `NSData`, or your own
    /// ``NSItemProviderWriting`` class): its writable types, in its order.
    public convenience init(object: any NSItemProviderWriting) {
        self.init()
        registerObject(object, visibility: .all)
    }

    /// The file name to use when the data is written to a file.
    open var suggestedName: String? {
        get { model.suggestedName }
        set { model.suggestedName = newValue }
    }

    /// The ideal size to present the item at (`.zero`: no preference).
    open var preferredPresentationSize: CGSize {
        get { CGSize(width: model.preferredPresentationSize.width, height: model.preferredPresentationSize.height) }
        set {
            model.preferredPresentationSize = PresentationSize(
                width: Double(newValue.width), height: Double(newValue.height))
        }
    }

    /// The registered type identifiers, in fidelity order.
    open var registeredTypeIdentifiers: [String] { model.registeredTypeIdentifiers }

    /// The registered type identifiers matching `fileOptions`, in fidelity order.
    open func registeredTypeIdentifiers(fileOptions: NSItemProviderFileOptions) -> [String] {
        model.registeredTypeIdentifiers(fileOptions: fileOptions.model)
    }

    /// Whether a registered representation conforms to `typeIdentifier`.
    open func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        model.hasItemConformingToTypeIdentifier(typeIdentifier)
    }

    /// Whether a registered representation matching `fileOptions` conforms to `typeIdentifier`.
    open func hasRepresentationConforming(
        toTypeIdentifier typeIdentifier: String, fileOptions: NSItemProviderFileOptions = []
    ) -> Bool {
        model.hasRepresentationConforming(toTypeIdentifier: typeIdentifier, fileOptions: fileOptions.model)
    }

    /// A description listing the registered types, as a device prints it.
    open override var description: String {
        "<NSItemProvider: \(ObjectIdentifier(self))> {types = (\n"
            + registeredTypeIdentifiers.map { "    \"\($0)\"" }.joined(separator: ",\n") + "\n)}"
    }

    // MARK: - Registering

    /// Registers a data representation; the load handler calls its completion with the data or an
    /// error and may return a progress.
    open func registerDataRepresentation(
        forTypeIdentifier typeIdentifier: String, visibility: NSItemProviderRepresentationVisibility = .all,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        model.registerDataRepresentation(for: typeIdentifier, visibility: visibility.model, loadHandler: loadHandler)
    }

    /// Registers a file representation (a copy, or the original when `.openInPlace`); the load
    /// handler calls its completion with the URL, whether it is coordinated, or an error.
    open func registerFileRepresentation(
        forTypeIdentifier typeIdentifier: String, fileOptions: NSItemProviderFileOptions = [],
        visibility: NSItemProviderRepresentationVisibility = .all,
        loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    ) {
        model.registerFileRepresentation(
            for: typeIdentifier, visibility: visibility.model, openInPlace: fileOptions.contains(.openInPlace),
            loadHandler: loadHandler)
    }

    /// Registers `object`'s writable types (``NSItemProviderWriting``), in its order.
    open func registerObject(_ object: any NSItemProviderWriting, visibility: NSItemProviderRepresentationVisibility) {
        let box = UncheckedBox(object)
        for type in type(of: object).writableTypeIdentifiersForItemProvider {
            if let value = sendableValue(of: object) {
                model.registerItem(value, forTypeIdentifier: type, visibility: visibility.model)
                continue
            }
            model.registerDataRepresentation(for: type, visibility: visibility.model) { completion in
                box.value.loadData(withTypeIdentifier: type) { data, error in completion(data, error) }
            }
        }
    }

    /// The legacy registration: `loadHandler` produces the item when it is loaded.
    open func registerItem(forTypeIdentifier typeIdentifier: String, loadHandler: @escaping LoadHandler) {
        let handler = UncheckedBox(loadHandler)
        model.registerDataRepresentation(for: typeIdentifier) { completion in
            handler.value(
                { item, error in
                    if let error { return completion(nil, error) }
                    completion(dataRepresentation(of: item), nil)
                }, nil, nil)
            return nil
        }
    }

    private func registerObject(_ item: Any, typeIdentifier: String) {
        if let value = sendableValue(of: item) {
            model.registerItem(value, forTypeIdentifier: typeIdentifier)
        } else {
            let box = UncheckedBox(item)
            model.registerDataRepresentation(for: typeIdentifier) { completion in
                if let data = dataRepresentation(of: box.value) {
                    completion(data, nil)
                } else {
                    completion(
                        nil,
                        bridgedError(
                            ItemProviderError(
                                .unavailableCoercion,
                                "Could not coerce an item of class \(type(of: box.value)) to class NSData")))
                }
                return nil
            }
        }
    }
}

extension NSItemProviderFileOptions {
    var model: FileOptions { contains(.openInPlace) ? .openInPlace : [] }
}

/// A value carried across a `@Sendable` boundary the caller's code does not mark: loads call
/// back on one queue at a time per load, as Apple's do, and the value is only read there.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The Swift value behind a Foundation object (`NSString` → `String`, …), when it has one the
/// model can hold as an object.
func sendableValue(of item: Any) -> (any Sendable)? {
    switch item {
    case let url as URL: url
    case let text as String: text
    case let data as Data: data
    case let text as NSAttributedString: AttributedTextObject(string: text.string)
    case let image as UIImage: ImageObject(data: image.shareableData, typeIdentifier: image.typeIdentifier)
    case let dictionary as [String: Any]: try? PropertyListObject(encoding: dictionary)
    case let array as [Any]: try? PropertyListObject(encoding: array)
    default: nil
    }
}

/// The bytes of an item for the data loads.
func dataRepresentation(of item: Any?) -> Data? {
    switch item {
    case let data as Data: data
    case let text as String: Data(text.utf8)
    case let url as URL: Data(url.absoluteString.utf8)
    case let text as NSAttributedString: Data(text.string.utf8)
    case let image as UIImage: image.shareableData
    default: nil
    }
}

/// The object `loadItem` hands to the caller, as a device hands it: `NSURL`, `NSString`,
/// `NSData`, `NSDictionary`/`NSArray`, `NSAttributedString`, `UIImage` (all castable with
/// `as? URL`, `as? String`, `as? Data`, `as? [String: Any]`).
func bridgedObject(_ value: any Sendable) -> Any {
    switch value {
    case let url as URL: return url as NSURL
    case let text as String: return NSString(string: text)
    case let data as Data: return NSData(data: data)
    case let plist as PropertyListObject:
        switch try? plist.decoded() {
        case let dictionary as [AnyHashable: Any]: return NSDictionary(dictionary: dictionary)
        case let array as [Any]: return NSArray(array: array)
        case let other?: return other
        case nil: return NSData(data: plist.data)
        }
    case let text as AttributedTextObject: return NSAttributedString(string: text.string)
    case let image as ImageObject:
        return UIImage(data: image.data) ?? NSData(data: image.data)
    default: return value
    }
}
