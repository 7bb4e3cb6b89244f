import CMagic
public import Foundation
public import UniformTypes

/// Content sniffing through libmagic, for files whose name has no (known) extension.
public enum ContentSniffer {
    /// How many leading bytes are examined.
    public static let sampleSize = 64 * 1024

    /// The MIME type libmagic reports for the first ``sampleSize`` bytes of the file at `url`
    /// (`application/pdf`, `image/png`, `text/plain`, …); nil when the file cannot be read or
    /// libmagic is unavailable.
    public static func mimeType(ofFileAt url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let sample = try? handle.read(upToCount: sampleSize) else { return mimeType(of: Data()) }
        return mimeType(of: sample)
    }

    /// The MIME type libmagic reports for `bytes`.
    public static func mimeType(of bytes: Data) -> String? {
        guard let cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR) else { return nil }
        defer { magic_close(cookie) }
        guard magic_load(cookie, nil) == 0 else { return nil }
        let result: String? = bytes.withUnsafeBytes { buffer in
            guard let text = magic_buffer(cookie, buffer.baseAddress, buffer.count) else { return nil }
            return String(cString: text)
        }
        return result
    }

    /// The type for a file by its contents: the declared type for libmagic's MIME type, with
    /// `text/plain` as `public.plain-text`; `public.data` when nothing more specific is known.
    public static func typeIdentifier(ofFileAt url: URL, registry: TypeRegistry = .system) -> String {
        guard let mime = mimeType(ofFileAt: url) else { return UniformTypeIdentifier.data.rawValue }
        return typeIdentifier(forMIMEType: mime, registry: registry)
    }

    /// The declared type for a MIME type, or `public.data`.
    public static func typeIdentifier(forMIMEType mime: String, registry: TypeRegistry = .system) -> String {
        if mime == "text/plain" { return UniformTypeIdentifier.plainText.rawValue }
        let type = registry.preferredType(forMIMEType: mime, conformingTo: nil)
        if type.isDynamic {
            return mime.hasPrefix("text/")
                ? UniformTypeIdentifier.plainText.rawValue : UniformTypeIdentifier.data.rawValue
        }
        return type.rawValue
    }
}
