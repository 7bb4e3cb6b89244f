import Foundation
import ItemProviders

/// The domain of item-provider errors (`NSItemProvider.ErrorCode`).
public let NSItemProviderErrorDomain = ItemProviderError.domain

extension NSItemProvider {
    /// The codes of ``NSItemProviderErrorDomain``.
    public enum ErrorCode: Int, Sendable {
        /// An unknown error.
        case unknownError = -1
        /// The item could not be loaded (nothing answers the requested type).
        case itemUnavailableError = -1000
        /// The item could not be coerced to the class the completion handler expects.
        case unexpectedValueClassError = -1100
        /// No coercion exists between the item's class and the expected one.
        case unavailableCoercionError = -1200
    }

    /// `NSItemProviderPreferredImageSizeKey`: the preferred size of a preview image (an `NSValue`
    /// of a `CGSize`), in `loadPreviewImage(options:)`.
    public static let preferredImageSizeKey = "NSItemProviderPreferredImageSizeKey"
}

/// The error a load hands to the caller: an `NSError` with the domain and code a device uses
/// (`NSItemProviderErrorDomain` -1000…, `NSCocoaErrorDomain` 3072 for a cancellation, 257/513 for a
/// missing security scope), the message as its localized description and the cause as its
/// underlying error.
func bridgedError(_ error: (any Error)?) -> (any Error)? {
    guard let error else { return nil }
    switch error {
    case let error as ItemProviderError:
        var info: [String: Any] = [NSLocalizedDescriptionKey: error.message]
        if let cause = error.cause { info[NSUnderlyingErrorKey] = bridgedError(cause) ?? cause }
        return NSError(domain: error.domain, code: error.code.rawValue, userInfo: info)
    default:
        return error
    }
}
