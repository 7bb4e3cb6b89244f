/// A uniform type identifier such as `public.jpeg`: a reverse-DNS string naming a type of data.
///
/// Identifiers compare case-insensitively ("Types are equal if their identifier strings are equal
/// using a case-insensitive comparison", `UTTypeEqual`), while ``rawValue`` keeps the spelling it
/// was created with (`com.apple.iWork.Pages.pages`). Creating one does not check that anybody
/// declares the type; ask a ``TypeRegistry`` for that.
///
/// Creating an identifier from a string that is already lower-case ASCII does not allocate: the
/// comparison key shares the string's storage.
public struct UniformTypeIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier as written (declared spelling).
    public let rawValue: String
    /// The lower-cased identifier, used for equality, hashing and registry lookups.
    public let key: String

    /// An identifier with the given spelling; no validation (see ``isValidSyntax``).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        self.key = UniformTypeIdentifier.lowercasedKey(rawValue)
    }

    /// An identifier from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// An identifier, or nil when `text` is not syntactically a UTI (see ``isValidSyntax``).
    public init?(validating text: String) {
        guard UniformTypeIdentifier.isValidSyntax(text) else { return nil }
        self.init(text)
    }

    /// The identifier as written.
    public var description: String { rawValue }

    /// Whether the identifier is in the `public` domain (Apple's standard types).
    public var isPublic: Bool { key.hasPrefix("public.") }

    /// Whether the identifier is in the `dyn` domain (a dynamic type encoding a tag specification).
    public var isDynamic: Bool { key.hasPrefix("dyn.") }

    /// Whether `text` is a syntactically valid identifier: non-empty, only `a–z A–Z 0–9 - .`, no
    /// empty component (no leading, trailing or doubled dot).
    public static func isValidSyntax(_ text: String) -> Bool {
        var previousWasDot = true
        var sawAny = false
        for byte in text.utf8 {
            sawAny = true
            switch byte {
            case UInt8(ascii: "."):
                if previousWasDot { return false }
                previousWasDot = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                previousWasDot = false
            default:
                return false
            }
        }
        return sawAny && !previousWasDot
    }

    /// Whether two identifiers name the same type (case-insensitive).
    public static func == (lhs: UniformTypeIdentifier, rhs: UniformTypeIdentifier) -> Bool {
        lhs.key == rhs.key
    }

    /// Hashes the lower-cased identifier, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    /// `text` itself when it has no upper-case ASCII letter and no non-ASCII byte (no allocation),
    /// otherwise its lower-cased copy.
    static func lowercasedKey(_ text: String) -> String {
        for byte in text.utf8 where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) {
            return text.lowercased()
        }
        return text
    }
}

// MARK: - Well-known identifiers

extension UniformTypeIdentifier {
    /// `public.item`: the root of the physical hierarchy.
    public static let item: UniformTypeIdentifier = "public.item"
    /// `public.content`: the root of the functional hierarchy (document content).
    public static let content: UniformTypeIdentifier = "public.content"
    /// `public.data`: byte streams (files and in-memory data); the default supertype of tag lookups.
    public static let data: UniformTypeIdentifier = "public.data"
    /// `public.directory`: folders, packages and bundles.
    public static let directory: UniformTypeIdentifier = "public.directory"
    /// `com.apple.package`: a directory presented to the user as a single file.
    public static let package: UniformTypeIdentifier = "com.apple.package"
    /// `public.text`.
    public static let text: UniformTypeIdentifier = "public.text"
    /// `public.plain-text`.
    public static let plainText: UniformTypeIdentifier = "public.plain-text"
    /// `public.image`.
    public static let image: UniformTypeIdentifier = "public.image"
    /// `public.movie`.
    public static let movie: UniformTypeIdentifier = "public.movie"
    /// `public.audio`.
    public static let audio: UniformTypeIdentifier = "public.audio"
    /// `public.url`.
    public static let url: UniformTypeIdentifier = "public.url"
    /// `public.file-url`.
    public static let fileURL: UniformTypeIdentifier = "public.file-url"
    /// `com.adobe.pdf`.
    public static let pdf: UniformTypeIdentifier = "com.adobe.pdf"
    /// `public.filename-extension`: the tag class of filename extensions.
    public static let filenameExtensionTagClass: UniformTypeIdentifier = "public.filename-extension"
    /// `public.mime-type`: the tag class of MIME types.
    public static let mimeTypeTagClass: UniformTypeIdentifier = "public.mime-type"
}

// MARK: - Codable

extension UniformTypeIdentifier: Codable {
    /// Decodes the identifier from a single string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the identifier as its declared spelling.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
