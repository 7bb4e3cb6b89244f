/// What recovery did when a store was opened.
public struct RecoveryReport: Sendable, Hashable {
    /// Temporary files (`.tmp-*`) no live writer held, removed.
    public var removedTemporaryFiles: [String] = []
    /// Files under `Inbox/` that no entry referenced, moved into ``quarantineFolder`` (original
    /// path → quarantined path). They are complete files whose commit did not finish, kept so
    /// nothing is lost silently.
    public var quarantinedFiles: [(from: String, to: String)] = []
    /// The quarantine folder used this time, if any.
    public var quarantineFolder: String?
    /// Bytes cut from the end of the journal (a torn last record).
    public var truncatedJournalBytes: Int64 = 0
    /// Why the journal tail was cut.
    public var journalDamage: String?

    /// An empty report.
    public init() {}

    /// Whether recovery had nothing to do.
    public var isEmpty: Bool {
        removedTemporaryFiles.isEmpty && quarantinedFiles.isEmpty && truncatedJournalBytes == 0
    }

    /// One line per action, for humans.
    public var lines: [String] {
        var lines: [String] = []
        if truncatedJournalBytes > 0 {
            lines.append("journal: cut \(truncatedJournalBytes) byte(s) of torn tail (\(journalDamage ?? "damaged"))")
        }
        lines += removedTemporaryFiles.map { "removed temporary file \($0)" }
        lines += quarantinedFiles.map { "quarantined unreferenced file \($0.from) -> \($0.to)" }
        return lines
    }

    /// Compares the recorded actions.
    public static func == (lhs: RecoveryReport, rhs: RecoveryReport) -> Bool { lhs.lines == rhs.lines }

    /// Hashes the recorded actions.
    public func hash(into hasher: inout Hasher) { hasher.combine(lines) }
}

/// A problem `verify` found.
public struct VerificationProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// An entry's file does not exist.
        case missingFile = "missing file"
        /// An entry's path is a directory, a link or a device.
        case notARegularFile = "not a regular file"
        /// An entry's file has another size than recorded (torn or changed).
        case sizeMismatch = "size mismatch"
        /// An entry's file has another SHA-256 than recorded.
        case checksumMismatch = "checksum mismatch"
        /// An entry's path cannot be opened inside the container (a link on the way).
        case unreadableFile = "unreadable file"
        /// The journal ends in a torn record.
        case tornJournalTail = "torn journal tail"
        /// Two entries claim one path.
        case duplicatePath = "duplicate path"
        /// A file under `Inbox/` that no entry references.
        case orphanFile = "orphan file"
        /// A `.tmp-*` file no live writer holds.
        case leftoverTemporaryFile = "leftover temporary file"
    }
    /// What kind.
    public var kind: Kind
    /// The path (relative to the container) or the journal.
    public var path: String
    /// More detail.
    public var detail: String

    /// `<kind>: <path> (<detail>)`.
    public var description: String {
        detail.isEmpty ? "\(kind.rawValue): \(path)" : "\(kind.rawValue): \(path) (\(detail))"
    }
}

/// The result of ``AppGroupStore/verify()``.
public struct VerificationReport: Sendable, Hashable {
    /// Entries in the journal.
    public var entryCount: Int = 0
    /// Bytes read and hashed.
    public var bytesChecked: Int64 = 0
    /// Everything wrong, in journal order then orphans and temporaries.
    public var problems: [VerificationProblem] = []

    /// Whether nothing is wrong.
    public var isClean: Bool { problems.isEmpty }
}
