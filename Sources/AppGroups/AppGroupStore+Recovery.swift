import Foundation
import HostSystem

extension AppGroupStore {
    /// Runs a thorough recovery now: the whole container is checked whether or not a writer died.
    /// - Throws: ``AppGroupError``.
    public func recover() throws -> RecoveryReport {
        try Self.recover(directory: directory, lock: lock, index: index, thorough: true)
    }

    /// Under the exclusive lock: truncates a torn journal tail; then, when `thorough` or when a
    /// writer died (its marker in `.exthost/writers/` is unlocked), removes temporary files no live
    /// writer holds (their `flock` is free) and quarantines files under `Inbox/` that no entry
    /// references into `.quarantine/<timestamp>/`, and removes the dead writers' markers. Only a
    /// writer that died can leave either, so an open after clean exits reads the journal's frames
    /// and nothing else: its cost does not grow with the container's history.
    static func recover(directory: ContainerDirectory, lock: ContainerLock, index: JournalIndex, thorough: Bool)
        throws -> RecoveryReport
    {
        try lock.withLock(.exclusive) {
            var report = RecoveryReport()
            let (cut, damage) = try index.refresh(repair: true)
            report.truncatedJournalBytes = cut
            report.journalDamage = damage
            let dead = try ContainerLock(directory: directory, path: .stagingLock).withLock(.exclusive) {
                try directory.deadWriterMarkers()
            }
            guard thorough || !dead.isEmpty else { return report }
            report.removedTemporaryFiles = try removeStaleTemporaries(directory)
            try quarantineOrphans(directory, into: &report)
            if !dead.isEmpty, let writers = try? directory.openDirectory(ContainerDirectory.writersDirectory) {
                defer { try? writers.close() }
                for name in dead { try? writers.removeFile(name) }
                try? writers.sync()
            }
            return report
        }
    }

    /// Moves files under `Inbox/` that no journal entry references into `.quarantine/<timestamp>/`.
    /// Holds the referenced paths (not the entries) while it walks.
    private static func quarantineOrphans(_ directory: ContainerDirectory, into report: inout RecoveryReport) throws {
        do {
            var referenced = Set<String>()
            let path = try ContainerPath(journalPath)
            let fd = try directory.open(path)
            defer { try? fd.close() }
            _ = try Journal.walk(fd, from: Int64(Journal.headerSize), path: path.description, decoding: true) {
                referenced.insert($0.path.description)
                return true
            }
            var orphans: [ContainerPath] = []
            try directory.walk(from: try ContainerPath(inboxDirectory)) { path, kind in
                if kind == .directory || referenced.contains(path.description) { return }
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
