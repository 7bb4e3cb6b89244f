import HostSystem

extension AppGroupStore {
    /// Checks, under the shared lock, every entry against its file (exists, regular, size,
    /// SHA-256), the journal's tail, paths claimed twice, files under `Inbox/` no entry references,
    /// and temporary files no live writer holds. Changes nothing.
    /// - Throws: ``AppGroupError`` when the container cannot be read at all.
    public func verify() throws -> VerificationReport {
        try lock.withLock(.shared) {
            var report = VerificationReport()
            // The whole journal, read afresh: a writer's index may start at the checkpoint.
            let journalPath = try ContainerPath(Self.journalPath)
            let journal = try directory.open(journalPath)
            defer { try? journal.close() }
            let scan = try Journal.scan(journal, from: Int64(Journal.headerSize), path: journalPath.description)
            let entries = scan.entries
            report.entryCount = entries.count
            var seen: Set<ContainerPath> = []
            for entry in entries {
                if !seen.insert(entry.path).inserted {
                    report.problems.append(
                        VerificationProblem(
                            kind: .duplicatePath, path: entry.path.description, detail: "entry \(entry.sequence)"))
                }
                if let problem = check(entry, bytes: &report.bytesChecked) { report.problems.append(problem) }
            }
            if scan.fileLength > scan.validEnd {
                report.problems.append(
                    VerificationProblem(
                        kind: .tornJournalTail, path: Self.journalPath,
                        detail: "\(scan.fileLength - scan.validEnd) byte(s) after the last whole record: "
                            + (scan.damage ?? "damaged")))
            }
            try directory.walk(from: try ContainerPath(Self.inboxDirectory)) { path, kind in
                guard kind != .directory, !seen.contains(path),
                    !path.lastComponent.hasPrefix(StagedFile.temporaryPrefix)
                else { return }
                report.problems.append(
                    VerificationProblem(kind: .orphanFile, path: path.description, detail: "no entry references it"))
            }
            try ContainerLock(directory: directory, path: .stagingLock).withLock(.exclusive) {
                try directory.walk(skipping: [Self.quarantineDirectory]) { path, kind in
                    guard kind == .regular, path.lastComponent.hasPrefix(StagedFile.temporaryPrefix),
                        Self.isStale(path, in: directory)
                    else { return }
                    report.problems.append(
                        VerificationProblem(
                            kind: .leftoverTemporaryFile, path: path.description, detail: "no writer holds it"))
                }
            }
            return report
        }
    }

    private func check(_ entry: JournalEntry, bytes: inout Int64) -> VerificationProblem? {
        let shown = entry.path.description
        let fd: FileDescriptor
        do {
            fd = try directory.open(entry.path)
        } catch let error as AppGroupError where error.code == .notFound {
            return VerificationProblem(
                kind: .missingFile, path: shown, detail: "entry \(entry.sequence) '\(entry.name)'")
        } catch {
            return VerificationProblem(kind: .unreadableFile, path: shown, detail: "\(error)")
        }
        defer { try? fd.close() }
        guard let status = try? fd.status(), status.kind == .regular else {
            return VerificationProblem(kind: .notARegularFile, path: shown, detail: "entry \(entry.sequence)")
        }
        guard status.size == entry.size else {
            return VerificationProblem(
                kind: .sizeMismatch, path: shown, detail: "recorded \(entry.size) bytes, found \(status.size)")
        }
        var hash = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            guard let count = try? fd.read(fromAbsoluteOffset: offset, into: buffer) else {
                return VerificationProblem(kind: .unreadableFile, path: shown, detail: "read failed at byte \(offset)")
            }
            if count == 0 { break }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
        bytes += offset
        let digest = SHA256.hexString(hash.finalize())
        guard digest == entry.sha256 else {
            return VerificationProblem(
                kind: .checksumMismatch, path: shown, detail: "recorded sha256 \(entry.sha256), found \(digest)")
        }
        return nil
    }
}
