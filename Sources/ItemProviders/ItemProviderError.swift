@_exported public import Reporting

/// An error from loading an item provider's representation, shaped like the `NSError`s Apple's
/// `NSItemProvider` reports.
///
/// Item-provider failures are in the domain `NSItemProviderErrorDomain` with Apple's codes
/// (-1, -1000, -1100, -1200). Two further failures use Apple's Cocoa codes, in the domain
/// `NSCocoaErrorDomain`: a cancelled load (`NSUserCancelledError`, 3072), and a security-scoped
/// file read or written without an active scope (`NSFileReadNoPermissionError`, 257;
/// `NSFileWriteNoPermissionError`, 513).
public typealias ItemProviderError = CodedError<ItemProviderErrorCode>

/// An ``ItemProviderError``'s code: a domain and a number, as `NSError` has.
public struct ItemProviderErrorCode: CodedErrorCode {
    /// The error domain, as `NSError.domain`.
    public var domain: String
    /// The numeric code, as `NSError.code`.
    public var rawValue: Int

    /// Any domain and code (manifests use this to make a load fail with a chosen error).
    public init(domain: String, rawValue: Int) {
        self.domain = domain
        self.rawValue = rawValue
    }

    /// `NSItemProviderUnknownError` (-1).
    public static let unknown = Self(domain: ItemProviderError.domain, rawValue: -1)
    /// `NSItemProviderItemUnavailableError` (-1000): no representation answers the request.
    public static let itemUnavailable = Self(domain: ItemProviderError.domain, rawValue: -1000)
    /// `NSItemProviderUnexpectedValueClassError` (-1100): a coercion to the requested class failed.
    public static let unexpectedValueClass = Self(domain: ItemProviderError.domain, rawValue: -1100)
    /// `NSItemProviderUnavailableCoercionError` (-1200): no coercion to the requested class exists.
    public static let unavailableCoercion = Self(domain: ItemProviderError.domain, rawValue: -1200)
    /// `NSUserCancelledError` (3072, Cocoa domain): the load's progress was cancelled.
    public static let userCancelled = Self(domain: ItemProviderError.cocoaDomain, rawValue: 3072)
    /// `NSFileReadNoPermissionError` (257, Cocoa domain).
    public static let fileReadNoPermission = Self(domain: ItemProviderError.cocoaDomain, rawValue: 257)
    /// `NSFileWriteNoPermissionError` (513, Cocoa domain).
    public static let fileWriteNoPermission = Self(domain: ItemProviderError.cocoaDomain, rawValue: 513)

    /// `domain code`, e.g. `NSItemProviderErrorDomain -1000`.
    public var description: String { "\(domain) \(rawValue)" }

    /// `Error Domain=… Code=… "message"`, as `NSError` prints itself, plus the cause when known.
    public static func describe(_ error: ItemProviderError) -> String {
        var text = "Error Domain=\(error.code.domain) Code=\(error.code.rawValue) \"\(error.message)\""
        if let cause = error.cause { text += " (\(cause))" }
        return text
    }
}

extension ItemProviderError {
    /// `"NSItemProviderErrorDomain"`.
    public static var domain: String { "NSItemProviderErrorDomain" }
    /// `"NSCocoaErrorDomain"`.
    public static var cocoaDomain: String { "NSCocoaErrorDomain" }

    /// The error domain (`NSError.domain`).
    public var domain: String { code.domain }

    /// `Cannot load representation of type …` (-1000), Apple's wording for a missing type.
    public static func cannotLoad(_ typeIdentifier: String) -> ItemProviderError {
        ItemProviderError(.itemUnavailable, "Cannot load representation of type \(typeIdentifier)")
    }

    /// The error a cancelled load ends with.
    public static var cancelled: ItemProviderError {
        ItemProviderError(.userCancelled, "The operation was cancelled.")
    }
}
