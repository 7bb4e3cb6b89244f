public import Foundation

// `loadItem(forTypeIdentifier:options:)` returns `any NSSecureCoding`, as Apple declares it. On iOS
// `item as? URL` from that type compiles because the Objective-C bridge makes every class
// existential castable to a bridged value type; Linux Swift has no such bridge, so the compiler
// warns "cast from 'any NSSecureCoding' to unrelated type 'URL' always fails" (and the cast
// succeeds at run time anyway: the item is an NSURL). With these conformances the value types a
// share extension casts an item to are NSSecureCoding here too, so the casts compile cleanly; each
// codes itself as its Foundation class does.

extension URL: @retroactive NSSecureCoding {
    /// True: a URL codes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the URL as `NSURL` does.
    public func encode(with coder: NSCoder) { (self as NSURL).encode(with: coder) }

    /// A URL decoded as `NSURL` decodes one.
    public init?(coder: NSCoder) {
        guard let url = NSURL(coder: coder) else { return nil }
        self = url as URL
    }
}

extension String: @retroactive NSSecureCoding {
    /// True: a string codes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the string as `NSString` does.
    public func encode(with coder: NSCoder) { NSString(string: self).encode(with: coder) }

    /// A string decoded as `NSString` decodes one.
    public init?(coder: NSCoder) {
        guard let string = NSString(coder: coder) else { return nil }
        self = string as String
    }
}

extension Data: @retroactive NSSecureCoding {
    /// True: data codes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the bytes as `NSData` does.
    public func encode(with coder: NSCoder) { NSData(data: self).encode(with: coder) }

    /// Bytes decoded as `NSData` decodes them.
    public init?(coder: NSCoder) {
        guard let data = NSData(coder: coder) else { return nil }
        self = Data(referencing: data)
    }
}

extension Dictionary: @retroactive NSSecureCoding {
    /// True: a dictionary of property-list values codes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the dictionary as `NSDictionary` does.
    public func encode(with coder: NSCoder) {
        let bridged = [AnyHashable: Any](uniqueKeysWithValues: map { (AnyHashable($0.key), $0.value as Any) })
        NSDictionary(dictionary: bridged).encode(with: coder)
    }

    /// A dictionary decoded as `NSDictionary` decodes one, when its keys and values are of this type.
    public init?(coder: NSCoder) {
        guard let dictionary = NSDictionary(coder: coder), let typed = dictionary as? [Key: Value] else { return nil }
        self = typed
    }
}

extension Array: @retroactive NSSecureCoding {
    /// True: an array of property-list values codes securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the array as `NSArray` does.
    public func encode(with coder: NSCoder) { NSArray(array: map { $0 as Any }).encode(with: coder) }

    /// An array decoded as `NSArray` decodes one, when its elements are of this type.
    public init?(coder: NSCoder) {
        guard let array = NSArray(coder: coder), let typed = array as? [Element] else { return nil }
        self = typed
    }
}
