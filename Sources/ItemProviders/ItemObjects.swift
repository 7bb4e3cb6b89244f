public import Foundation

/// A property list registered as an object (Safari's JavaScript preprocessing results): `loadItem`
/// gives the dictionary or array; the data representation is the plist's bytes.
public struct PropertyListObject: Sendable, Hashable {
    /// The encoded property list (binary or XML).
    public var data: Data

    /// A property list from its bytes.
    public init(data: Data) { self.data = data }

    /// Encodes `object` (dictionaries, arrays, strings, numbers, dates, data) as a binary plist.
    /// - Throws: when `object` is not a property list.
    public init(encoding object: Any) throws {
        data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }

    /// The decoded value (an `NSDictionary`, `NSArray`, …).
    /// - Throws: when the bytes are not a property list.
    public func decoded() throws -> Any {
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }
}

/// Attributed text registered as an object: `loadItem` gives an attributed string; the data
/// representation is its plain text in UTF-8.
public struct AttributedTextObject: Sendable, Hashable {
    /// The text without attributes.
    public var string: String

    /// Attributed text with `string` as its characters.
    public init(string: String) { self.string = string }
}

/// An image registered as an in-memory object (a screenshot from the markup editor, before iOS
/// 26): `loadItem` gives an image, not a file URL; the data representation is the encoded image.
public struct ImageObject: Sendable, Hashable {
    /// The encoded image (PNG, JPEG, …).
    public var data: Data
    /// The type of ``data`` (`public.png`).
    public var typeIdentifier: String

    /// An image of `typeIdentifier` encoded as `data`.
    public init(data: Data, typeIdentifier: String) {
        self.data = data
        self.typeIdentifier = typeIdentifier
    }
}
