/// An archive format this module writes. Reading detects the format by content instead.
public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// POSIX tar: ustar headers, with pax extended headers only where ustar cannot express an
    /// entry (long names, large sizes). libarchive's "pax restricted" format.
    case tar
    /// ``tar`` compressed with gzip (no timestamp in the gzip header, so output is reproducible).
    case tarGzip = "tar.gz"
    /// Zip with deflate compression; Unix modes, symbolic links and modification times are stored.
    case zip

    /// The format a file name asks for: `.tar`, `.tar.gz` or `.tgz`, `.zip` (case-insensitive);
    /// nil for any other name.
    ///
    /// - Parameter fileName: A file name or path; only its ending is looked at.
    public init?(fileName: String) {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz") {
            self = .tarGzip
        } else if lower.hasSuffix(".tar") {
            self = .tar
        } else if lower.hasSuffix(".zip") {
            self = .zip
        } else {
            return nil
        }
    }

    /// The usual file name extension, without the dot: `tar`, `tar.gz`, `zip`.
    public var fileExtension: String { rawValue }

    /// The uniform type identifier of the format: `public.tar-archive`, `org.gnu.gnu-zip-tar-archive`,
    /// `public.zip-archive`.
    public var typeIdentifier: String {
        switch self {
        case .tar: "public.tar-archive"
        case .tarGzip: "org.gnu.gnu-zip-tar-archive"
        case .zip: "public.zip-archive"
        }
    }

    /// The raw value (`tar`, `tar.gz`, `zip`).
    public var description: String { rawValue }
}
