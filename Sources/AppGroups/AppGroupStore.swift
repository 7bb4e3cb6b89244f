public import Foundation
import HostSystem

/// An App Group container opened for reading and committing entries.
///
/// Files reach the app only through the journal: ``makeEntry(name:typeIdentifier:path:permissions:)`` stages a
/// temporary file, ``commit(_:)`` makes it durable, renames it into place and appends its record,
/// all under the container's exclusive lock; readers use ``entries(after:limit:)`` under the shared lock.
/// Opening a store as an identity runs recovery first (see ``lastRecovery``).
public final class AppGroupStore: Sendable {
    /// The group.
    public let group: AppGroupIdentifier
    /// The container (UUID, URL).
    public let container: ContainerInfo
    /// The device root it lives in.
    public let root: DeviceRoot
    /// The open container directory; every access goes through it.
    public let directory: ContainerDirectory
    /// Who commits through this store (recorded as each entry's `source`).
    public let source: String
    /// The per-container reader/writer lock (`.exthost/container.lock`).
    public let lock: ContainerLock
    /// What recovery did when the store was opened (empty for inspection).
    public let lastRecovery: RecoveryReport

    /// `.exthost/`, the store's own state.
    public static let stateDirectory = ".exthost"
    /// The journal, relative to the container.
    public static let journalPath = ".exthost/journal"
    /// Where committed files go unless a path is given.
    public static let inboxDirectory = "Inbox"
    /// Where recovery moves files no entry references.
    public static let quarantineDirectory = ".quarantine"

    let index: JournalIndex

    // MARK: - Opening

    /// Opens `group` as `identity` (the extension writing, or the app reading): checks the
    /// entitlement, creates the container on first use, and runs recovery unless `recovering` is
    /// false.
    ///
    /// A process that only reads may skip recovery: readers never see what it repairs (a torn journal
    /// tail is ignored by ``entries(after:limit:)``, temporaries and orphans are not in the journal), and
    /// recovery walks the whole container — 27 % of listing a 100 000-entry inbox. The next writer
    /// to open the store repairs it.
    /// - Throws: ``AppGroupError`` `.notEntitled` (naming group, bundle identifier, entitlements
    ///   file), `.corrupt`, `.io`.
    public static func open(
        _ group: AppGroupIdentifier, as identity: BundleIdentity, root: DeviceRoot, recovering: Bool = true,
        retainingEntries: Bool = true
    ) throws -> AppGroupStore {
        let info = try root.groupContainer(group, as: identity)
        return try AppGroupStore(
            group: group, container: info, root: root, source: identity.bundleIdentifier, recover: recovering,
            retainingEntries: retainingEntries)
    }

    /// Opens the group container at `url` (resolved earlier, e.g. by the host before it sandboxed
    /// the extension) as `identity`, without scanning the device root: what a sandboxed extension
    /// that may only see its own containers uses. Checks the entitlement and that the container's
    /// metadata names `group`, then runs recovery. `retainingEntries: false` is for a writer that
    /// never lists entries: its memory then stays flat however many entries it or others commit
    /// (listing, verify and export then read the journal afresh).
    /// - Throws: ``AppGroupError`` `.notEntitled`, `.notFound`, `.corrupt` (metadata for another
    ///   identifier), `.io`.
    public static func open(
        _ group: AppGroupIdentifier, containerAt url: URL, as identity: BundleIdentity, root: DeviceRoot,
        retainingEntries: Bool = true
    ) throws -> AppGroupStore {
        try identity.requireEntitlement(to: group)
        let metadata = try ContainerMetadata.read(containerAt: url)
        guard metadata.kind == .appGroup, metadata.identifier.caseInsensitiveCompare(group.rawValue) == .orderedSame
        else {
            throw AppGroupError(
                .corrupt, "\(url.path) is the container of '\(metadata.identifier)', not of App Group '\(group)'")
        }
        return try AppGroupStore(
            group: group, container: ContainerInfo(metadata: metadata, url: url), root: root,
            source: identity.bundleIdentifier, recover: true, retainingEntries: retainingEntries)
    }

    /// Opens an existing group container for inspection (`exthost container show/verify`), the way
    /// `simctl get_app_container` does: no entitlement check, no creation, no recovery.
    /// - Throws: ``AppGroupError`` `.notFound` when the root has no container for the group.
    public static func inspect(_ group: AppGroupIdentifier, root: DeviceRoot) throws -> AppGroupStore {
        guard let info = root.existingContainer(.appGroup, identifier: group.rawValue) else {
            throw AppGroupError(.notFound, "no container for App Group '\(group)' under \(root.url.path)")
        }
        return try AppGroupStore(group: group, container: info, root: root, source: "exthost", recover: false)
    }

    /// Opens an existing group container and runs a thorough recovery (the whole container is
    /// checked, whether or not a writer died), without an identity (the `exthost container recover`
    /// tool and tests).
    /// - Throws: ``AppGroupError`` `.notFound`, `.io`.
    public static func recovering(_ group: AppGroupIdentifier, root: DeviceRoot) throws -> AppGroupStore {
        guard let info = root.existingContainer(.appGroup, identifier: group.rawValue) else {
            throw AppGroupError(.notFound, "no container for App Group '\(group)' under \(root.url.path)")
        }
        return try AppGroupStore(
            group: group, container: info, root: root, source: "exthost", recover: true, thoroughRecovery: true)
    }

