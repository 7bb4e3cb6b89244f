public import Foundation

/// One entry waiting in an app's inbox.
///
/// The file's location is kept as a path string; its `URL` is built only when asked for, so
/// listing 100 000 entries makes no URL at all.
public struct InboxItem: Sendable, Hashable {
    /// The committed entry.
    public var entry: JournalEntry
    /// The group container's path (no trailing `/`).
    let containerPath: String

    /// An item for `entry` in the group container at `containerPath`.
    init(entry: JournalEntry, containerPath: String) {
        self.entry = entry
        self.containerPath = containerPath
    }

    /// The file's absolute path in the group container.
    public var path: String { containerPath + "/" + entry.path.description }

    /// The file's URL in the group container.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: false) }
}

/// The main app's side: the entries committed to a group since the app's cursor, and `consume`.
///
/// The cursor lives in the app's own data container
/// (`Data/Application/<UUID>/Library/Application Support/exthost/<group>.inbox-cursor`), so two apps
/// of one group each have their own. It remembers the journal's UUID: if the group container is
/// recreated, the cursor starts again from the beginning.
public final class AppGroupInbox: Sendable {
    /// The group store (opened as the app, so the entitlement is checked).
    public let store: AppGroupStore
    /// The app.
    public let app: BundleIdentity
    /// The app's data container, where the cursor is kept.
    public let appContainer: ContainerInfo
    private let appDirectory: ContainerDirectory
    private let cursorPath: ContainerPath

    /// Opens `group`'s inbox for `app`. The app only reads the group, so the store is opened
    /// without recovery (see ``AppGroupStore/open(_:as:root:recovering:retainingEntries:)``); the cursor it writes
    /// lives in its own container.
    /// - Throws: ``AppGroupError`` `.notEntitled`, `.io`.
    public init(group: AppGroupIdentifier, app: BundleIdentity, root: DeviceRoot) throws {
        store = try AppGroupStore.open(group, as: app, root: root, recovering: false, retainingEntries: false)
        self.app = app
        appContainer = try root.dataContainer(for: app)
        appDirectory = try ContainerDirectory(url: appContainer.url)
        cursorPath = try ContainerPath("Library/Application Support/exthost").appending(
            "\(group.rawValue).inbox-cursor")
    }

    /// The last consumed sequence number (0 when nothing was consumed).
    /// - Throws: ``AppGroupError`` `.corrupt` for an unreadable cursor file.
    public func cursor() throws -> Int {
        let bytes: [UInt8]
        do {
            bytes = try appDirectory.readFile(cursorPath, limit: 4096)
        } catch let error as AppGroupError where error.code == .notFound {
            return 0
        }
        let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        guard text.count == 2, let journal = UUID(uuidString: text[0]), let sequence = Int(text[1]) else {
            throw AppGroupError(.corrupt, "\(appDirectory.url(for: cursorPath).path) is not an inbox cursor")
        }
        return journal == store.journalID ? sequence : 0
    }

    /// The entries committed after the cursor (or after `sequence`), at most `limit`, with their
    /// file URLs: a page; the next one starts after the last entry's sequence.
    /// - Throws: ``AppGroupError``.
    public func pending(after sequence: Int? = nil, limit: Int? = nil) throws -> [InboxItem] {
        let container = store.containerPath
        return try store.entries(after: try sequence ?? cursor(), limit: limit).map {
            InboxItem(entry: $0, containerPath: container)
        }
    }

    /// Calls `body` with each entry committed after the cursor (or after `sequence`), at most
    /// `limit`, reading the journal one record at a time: memory stays flat however many there are.
    /// - Throws: ``AppGroupError``, or what `body` throws.
    public func forEachPending(after sequence: Int? = nil, limit: Int? = nil, _ body: (InboxItem) throws -> Void)
        throws
    {
        let container = store.containerPath
        try store.forEachEntry(after: try sequence ?? cursor(), limit: limit) {
            try body(InboxItem(entry: $0, containerPath: container))
        }
    }

    /// Moves the cursor to `sequence` (atomically and durably); earlier entries are no longer pending.
    /// - Throws: ``AppGroupError``.
    public func consume(through sequence: Int) throws {
        let text = "\(store.journalID.uuidString)\n\(sequence)"
        try appDirectory.writeAtomically(Array(text.utf8), to: cursorPath)
    }

    /// Waits up to `timeout` seconds for at least one pending entry (returns at once if there is
    /// one), using the group's commit notification.
    /// - Returns: the pending entries, empty on timeout.
    /// - Throws: ``AppGroupError``.
    public func waitForEntries(timeout: Double) throws -> [InboxItem] {
        let observer = try store.commitNotification.observe()
        defer { observer.close() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let items = try pending()
            if !items.isEmpty { return items }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return [] }
            _ = try observer.wait(timeout: remaining)
        }
    }
}
