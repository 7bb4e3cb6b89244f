/// The bounds ``ArchiveExtractor`` enforces against archive bombs.
///
/// The defaults, and why:
/// - ``maximumTotalSize`` 4 GiB of expanded file data: more than any share payload or App Group
///   export exthost handles, small enough to stop a bomb long before a disk fills.
/// - ``maximumEntryCount`` 100 000 entries: a large photo library export, far below what
///   exhausts inodes or makes the directory walk slow.
/// - ``maximumCompressionRatio`` 200 (expanded / archive size): deflate cannot exceed about
///   1032:1 and real documents, code and media compress 2:1 to 20:1, while zero-filled bombs sit
///   near 1000:1. The ratio is only enforced once the expanded size passes
///   ``compressionRatioThreshold`` (16 MiB), so a small, very repetitive file still extracts.
///
/// Sizes count the bytes actually produced while streaming, not what headers claim; a declared
/// size that would exceed a limit is refused before any of its data is written.
public struct ExtractionLimits: Sendable, Hashable {
    /// The most bytes of file data the whole archive may expand to.
    public var maximumTotalSize: Int64
    /// The most entries (of any kind) the archive may hold.
    public var maximumEntryCount: Int
    /// The largest accepted expanded size / archive size.
    public var maximumCompressionRatio: Int64
    /// Expanded sizes up to this many bytes are not checked against the ratio.
    public var compressionRatioThreshold: Int64

    /// Creates limits; each parameter defaults to the value of ``default``.
    ///
    /// - Parameters:
    ///   - maximumTotalSize: Bytes of file data, default 4 GiB.
    ///   - maximumEntryCount: Entries, default 100 000.
    ///   - maximumCompressionRatio: Expanded / archive size, default 200.
    ///   - compressionRatioThreshold: Bytes below which the ratio is not checked, default 16 MiB.
    public init(
        maximumTotalSize: Int64 = 4 << 30, maximumEntryCount: Int = 100_000, maximumCompressionRatio: Int64 = 200,
        compressionRatioThreshold: Int64 = 16 << 20
    ) {
        self.maximumTotalSize = maximumTotalSize
        self.maximumEntryCount = maximumEntryCount
        self.maximumCompressionRatio = maximumCompressionRatio
        self.compressionRatioThreshold = compressionRatioThreshold
    }

    /// 4 GiB, 100 000 entries, ratio 200:1 above 16 MiB.
    public static var `default`: ExtractionLimits { ExtractionLimits() }
}

/// What an extraction produced.
public struct ExtractionSummary: Sendable, Hashable {
    /// Regular files written.
    public var fileCount: Int = 0
    /// Directories created (from entries; parents created implicitly are not counted).
    public var directoryCount: Int = 0
    /// Symbolic links created.
    public var symbolicLinkCount: Int = 0
    /// Hard links created.
    public var hardLinkCount: Int = 0
    /// Bytes of file data written.
    public var totalSize: Int64 = 0

    /// An empty summary.
    public init() {}
}
