public import HostSystem

/// A cross-process reader/writer lock for one container, in the spirit of `NSFileCoordinator`:
/// shared for readers, exclusive for writers.
///
/// Each acquisition opens the lock file anew, so it is its own open file description: two threads
/// of one process exclude each other as two processes do, and a killed holder releases it.
/// Do not nest acquisitions on one thread (an exclusive request under a shared one deadlocks).
///
/// `flock` alone would let a steady stream of readers starve a writer, so every acquisition first
/// passes a turnstile (`<lock>.turnstile`, taken exclusively and released once the real lock is
/// held): a waiting writer holds the turnstile, so readers arriving after it queue behind it.
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
        let turnstile = try directory.open(turnstilePath, [.readWrite, .create], permissions: 0o644)
        let fd: FileDescriptor
        do {
            defer { try? turnstile.close() }
            do { try turnstile.lock(.exclusive) } catch {
                throw AppGroupError.lock(error, path: turnstilePath.description)
            }
            fd = try directory.open(path, [.readWrite, .create], permissions: 0o644)
            do { try fd.lock(kind) } catch {
                try? fd.close()
                throw AppGroupError.lock(error, path: path.description)
            }
        }
        defer { try? fd.close() }
        return try body()
    }

    private var turnstilePath: ContainerPath {
        (try? path.parent.map { try $0.appending(path.lastComponent + ".turnstile") }
            ?? ContainerPath(path.lastComponent + ".turnstile")) ?? path
    }
}
