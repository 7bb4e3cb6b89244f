import Foundation
import HostSystem

extension AppGroupStore {
    /// Runs recovery now (it also runs when a store is opened as an identity).
    /// - Throws: ``AppGroupError``.
    public func recover() throws -> RecoveryReport {
        try Self.recover(directory: directory, lock: lock, index: index)
    }

    /// Under the exclusive lock: truncates a torn journal tail, removes temporary files no live
    /// writer holds (their `flock` is free), and quarantines files under `Inbox/` that no entry
    /// references into `.quarantine/<timestamp>/`.
    static func recover(directory: ContainerDirectory, lock: ContainerLock, index: JournalIndex) throws
        -> RecoveryReport
    {
        try lock.withLock(.exclusive) {
            var report = RecoveryReport()
            let (entries, cut, damage) = try index.refreshAll(repair: true)
            report.truncatedJournalBytes = cut
            report.journalDamage = damage
            report.removedTemporaryFiles = try removeStaleTemporaries(directory)
            let referenced = Set(entries.map(\.path))
            var orphans: [ContainerPath] = []
            try directory.walk(from: try ContainerPath(inboxDirectory)) { path, kind in
                if kind == .directory || referenced.contains(path) { return }
                if path.lastComponent.hasPrefix(StagedFile.temporaryPrefix) { return }  // a live writer's
                orphans.append(path)
            }
            if !orphans.isEmpty {
                let formatter = ISO8601DateFormatter()
                let stamp = formatter.string(from: Date()).replacingOccurrences(of: ":", with: "-")
                let folder = try ContainerPath(quarantineDirectory).appending(stamp)
                report.quarantineFolder = folder.description
                let target = try directory.openDirectory(folder, creating: true)
                defer { try? target.close() }
                for orphan in orphans {
                    let parent = try directory.openDirectory(orphan.parent)
                    defer { try? parent.close() }
                    let flattened = orphan.components.joined(separator: "_")
                    do throws(Errno) {
                        try parent.rename(orphan.lastComponent, to: flattened, in: target, flags: .noReplace)
                        try parent.sync()
                    } catch {
                        throw AppGroupError.rename(error, from: orphan.description, to: "\(folder)/\(flattened)")
                    }
                    report.quarantinedFiles.append((orphan.description, "\(folder)/\(flattened)"))
                }
                do throws(Errno) { try target.sync() } catch {
                    throw AppGroupError.sync(error, path: folder.description)
                }
            }
            return report
        }
    }

    /// Removes every `.tmp-*` file whose `flock` can be taken (no live writer), skipping
    /// `.quarantine/`.
    static func removeStaleTemporaries(_ directory: ContainerDirectory) throws -> [String] {
        var removed: [String] = []
        try ContainerLock(directory: directory, path: .stagingLock).withLock(.exclusive) {
            try directory.walk(skipping: [quarantineDirectory]) { path, kind in
                guard kind == .regular, path.lastComponent.hasPrefix(StagedFile.temporaryPrefix) else { return }
                guard isStale(path, in: directory) else { return }
                try directory.removeFile(path)
                removed.append(path.description)
            }
        }
        return removed
    }

    /// Whether no live process holds the temporary file's lock.
    static func isStale(_ path: ContainerPath, in directory: ContainerDirectory) -> Bool {
        guard let fd = try? directory.open(path, [.readOnly, .nonBlocking]) else { return false }
        defer { try? fd.close() }
        return (try? fd.lock(.exclusive, wait: false)) == true
    }
}
