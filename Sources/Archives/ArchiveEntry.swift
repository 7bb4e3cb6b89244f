/// One entry of an archive as libarchive reports it (reading) or as it should be written.
public struct ArchiveEntry: Sendable, Hashable {
    /// What an entry is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A regular file with data.
        case file
        /// A directory.
        case directory
        /// A symbolic link; ``ArchiveEntry/linkTarget`` holds its target.
        case symbolicLink
        /// A hard link to an earlier entry; ``ArchiveEntry/linkTarget`` holds that entry's path.
        case hardLink
        /// A character device node.
        case characterDevice
        /// A block device node.
        case blockDevice
        /// A named pipe.
        case fifo
        /// A Unix domain socket.
        case socket
        /// A type libarchive reports that none of the above covers.
        case unknown
    }

    /// The path as stored in the archive, unmodified (directories usually end in `/`).
    public var path: String
    /// What the entry is.
    public var kind: Kind
    /// The size of the entry's data in bytes, when the archive records it (zip streams may not).
    public var size: Int64?
    /// Permission bits (`mode & 0o7777`), such as `0o644`.
    public var permissions: UInt32
    /// The target of a symbolic link, or the path of the entry a hard link refers to.
    public var linkTarget: String?
    /// Modification time in whole seconds since 1970, when the archive records it.
    public var modificationTime: Int64?

    /// Creates an entry description.
    ///
    /// - Parameters:
    ///   - path: The path to store.
    ///   - kind: What the entry is.
    ///   - size: Data size in bytes (files only).
    ///   - permissions: Permission bits, such as `0o644`.
    ///   - linkTarget: The target of a link.
    ///   - modificationTime: Seconds since 1970.
    public init(
        path: String, kind: Kind, size: Int64? = nil, permissions: UInt32 = 0o644, linkTarget: String? = nil,
        modificationTime: Int64? = nil
    ) {
        self.path = path
        self.kind = kind
        self.size = size
        self.permissions = permissions
        self.linkTarget = linkTarget
        self.modificationTime = modificationTime
    }
}
