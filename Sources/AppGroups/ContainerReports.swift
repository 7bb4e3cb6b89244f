public import Foundation

/// The `--json` reports of `exthost container …` and `exthost app inbox`, one `Codable` type each:
/// the command line prints their encoding, and tests decode them. They live beside the data they
/// describe; the command line only fills and renders them.
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

            /// A report.
            package init(kind: String, identifier: String, uuid: String, path: String, bytes: Int) {
                self.kind = kind
                self.identifier = identifier
                self.uuid = uuid
                self.path = path
                self.bytes = bytes
            }
        }
        public var root: String
        public var containers: [Container]

        /// A report.
        package init(root: String, containers: [Container]) {
            self.root = root
            self.containers = containers
        }
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

        /// The entry, with its file at `url` when the listing has it.
        public init(_ entry: JournalEntry, url: URL?) {
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

        /// A report.
        package init(group: String, uuid: String, path: String, journal: String, entries: [Entry]) {
            self.group = group
            self.uuid = uuid
            self.path = path
            self.journal = journal
            self.entries = entries
        }
    }

    /// `exthost container verify --json`.
    public struct Verify: Codable, Sendable, Equatable {
        /// One problem found.
        public struct Problem: Codable, Sendable, Equatable {
            public var kind: String
            public var path: String
            public var detail: String

            /// A report.
            package init(kind: String, path: String, detail: String) {
                self.kind = kind
                self.path = path
                self.detail = detail
            }
        }
        public var group: String
        public var clean: Bool
        public var entries: Int
        public var bytesChecked: Int64
        public var problems: [Problem]

        /// A report.
        package init(group: String, clean: Bool, entries: Int, bytesChecked: Int64, problems: [Problem]) {
            self.group = group
            self.clean = clean
            self.entries = entries
            self.bytesChecked = bytesChecked
            self.problems = problems
        }
    }

    /// `exthost container recover --json`.
    public struct Recover: Codable, Sendable, Equatable {
        public var group: String
        /// What recovery did, one line each (empty when there was nothing to do).
        public var actions: [String]

        /// A report.
        package init(group: String, actions: [String]) {
            self.group = group
            self.actions = actions
        }
    }

    /// `exthost container export --json`.
    public struct Export: Codable, Sendable, Equatable {
        /// The archive's path.
        public var archive: String
        /// How many entries it holds.
        public var entries: Int

        /// A report.
        package init(archive: String, entries: Int) {
            self.archive = archive
            self.entries = entries
        }
    }

    /// `exthost app inbox --json` (its items are streamed as they are read).
    public struct Inbox: Codable, Sendable, Equatable {
        public var group: String
        public var app: String
        public var items: [Entry]

        /// A report.
        package init(group: String, app: String, items: [Entry]) {
            self.group = group
            self.app = app
            self.items = items
        }
    }
}
