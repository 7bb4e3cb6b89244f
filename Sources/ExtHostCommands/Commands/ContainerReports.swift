import AppGroups
import Foundation

/// The `--json` reports of `exthost container …` and `exthost app inbox`, one `Codable` type each:
/// the output is their encoding (``JSONValue/init(encoding:)``) and tests decode them.
public enum ContainerReports {
    /// `exthost container list --json`.
    public struct List: Codable, Sendable, Equatable {
        /// One container of the device root.
        public struct Container: Codable, Sendable, Equatable {
            public var kind: String
            public var identifier: String
            public var uuid: String
            public var path: String
            public var bytes: Int
        }
        public var root: String
        public var containers: [Container]
    }

    /// A committed entry, as `container show` and `app inbox` list it.
    public struct Entry: Codable, Sendable, Equatable {
        public var sequence: Int
        public var id: String
        public var name: String
        public var path: String
        public var type: String
        public var size: Int64
        public var sha256: String
        /// ISO 8601.
        public var committedAt: String
        public var source: String
        /// The file's path on disk, where the listing has it.
        public var url: String?

        init(_ entry: JournalEntry, url: URL?) {
            sequence = entry.sequence
            id = entry.id.uuidString
            name = entry.name
            path = entry.path.description
            type = entry.typeIdentifier
            size = entry.size
            sha256 = entry.sha256
            committedAt = entry.committedAt.formatted(.iso8601)
            source = entry.source
            self.url = url?.path
        }
    }

    /// `exthost container show --json`.
    public struct Show: Codable, Sendable, Equatable {
        public var group: String
        public var uuid: String
        public var path: String
        public var journal: String
        public var entries: [Entry]
    }

    /// `exthost container verify --json`.
    public struct Verify: Codable, Sendable, Equatable {
        /// One problem found.
        public struct Problem: Codable, Sendable, Equatable {
            public var kind: String
            public var path: String
            public var detail: String
        }
        public var group: String
        public var clean: Bool
        public var entries: Int
        public var bytesChecked: Int64
        public var problems: [Problem]
    }

    /// `exthost container recover --json`.
    public struct Recover: Codable, Sendable, Equatable {
        public var group: String
        /// What recovery did, one line each (empty when there was nothing to do).
        public var actions: [String]
    }

    /// `exthost container export --json`.
    public struct Export: Codable, Sendable, Equatable {
        /// The archive's path.
        public var archive: String
        /// How many entries it holds.
        public var entries: Int
    }

    /// `exthost app inbox --json` (its items are streamed as they are read).
    public struct Inbox: Codable, Sendable, Equatable {
        public var group: String
        public var app: String
        public var items: [Entry]
    }
}
