import Foundation
package import HostSystem

/// Copies that hash what they write, and the digests of the copies exthost's own loader made,
/// kept until the copy is moved into a group — so a big file's bytes are hashed while the kernel
/// copies them, not read back a second time at commit.
///
/// A carried digest is only ever a shortcut, never a claim: it is recorded by exthost's code (this
/// API is `package`, so an extension's own code cannot record one) together with the file's
/// identity (device, inode) and its size, modification and status-change times as the copy left
/// them, and it is used only when the file still shows exactly those — a write, truncation,
/// `chmod` or `utimensat` in between moves the status-change time, which no process can set back.
/// Otherwise the file is hashed at commit as before, so the journal's digest is always that of the
/// bytes committed (``AppGroupStore/verify()`` compares the two).
package enum DigestedCopies {
    /// The size and SHA-256 (lowercase hex) of what a copy wrote.
    package typealias Summary = (size: Int64, sha256: String)

    private struct Record {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modification: (seconds: Int64, nanoseconds: Int64)
        var change: (seconds: Int64, nanoseconds: Int64)
        var sha256: String
    }

    /// The digests of copies not yet moved into a group (the oldest dropped past ``maximumRecords``:
    /// a copy the extension's code never moves costs a hash at commit, nothing else).
    private static let records = Locked<[Record]>([])
    static let maximumRecords = 256
    /// How many bytes the kernel copies between two hand-overs to the hashing thread.
    package static let chunkSize = 8 << 20
    /// The hashing thread's read buffer (the only memory a copy allocates).
    static let bufferSize = 1 << 20

    /// Copies all of `source` (at offset 0) into `destination` (an empty file open for reading and
    /// writing) and records the digest of what it wrote for
    /// ``takeDigest(matching:)``.
    /// - Throws: ``Errno``.
    package static func copyRecordingDigest(from source: FileDescriptor, to destination: FileDescriptor)
        throws(Errno)
    {
        let summary = try copy(from: source, to: destination)
        let status = try destination.status()
        guard status.size == summary.size else { return }
        let record = Record(
            device: status.device, inode: status.inode, size: status.size, modification: status.modificationTimeExact,
            change: status.changeTimeExact, sha256: summary.sha256)
        records.withLock { records in
            records.removeAll { $0.device == record.device && $0.inode == record.inode }
            if records.count >= maximumRecords { records.removeFirst(records.count - maximumRecords + 1) }
            records.append(record)
        }
    }

    /// The digest recorded for the file `status` describes, if the file is exactly as the copy
    /// left it (same identity, size, modification and status-change times); the record is
    /// forgotten either way.
    package static func takeDigest(matching status: FileStatus) -> String? {
        records.withLock { records -> String? in
            guard let index = records.firstIndex(where: { $0.device == status.device && $0.inode == status.inode })
            else { return nil }
            let record = records.remove(at: index)
            guard record.size == status.size, record.modification == status.modificationTimeExact,
                record.change == status.changeTimeExact
            else { return nil }
            return record.sha256
        }
    }

    /// Copies all of `source` (at offset 0) into `destination` (empty, at offset 0, open for
    /// reading and writing) and returns the size and SHA-256 of what it wrote.
    ///
    /// A clone where the file system shares extents (then the copy is hashed, once). Otherwise
    /// `copy_file_range` in chunks of ``chunkSize`` on this thread, each chunk's write-back started
    /// as soon as it is copied, while a second thread hashes each chunk of the source right behind
    /// it, from the page cache the copy just read: the copy, the hash and the device's writing
    /// overlap. (The source, not the destination: under the extension's memory cgroup the copy's
    /// dirty pages are charged to the extension and reclaimed as they are written back, so reading
    /// the destination again would read the disk.) The source is the copy's only when it did not
    /// change meanwhile: when its size, modification or status-change time moved during the copy,
    /// the destination is hashed instead. Where the kernel cannot copy, one buffer is read, hashed
    /// and written in turn.
    /// - Throws: ``Errno``.
    package static func copy(from source: FileDescriptor, to destination: FileDescriptor) throws(Errno) -> Summary {
        guard (try? source.seek(offset: 0)) != nil else { return try copyThroughBuffer(from: source, to: destination) }
        do {
            try destination.clone(from: source)
            try? destination.startWriteback()
            return try hash(destination, from: 0)
        } catch let error where FileDescriptor.meansCopyUnsupported(error) {}
        let first: Int
        do { first = try destination.copyFileRange(from: source, count: chunkSize) } catch let error
            where FileDescriptor.meansCopyUnsupported(error)
        {
            return try copyThroughBuffer(from: source, to: destination)
        }
        if first == 0 { return try hash(destination, from: 0) }
        try? destination.startWriteback()
        let next = try destination.copyFileRange(from: source, count: chunkSize)
        if next == 0 { return try hash(destination, from: 0) }
        let before = try source.status()
        let summary = try copyWhileHashing(from: source, to: destination, copied: Int64(first + next))
        let after = try source.status()
        guard let summary, after.size == before.size, after.size == summary.size,
            after.modificationTimeExact == before.modificationTimeExact,
            after.changeTimeExact == before.changeTimeExact
        else {
            // The source changed while it was copied: hash what the copy holds.
            return try hash(destination, from: 0)
        }
        return summary
    }

    /// The pipeline of ``copy(from:to:)``: `copied` bytes of `source` (from offset 0) are already in
    /// `destination`; returns the size and SHA-256 of the bytes of `source` it copied (nil when
    /// reading the source for the hash failed).
    private static func copyWhileHashing(from source: FileDescriptor, to destination: FileDescriptor, copied: Int64)
        throws(Errno) -> Summary?
    {
        let progress = Locked((copied: copied, finished: false))
        let outcome = Locked<Result<Summary, Errno>?>(nil)
        let more = DispatchSemaphore(value: 0)
        let hashed = DispatchSemaphore(value: 0)
        let hasher = Thread {
            defer { hashed.signal() }
            let result = Result { () throws(Errno) -> Summary in
                var hash = SHA256()
                var offset: Int64 = 0
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
                defer { buffer.deallocate() }
                while true {
                    let (end, finished) = progress.withLock { ($0.copied, $0.finished) }
                    while offset < end {
                        let wanted = Int(min(Int64(buffer.count), end - offset))
                        let count = try source.read(
                            fromAbsoluteOffset: offset,
                            into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                        // The source lost bytes already copied out of it: not a copy to trust.
                        guard count > 0 else { throw Errno.ioError }
                        hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                        offset += Int64(count)
                    }
                    if finished { return (offset, SHA256.hexString(hash.finalize())) }
                    more.wait()
                }
            }
            outcome.withLock { $0 = result }
        }
        hasher.start()
        var failure: Errno?
        do {
            var total = copied
            more.signal()
            while true {
                let count = try destination.copyFileRange(from: source, count: chunkSize)
                if count == 0 { break }
                total += Int64(count)
                progress.withLock { $0.copied = total }
                more.signal()
                try? destination.startWriteback()
            }
        } catch {
            failure = error
        }
        progress.withLock { $0.finished = true }
        more.signal()
        hashed.wait()
        if let failure { throw failure }
        // A failed read of the source is not the copy's failure: the caller hashes the copy instead.
        return outcome.withLock { $0.flatMap { try? $0.get() } }
    }

    /// Reads `source`, hashes and writes each buffer in turn (where the kernel cannot copy).
    private static func copyThroughBuffer(from source: FileDescriptor, to destination: FileDescriptor)
        throws(Errno) -> Summary
    {
        var hash = SHA256()
        var total: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            if count == 0 { return (total, SHA256.hexString(hash.finalize())) }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            try destination.writeAll(chunk)
            hash.update(chunk)
            total += Int64(count)
        }
    }

    /// The size and SHA-256 of `file` from `offset` to its end (1 MiB at a time).
    static func hash(_ file: FileDescriptor, from offset: Int64) throws(Errno) -> Summary {
        var hash = SHA256()
        var offset = offset
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try file.read(fromAbsoluteOffset: offset, into: buffer)
            if count == 0 { return (offset, SHA256.hexString(hash.finalize())) }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
    }
}
