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
            committedAt = ContainerReports.iso8601(entry.committedAt)
            source = entry.source
            self.url = url?.path
        }
    }

    /// `date` as `date.formatted(.iso8601)` prints it (`2026-12-07T09:13:41Z`: UTC, whole seconds),
    /// written by hand for the years 1970–9999 — a journal's timestamps — and through Foundation's
    /// formatter otherwise: listing 100 000 entries formats no date through a `Calendar`.
    package static func iso8601(_ date: Date) -> String {
        var bytes: [UInt8] = []
        guard iso8601(date, into: &bytes) else { return date.formatted(.iso8601) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``iso8601(_:)``'s text to `out` (UTF-8) when `date` is in 1970–9999; false, with
    /// nothing appended, otherwise.
    package static func iso8601(_ date: Date, into out: inout [UInt8]) -> Bool {
        let time = date.timeIntervalSince1970
        guard time >= 0, time < 253_402_300_800 else { return false }
        let seconds = Int(time)
        let (days, inDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        // Days since 1970-01-01 to a civil date (Howard Hinnant's civil_from_days).
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int, then separator: UInt8?) {
            out.append(UInt8(ascii: "0") + UInt8(value / 10))
            out.append(UInt8(ascii: "0") + UInt8(value % 10))
            if let separator { out.append(separator) }
        }
        two(year / 100, then: nil)
        two(year % 100, then: UInt8(ascii: "-"))
        two(month, then: UInt8(ascii: "-"))
        two(day, then: UInt8(ascii: "T"))
        two(inDay / 3600, then: UInt8(ascii: ":"))
        two(inDay / 60 % 60, then: UInt8(ascii: ":"))
        two(inDay % 60, then: UInt8(ascii: "Z"))
        return true
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
