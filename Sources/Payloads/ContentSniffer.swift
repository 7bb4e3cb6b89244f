import CMagic
public import Foundation
import HostSystem
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
        database.withLock { database -> String? in
            guard let cookie = database?.cookie else { return nil }
            return bytes.withUnsafeBytes { buffer -> String? in
                guard let text = magic_buffer(cookie, buffer.baseAddress, buffer.count) else { return nil }
                return String(cString: text)
            }
        }
    }

    /// An open, loaded libmagic handle. Loading costs a read of the compiled database (megabytes)
    /// and a home-directory lookup, so it is done once per process (it was once per file: most of
    /// the time a 2 000-file payload took to build); a `magic_t` is not safe to use from two
    /// threads at once, so every use holds ``database``'s lock.
    private struct Database: @unchecked Sendable {
        let cookie: OpaquePointer

        static func load() -> Database? {
            guard let cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR) else { return nil }
            guard magic_load(cookie, nil) == 0 else {
                magic_close(cookie)
                return nil
            }
            return Database(cookie: cookie)
        }
    }

    /// The process's libmagic handle, nil when libmagic or its database is missing.
    private static let database = Locked(Database.load())

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
