public import Foundation

/// A class whose objects can be built from an item provider's data (`NSURL`, `NSString`, `NSData`,
/// and your own classes): Apple's `NSItemProviderReading`.
public protocol NSItemProviderReading: AnyObject {
    /// The types the class reads, in order of preference.
    static var readableTypeIdentifiersForItemProvider: [String] { get }
    /// An object built from `data` of `typeIdentifier`.
    /// - Throws: when the data does not make an object of the class.
    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self
}

/// A class whose objects can give themselves to an item provider: Apple's `NSItemProviderWriting`.
public protocol NSItemProviderWriting: AnyObject {
    /// The types the object writes, in fidelity order.
    static var writableTypeIdentifiersForItemProvider: [String] { get }
    /// Loads the data of `typeIdentifier`; returns a progress, or nil.
    func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress?
}

extension NSItemProviderWriting {
    func loadData(
        withTypeIdentifier typeIdentifier: String, _ completion: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress? {
        loadData(withTypeIdentifier: typeIdentifier, forItemProviderCompletionHandler: completion)
    }
}

/// The error a class gives for data it cannot read (`NSCocoaErrorDomain` 259, "not in the right format").
func unreadable(_ what: String, _ typeIdentifier: String) -> NSError {
    NSError(
        domain: NSCocoaErrorDomain, code: CocoaError.propertyListReadCorrupt.rawValue,
        userInfo: [NSLocalizedDescriptionKey: "The data of type \(typeIdentifier) is not a valid \(what)"])
}

extension NSURL: NSItemProviderReading, NSItemProviderWriting {
    /// `public.url` (and so `public.file-url`), then text holding a URL.
    public static var readableTypeIdentifiersForItemProvider: [String] {
        ["public.url", "public.file-url", "public.plain-text"]
    }

    /// The URL whose absolute string is `data` (UTF-8).
    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: text), url.scheme != nil, let object = (url as NSURL) as? Self else {
            throw unreadable("URL", typeIdentifier)
        }
        return object
    }

    /// `public.url` for a web link, `public.file-url` for a file, then text.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.url", "public.plain-text"] }

    /// The absolute string in UTF-8.
    public func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress? {
        completionHandler(Data(absoluteString.utf8), nil)
        return nil
    }
}

extension NSString: NSItemProviderReading, NSItemProviderWriting {
    /// UTF-8 plain text and its supertypes.
    public static var readableTypeIdentifiersForItemProvider: [String] {
        ["public.utf8-plain-text", "public.plain-text", "public.text"]
    }

    /// The string `data` holds (UTF-8).
    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        guard let text = String(data: data, encoding: .utf8), let object = NSString(string: text) as? Self else {
            throw unreadable("UTF-8 string", typeIdentifier)
        }
        return object
    }

    /// UTF-8 plain text.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.utf8-plain-text"] }

    /// The string in UTF-8.
    public func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress? {
        completionHandler(Data((self as String).utf8), nil)
        return nil
    }
}

extension NSData: NSItemProviderReading, NSItemProviderWriting {
    /// Any data.
    public static var readableTypeIdentifiersForItemProvider: [String] { ["public.data"] }

    /// The bytes themselves.
    public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
        guard let object = NSData(data: data) as? Self else { throw unreadable("data", typeIdentifier) }
        return object
    }

    /// Any data.
    public static var writableTypeIdentifiersForItemProvider: [String] { ["public.data"] }

    /// The bytes themselves.
    public func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress? {
        completionHandler(Data(referencing: self), nil)
        return nil
    }
}
