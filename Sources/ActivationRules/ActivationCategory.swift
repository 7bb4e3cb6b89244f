/// The categories of the dictionary form, in the order an attachment is tested.
///
/// An attachment belongs to the first category (in ``allCases`` order) that one of its registered
/// types reaches; an attachment that reaches none is only in ``attachments``, the root.
public enum ActivationCategory: String, Sendable, Hashable, CaseIterable {
    /// `com.apple.active-webpage`.
    case webPage
    /// `public.url`, not counting `public.file-url`.
    case webURL
    /// `public.image`.
    case image
    /// `public.movie`.
    case movie
    /// `public.text`.
    case text
    /// `public.data`, `public.directory` or `public.file-url`.
    case file
    /// Any attachment: the root of the tree.
    case attachments

    /// The key that decides this category.
    public var key: String {
        switch self {
        case .webPage: return "NSExtensionActivationSupportsWebPageWithMaxCount"
        case .webURL: return "NSExtensionActivationSupportsWebURLWithMaxCount"
        case .image: return "NSExtensionActivationSupportsImageWithMaxCount"
        case .movie: return "NSExtensionActivationSupportsMovieWithMaxCount"
        case .text: return "NSExtensionActivationSupportsText"
        case .file: return "NSExtensionActivationSupportsFileWithMaxCount"
        case .attachments: return "NSExtensionActivationSupportsAttachmentsWithMaxCount"
        }
    }

    /// The category a missing key inherits its decision from; `nil` for the root.
    public var parent: ActivationCategory? {
        switch self {
        case .webPage: return .webURL
        case .webURL, .text, .file: return .attachments
        case .image, .movie: return .file
        case .attachments: return nil
        }
    }

    /// Whether the key is a Boolean (``text``) rather than a maximum count.
    public var isBoolean: Bool { self == .text }

    /// A short name for explanations ("web page", "image", …).
    public var displayName: String {
        switch self {
        case .webPage: return "web page"
        case .webURL: return "web URL"
        case .image: return "image"
        case .movie: return "movie"
        case .text: return "text"
        case .file: return "file"
        case .attachments: return "attachment"
        }
    }

    /// The category and its ancestors, nearest first.
    public var lineage: [ActivationCategory] {
        var result = [self]
        var current = self
        while let parent = current.parent {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// Whether `self` is `other` or below it.
    public func isWithin(_ other: ActivationCategory) -> Bool { lineage.contains(other) }

    /// What a type must conform to for an attachment to reach this category: an attachment
    /// reaches it when one of its types conforms to one of `conformsTo` and to none of
    /// `excluding`. Empty for the root, which every attachment reaches.
    public var membership: (conformsTo: [String], excluding: [String]) {
        switch self {
        case .webPage: return (["com.apple.active-webpage"], [])
        case .webURL: return (["public.url"], ["public.file-url"])
        case .image: return (["public.image"], [])
        case .movie: return (["public.movie"], [])
        case .text: return (["public.text"], [])
        case .file: return (["public.data", "public.directory", "public.file-url"], [])
        case .attachments: return ([], [])
        }
    }

    /// The categories an attachment is tested against before the root, in order.
    public static let tested: [ActivationCategory] = [.webPage, .webURL, .image, .movie, .text, .file]
}
