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
        sample(ofFileAt: url).flatMap { mimeType(of: $0) }
    }

    /// The MIME type libmagic reports for `bytes`.
    public static func mimeType(of bytes: Data) -> String? {
        database.withLock { database -> String? in
            guard let database else { return nil }
            return database.mimeType(of: bytes)
        }
    }

    /// The types of the files at `urls` by their contents (each as
    /// ``typeIdentifier(ofFileAt:registry:)`` gives it), in order, sniffed on every core at once:
    /// libmagic takes about a third of a millisecond for a small file of no known format, so a
    /// folder of thousands of them took most of a share's preparation on one core. Each worker has
    /// its own libmagic handle (one is not safe to use from two threads).
    public static func typeIdentifiers(ofFilesAt urls: [URL], registry: TypeRegistry = .system) -> [String] {
        let workers = min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8, urls.count / parallelThreshold)
        guard workers > 1 else { return urls.map { typeIdentifier(ofFileAt: $0, registry: registry) } }
        let results = Locked([String?](repeating: nil, count: urls.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // The first worker uses the process's handle; the others load their own.
            let own = worker == 0 ? nil : Database.load()
            for index in stride(from: worker, to: urls.count, by: workers) {
                let sample = sample(ofFileAt: urls[index])
                let mime: String?
                if let own {
                    mime = sample.flatMap { own.mimeType(of: $0) }
                } else {
                    mime = sample.flatMap { mimeType(of: $0) }
                }
                let type = mime.map { typeIdentifier(forMIMEType: $0, registry: registry) }
                results.withLock { $0[index] = type ?? UniformTypeIdentifier.data.rawValue }
            }
            own?.close()
        }
        return results.withLock { $0 }.map { $0 ?? UniformTypeIdentifier.data.rawValue }
    }

    /// Below this many files a folder's types are sniffed on one thread (a second handle costs a
    /// load of libmagic's database).
    public static let parallelThreshold = 64

    /// The first ``sampleSize`` bytes of the file at `url` (empty for an empty file), nil when it
    /// cannot be read.
    private static func sample(ofFileAt url: URL) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: sampleSize)) ?? Data()
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

        func mimeType(of bytes: Data) -> String? {
            bytes.withUnsafeBytes { buffer -> String? in
                guard let text = magic_buffer(cookie, buffer.baseAddress, buffer.count) else { return nil }
                return String(cString: text)
            }
        }

        func close() { magic_close(cookie) }
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
