public import HostSystem

/// A cross-process reader/writer lock for one container, in the spirit of `NSFileCoordinator`:
/// shared for readers, exclusive for writers.
///
/// Each acquisition opens the lock file anew, so it is its own open file description: two threads
/// of one process exclude each other as two processes do, and a killed holder releases it.
/// Do not nest acquisitions on one thread (an exclusive request under a shared one deadlocks).
public struct ContainerLock: Sendable {
    /// The lock file, relative to the container.
    public let path: ContainerPath
    private let directory: ContainerDirectory

    /// A lock over `path` in `directory` (the file is created on first use).
    public init(directory: ContainerDirectory, path: ContainerPath) {
        self.directory = directory
        self.path = path
    }

    /// Runs `body` while holding the lock.
    /// - Throws: ``AppGroupError`` `.io` when the lock cannot be taken, or what `body` throws.
    public func withLock<R>(_ kind: FileLockKind, _ body: () throws -> R) throws -> R {
        if let parent = path.parent { try? directory.openDirectory(parent, creating: true).close() }
        let fd = try directory.open(path, [.readWrite, .create], permissions: 0o644)
        defer { try? fd.close() }
        do { try fd.lock(kind) } catch { throw AppGroupError.lock(error, path: path.description) }
        return try body()
    }

    /// Tries to take the lock without waiting; runs `body` and returns its result when granted,
    /// or nil when another holder conflicts.
    /// - Throws: ``AppGroupError`` `.io`, or what `body` throws.
    public func withLockIfAvailable<R>(_ kind: FileLockKind, _ body: () throws -> R) throws -> R? {
        if let parent = path.parent { try? directory.openDirectory(parent, creating: true).close() }
        let fd = try directory.open(path, [.readWrite, .create], permissions: 0o644)
        defer { try? fd.close() }
        let granted: Bool
        do { granted = try fd.lock(kind, wait: false) } catch { throw AppGroupError.lock(error, path: path.description) }
        return granted ? try body() : nil
    }
}
