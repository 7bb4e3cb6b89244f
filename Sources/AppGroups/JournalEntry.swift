public import Foundation

/// One committed entry: a durable file in the group container and what the app needs to use it.
public struct JournalEntry: Sendable, Hashable {
    /// Position in the journal, 1 for the first entry; the inbox cursor counts these.
    public var sequence: Int
    /// A unique identifier.
    public var id: UUID
    /// The name the extension gave (usually the attachment's suggested file name).
    public var name: String
    /// Where the file is, relative to the container.
    public var path: ContainerPath
    /// The uniform type identifier of the contents, e.g. `public.png`.
    public var typeIdentifier: String
    /// Size in bytes.
    public var size: Int64
    /// SHA-256 of the contents, lowercase hex (compare with `sha256sum`).
    public var sha256: String
    /// When the entry was committed.
    public var committedAt: Date
    /// Who committed it (the writer's bundle identifier).
    public var source: String

    /// Creates an entry.
    public init(
        sequence: Int, id: UUID, name: String, path: ContainerPath, typeIdentifier: String, size: Int64,
        sha256: String, committedAt: Date, source: String
    ) {
        self.sequence = sequence
        self.id = id
        self.name = name
        self.path = path
        self.typeIdentifier = typeIdentifier
        self.size = size
        self.sha256 = sha256
        self.committedAt = committedAt
        self.source = source
    }
}

/// A point in a group's journal (see ``AppGroupStore/mark()``).
public struct JournalMark: Sendable, Hashable {
    /// The journal's UUID.
    public var journal: UUID
    /// The last sequence number committed at the mark (0 for none).
    public var sequence: Int
    /// The offset just after the last whole record at the mark.
    public var offset: Int64
}
