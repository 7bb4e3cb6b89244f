import HostSystem

/// An error from reading, writing or extracting an archive.
///
/// The ``message`` names the archive and, where one is involved, the offending entry; the same
/// two are available as ``archive`` and ``entry`` for programs.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Storage: String, Hashable, Sendable {
            case unsupportedFormat = "unsupported format"
            case unreadableArchive = "unreadable archive"
            case writeFailed = "write failed"
            case io = "i/o error"
            case unsafePath = "unsafe path"
            case escapingLink = "escaping link"
            case traversesLink = "path through a link"
            case unsupportedEntryType = "unsupported entry type"
            case duplicateEntry = "duplicate entry"
            case tooManyEntries = "too many entries"
            case tooLarge = "too large"
            case compressionRatio = "compression ratio"
            case outputTooLarge = "output too large"
            case destinationExists = "destination exists"
        }
        private let storage: Storage
        private init(_ storage: Storage) { self.storage = storage }

        /// The file name does not name a format this module writes (`.tar`, `.tar.gz`, `.tgz`, `.zip`).
        public static var unsupportedFormat: Self { Self(.unsupportedFormat) }
        /// libarchive could not read the archive: not an archive, corrupt or truncated.
        public static var unreadableArchive: Self { Self(.unreadableArchive) }
        /// libarchive refused to write a header or data.
        public static var writeFailed: Self { Self(.writeFailed) }
        /// A system call on a source file or the destination failed; ``ArchiveError/cause`` says which.
        public static var io: Self { Self(.io) }
        /// An entry path is absolute, contains `..`, or is empty.
        public static var unsafePath: Self { Self(.unsafePath) }
        /// A symbolic or hard link points outside the destination (or a hard link at a non-file).
        public static var escapingLink: Self { Self(.escapingLink) }
        /// An entry would be written through a symbolic link or a non-directory extracted earlier.
        public static var traversesLink: Self { Self(.traversesLink) }
        /// A device node, FIFO, socket or unknown entry type; extraction refuses them.
        public static var unsupportedEntryType: Self { Self(.unsupportedEntryType) }
        /// Two entries have the same path; extraction never overwrites.
        public static var duplicateEntry: Self { Self(.duplicateEntry) }
        /// More entries than ``ExtractionLimits/maximumEntryCount``.
        public static var tooManyEntries: Self { Self(.tooManyEntries) }
        /// The expanded contents exceed ``ExtractionLimits/maximumTotalSize``.
        public static var tooLarge: Self { Self(.tooLarge) }
        /// Expanded size / archive size exceeds ``ExtractionLimits/maximumCompressionRatio``.
        public static var compressionRatio: Self { Self(.compressionRatio) }
        /// An in-memory archive grew past its maximum size.
        public static var outputTooLarge: Self { Self(.outputTooLarge) }
        /// The extraction destination exists and is not an empty directory.
        public static var destinationExists: Self { Self(.destinationExists) }

        /// The code's name, such as `unsafe path`.
        public var description: String { storage.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, naming the archive and the entry.
    public var message: String
    /// The underlying failure: a system call's `Errno` (HostSystem's, the C function is named in
    /// ``message``) or libarchive's ``LibarchiveFailure``.
    public var cause: (any Error & Sendable)?
    /// The archive's path (or a description such as `<memory>`), when known.
    public var archive: String?
    /// The path of the offending entry as stored in the archive, when one is involved.
    public var entry: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong; should name the archive and the entry.
    ///   - cause: The underlying error, if any.
    ///   - archive: The archive's path or description.
    ///   - entry: The offending entry's path as stored in the archive.
    public init(
        _ code: Code, _ message: String, cause: (any Error & Sendable)? = nil, archive: String? = nil,
        entry: String? = nil
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.archive = archive
        self.entry = entry
    }

    /// `"<code>: <message> (cause: <cause>)"` on one line.
    public var description: String {
        if let cause { return "\(code): \(message) (cause: \(cause))" }
        return "\(code): \(message)"
    }
}

/// libarchive's own report of a failure: its `archive_errno` and `archive_error_string`.
public struct LibarchiveFailure: Error, Sendable, CustomStringConvertible {
    /// The libarchive status that was returned (`ARCHIVE_WARN` -20, `ARCHIVE_FAILED` -25, `ARCHIVE_FATAL` -30).
    public var status: Int32
    /// `archive_errno`, often an `errno` value, 0 when libarchive set none.
    public var errorNumber: Int32
    /// `archive_error_string`, or a generic text when libarchive set none.
    public var text: String

    /// Creates a failure record.
    public init(status: Int32, errorNumber: Int32, text: String) {
        self.status = status
        self.errorNumber = errorNumber
        self.text = text
    }

    /// `libarchive: <text> (status <status>, errno <errorNumber>)`.
    public var description: String { "libarchive: \(text) (status \(status), errno \(errorNumber))" }
}

extension ArchiveError {
    /// An ``ArchiveError/Code/io`` error for the C function `function` failing with `errno`, with
    /// the message `<what>: <function>: <strerror text> (errno N)` and the `Errno` as the cause.
    static func io(
        _ errno: Errno, _ function: String, _ what: String, archive: String?, entry: String? = nil
    ) -> ArchiveError {
        ArchiveError(
            .io, "\(what): \(function): \(errno) (errno \(errno.rawValue))", cause: errno, archive: archive,
            entry: entry)
    }

    /// An error about `entry` of `archive`, with the message `refused entry '<entry>' in <archive>: <reason>`.
    static func refused(_ code: Code, _ reason: String, archive: String, entry: String) -> ArchiveError {
        ArchiveError(code, "refused entry '\(entry)' in \(archive): \(reason)", archive: archive, entry: entry)
    }
}