    private init(
        group: AppGroupIdentifier, container: ContainerInfo, root: DeviceRoot, source: String, recover: Bool,
        thoroughRecovery: Bool = false, retainingEntries: Bool = true
    ) throws {
        self.group = group
        self.container = container
        self.root = root
        self.source = source
        let opened = try ContainerDirectory(url: container.url, marksWriters: true)
        let containerLock = ContainerLock(directory: opened, path: try ContainerPath(".exthost/container.lock"))
        let journalIndex = JournalIndex(
            directory: opened, id: try Self.ensureJournal(opened), retainsEntries: retainingEntries)
        if recover {
            lastRecovery = try Self.recover(
                directory: opened, lock: containerLock, index: journalIndex, thorough: thoroughRecovery)
        } else {
            _ = try containerLock.withLock(.shared) { try journalIndex.refresh(repair: false) }
            lastRecovery = RecoveryReport()
        }
        directory = opened
        lock = containerLock
        index = journalIndex
    }

    /// Creates `.exthost/journal` with a fresh header if it is missing (atomically, so two
    /// processes racing agree on one), and returns the journal's UUID.
    private static func ensureJournal(_ directory: ContainerDirectory) throws -> UUID {
        let path = try ContainerPath(journalPath)
        if try directory.status(of: path) == nil {
            let staged = try directory.stage(in: try ContainerPath(stateDirectory))
            defer { staged.discard() }
            try staged.write(Journal.header(id: UUID()))
            do {
                try staged.publish(as: "journal", replacing: false)
            } catch let error as AppGroupError where error.code == .alreadyExists {
                // Another process created it first; use theirs.
            }
        }
        let fd = try directory.open(path)
        defer { try? fd.close() }
        return try Journal.readHeader(fd, path: path.description)
    }

    // MARK: - Reading

    /// The journal's UUID (a new container, or a recreated journal, has a new one).
    public var journalID: UUID { index.id }

    /// Every committed entry with a sequence greater than `sequence` (at most `limit`), in commit order, read under
    /// the shared lock (a torn tail left by a crashed writer is ignored, not repaired).
    /// - Throws: ``AppGroupError``.
    public func entries(after sequence: Int = 0, limit: Int? = nil) throws -> [JournalEntry] {
        guard index.retainsEntries else {
            var page: [JournalEntry] = []
            try forEachEntry(after: sequence, limit: limit) { page.append($0) }
            return page
        }
        let all = try lock.withLock(.shared) { try index.refreshAll(repair: false).entries }
        guard let first = all.firstIndex(where: { $0.sequence > sequence }) else { return [] }
        let end = limit.map { min(all.count, first + max(0, $0)) } ?? all.count
        return Array(all[first..<end])
    }

    /// Where the journal ends now (its last sequence number and the offset after its last whole
    /// record): what a host notes before and after an extension runs, so the difference of the two
    /// sequence numbers is what the run committed (sequence numbers are consecutive).
    /// - Throws: ``AppGroupError``.
    public func mark() throws -> JournalMark {
        _ = try lock.withLock(.shared) { try index.refresh(repair: false) }
        let (next, offset) = index.next
        return JournalMark(journal: index.id, sequence: next - 1, offset: offset)
    }

    /// Calls `body` with each entry committed after `sequence`, in order, at most `limit` of them,
    /// decoding the journal one record at a time from disk (records up to `sequence` are checked
    /// but not decoded): memory does not grow with the group's history, so an app can list 100 000
    /// entries in a few megabytes.
    /// - Throws: ``AppGroupError``, or what `body` throws.
    public func forEachEntry(after sequence: Int = 0, limit: Int? = nil, _ body: (JournalEntry) throws -> Void)
        throws
    {
        var remaining = limit ?? Int.max
        guard remaining > 0 else { return }
        try lock.withLock(.shared) {
            let path = try ContainerPath(Self.journalPath)
            let fd = try directory.open(path)
            defer { try? fd.close() }
            _ = try Journal.readHeader(fd, path: path.description)
            _ = try Journal.walk(
                fd, from: Int64(Journal.headerSize), path: path.description, decoding: true, skippingThrough: sequence
            ) { entry in
                try body(entry)
                remaining -= 1
                return remaining > 0
            }
        }
    }

    /// The file URL of an entry (for the app, which opens it itself).
    public func url(for entry: JournalEntry) -> URL { directory.url(for: entry.path) }

    /// The container's absolute path, without a trailing `/` (what ``url(for:)`` starts with).
    var containerPath: String { directory.url.path }

    /// The name of the notification posted after each commit to this group.
    public var commitNotification: DarwinNotification { Self.commitNotification(group, root: root) }

    /// The notification posted after each commit to `group` on `root`'s device (whether or not
    /// its container exists yet).
    public static func commitNotification(_ group: AppGroupIdentifier, root: DeviceRoot) -> DarwinNotification {
        DarwinNotification(root: root, name: "\(group.rawValue).exthost.committed")
    }
}
