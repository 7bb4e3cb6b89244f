internal import CArchive
public import FoundationEssentials
import HostSystem

/// Reads an archive entry by entry, streaming each entry's data in bounded chunks.
///
/// The format is detected from the content: tar (ustar, pax, GNU), zip, optionally compressed
/// with gzip, bzip2, xz or zstd (each when libarchive was built with its library, as Debian's
/// is). Filters that would run an external program are never enabled.
///
/// ```swift
/// let reader = try ArchiveReader(contentsOf: url)
/// while let entry = try reader.nextEntry() {
///     try reader.readData { chunk in … }   // at most `chunkSize` bytes at a time
/// }
/// try reader.finish()
/// ```
///
/// Reading does not validate paths: use ``ArchiveExtractor`` to put entries on disk.
///
/// An `ArchiveReader` owns one libarchive read handle. It is deliberately not `Sendable`: a
/// handle is a sequential stream that must not be used from two threads, and non-`Sendable`
/// lets the compiler enforce single ownership instead of a lock serialising calls that must
/// already be sequential. ``finish()`` frees the handle; `deinit` is a backstop.
public final class ArchiveReader {
    /// The size of the chunks ``readData(_:)`` hands out: 64 KiB.
    public static let chunkSize = 64 * 1024

    /// The archive's path, `fd N`, or the name given for in-memory bytes; used in error messages.
    public let archiveName: String
    /// The size of the archive itself in bytes, when known (a regular file or in-memory bytes).
    public let archiveSize: Int64?

    private var handle: OpaquePointer?
    private var ownedFile: FileDescriptor?
    private var memory: UnsafeMutableRawBufferPointer?
    private let chunk: UnsafeMutableRawBufferPointer
    private var currentEntry: ArchiveEntry?

    /// Opens the archive at `url` for reading.
    ///
    /// - Parameter url: A file URL.
    /// - Throws: ``ArchiveError`` with code ``ArchiveError/Code/io`` when the file cannot be opened,
    ///   ``ArchiveError/Code/unreadableArchive`` when it is not a readable archive.
    public convenience init(contentsOf url: URL) throws {
        let path = url.path(percentEncoded: false)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw ArchiveError.io(error, "openat", "cannot open archive \(path)", archive: path)
        }
        try self.init(file: file, owned: true, name: path)
    }

    /// Reads the archive from an open descriptor, from its current offset. The caller keeps
    /// ownership of `fileDescriptor` and must keep it open until ``finish()``.
    ///
    /// - Parameters:
    ///   - fileDescriptor: A readable descriptor (a regular file allows seeking, which zip prefers).
    ///   - name: How error messages name the archive; `fd N` when nil.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadableArchive``).
    public convenience init(fileDescriptor: Int32, name: String? = nil) throws {
        try self.init(
            file: FileDescriptor(rawValue: fileDescriptor), owned: false, name: name ?? "fd \(fileDescriptor)")
    }

    /// Reads an archive held in memory. The bytes are copied, so `bytes` may go away at once.
    ///
    /// - Parameters:
    ///   - bytes: The whole archive.
    ///   - name: How error messages name the archive.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadableArchive``).
    public init(bytes: some Collection<UInt8>, name: String = "<memory>") throws {
        archiveName = name
        archiveSize = Int64(bytes.count)
        chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        copy.copyBytes(from: bytes)
        memory = copy
        let count = bytes.count
        try withUTF8CharacterLocale {
            handle = try Self.makeHandle(name: name)
            try check(archive_read_open_memory(handle, copy.baseAddress, count), "cannot open archive")
        }
    }

    private init(file: FileDescriptor, owned: Bool, name: String) throws {
        archiveName = name
        ownedFile = owned ? file : nil
        let status = try? file.status()
        archiveSize = status.flatMap { $0.kind == .regular ? $0.size : nil }
        chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
        // Every stored property is initialised here, so a throw below still runs deinit.
        try withUTF8CharacterLocale {
            handle = try Self.makeHandle(name: name)
            try check(archive_read_open_fd(handle, file.rawValue, Self.chunkSize), "cannot open archive")
        }
    }

    private static func makeHandle(name: String) throws -> OpaquePointer {
        guard let handle = archive_read_new() else {
            throw ArchiveError(.unreadableArchive, "cannot allocate a libarchive reader for \(name)", archive: name)
        }
        // An explicit list, not archive_read_support_filter_all: a filter whose library is not
        // linked into libarchive falls back to running an external program on the input, so each
        // is enabled only when libarchive reports the library's version.
        _ = archive_read_support_format_tar(handle)
        _ = archive_read_support_format_gnutar(handle)
        _ = archive_read_support_format_zip(handle)
        if archive_zlib_version() != nil { _ = archive_read_support_filter_gzip(handle) }
        if archive_bzlib_version() != nil { _ = archive_read_support_filter_bzip2(handle) }
        if archive_liblzma_version() != nil { _ = archive_read_support_filter_xz(handle) }
        if archive_libzstd_version() != nil { _ = archive_read_support_filter_zstd(handle) }
        return handle
    }

    deinit {
        release()
        chunk.deallocate()
    }

    private func release() {
        if let handle {
            archive_read_free(handle)
            self.handle = nil
        }
        try? ownedFile?.close()
        ownedFile = nil
        memory?.deallocate()
        memory = nil
        currentEntry = nil
    }

    /// Turns a libarchive status below `ARCHIVE_OK` into an ``ArchiveError`` carrying
    /// `archive_error_string`. `ARCHIVE_WARN` is treated as an error too: for reading it means
    /// data was lost or misread.
    @discardableResult
    private func check(_ rc: Int32, _ what: String, entry: String? = nil) throws -> Int32 {
        if rc >= ARCHIVE_OK { return rc }
        throw failure(rc, what, entry: entry)
    }

    private func failure(_ rc: Int32, _ what: String, entry: String?) -> ArchiveError {
        let text = archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
        let cause = LibarchiveFailure(status: rc, errorNumber: archive_errno(handle), text: text)
        let place = entry.map { " at entry '\($0)'" } ?? ""
        return ArchiveError(
            .unreadableArchive, "\(what) \(archiveName)\(place): \(text)", cause: cause, archive: archiveName,
            entry: entry)
    }

    /// The format libarchive detected (`POSIX ustar format`, `ZIP 2.0 (deflation)`, …), after the
    /// first ``nextEntry()``.
    public var formatName: String? {
        guard let handle, let name = archive_format_name(handle) else { return nil }
        return String(cString: name)
    }

    /// How many bytes of the archive itself (before decompression) have been consumed so far.
    public var bytesConsumed: Int64 {
        guard let handle else { return 0 }
        return archive_filter_bytes(handle, -1)
    }

    /// Advances to the next entry; nil at the end of the archive. Unread data of the previous
    /// entry is skipped.
    ///
    /// - Returns: The entry's header, or nil after the last entry.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadableArchive``) for a corrupt or truncated archive.
    public func nextEntry() throws -> ArchiveEntry? {
        try withUTF8CharacterLocale { try readNextEntry() }
    }

    private func readNextEntry() throws -> ArchiveEntry? {
        guard let handle else {
            throw ArchiveError(
                .unreadableArchive, "reader for \(archiveName) is already finished", archive: archiveName)
        }
        var raw: OpaquePointer?
        let rc = archive_read_next_header(handle, &raw)
        if rc == ARCHIVE_EOF {
            currentEntry = nil
            return nil
        }
        let previous = currentEntry?.path
        // ARCHIVE_WARN still delivers a header. In the C locale it is what a non-ASCII name gives
        // ("can't be converted from UTF-8 to current locale"); the UTF-8 form is read below, and
        // paths are validated by the extractor, not trusted from here.
        if rc != ARCHIVE_WARN {
            try check(rc, "cannot read the next entry header of", entry: previous.map { "after \($0)" })
        }
        guard let raw else {
            throw failure(ARCHIVE_FATAL, "no entry header in", entry: previous)
        }
        let entry = try Self.describe(raw, archive: archiveName)
        currentEntry = entry
        return entry
    }

    private static func describe(_ raw: OpaquePointer, archive: String) throws -> ArchiveEntry {
        guard let cPath = archive_entry_pathname_utf8(raw) ?? archive_entry_pathname(raw) else {
            throw ArchiveError(.unreadableArchive, "an entry of \(archive) has no path", archive: archive)
        }
        let path = String(cString: cPath)
        var kind = ArchiveEntry.Kind(fileType: UInt32(archive_entry_filetype(raw)))
        var target: String?
        if let hard = archive_entry_hardlink_utf8(raw) ?? archive_entry_hardlink(raw) {
            kind = .hardLink
            target = String(cString: hard)
        } else if kind == .symbolicLink {
            target = (archive_entry_symlink_utf8(raw) ?? archive_entry_symlink(raw)).map { String(cString: $0) } ?? ""
        }
        return ArchiveEntry(
            path: path, kind: kind,
            size: archive_entry_size_is_set(raw) != 0 ? archive_entry_size(raw) : nil,
            permissions: UInt32(archive_entry_perm(raw)) & 0o7777,
            linkTarget: target,
            modificationTime: archive_entry_mtime_is_set(raw) != 0 ? Int64(archive_entry_mtime(raw)) : nil)
    }

    /// Streams the current entry's data to `body` in chunks of at most ``chunkSize`` bytes.
    /// The buffer is valid only during each call. Never holds more than one chunk in memory.
    ///
    /// - Parameter body: Called once per chunk, in order.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadableArchive``) for corrupt data, or what `body` throws.
    public func readData(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let handle, let entry = currentEntry else {
            throw ArchiveError(
                .unreadableArchive, "no current entry to read data from in \(archiveName)", archive: archiveName)
        }
        while true {
            let count = archive_read_data(handle, chunk.baseAddress, chunk.count)
            if count == 0 { return }
            if count < 0 {
                throw failure(Int32(clamping: count), "cannot read the data of", entry: entry.path)
            }
            try body(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
    }

    /// Reads every remaining header, skipping data: the archive's table of contents.
    ///
    /// - Returns: The entries in archive order.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadableArchive``).
    public func listEntries() throws -> [ArchiveEntry] {
        var entries: [ArchiveEntry] = []
        while let entry = try nextEntry() { entries.append(entry) }
        return entries
    }

    /// Frees the libarchive handle (and closes the file when the reader opened it). Idempotent.
    ///
    /// - Throws: ``ArchiveError`` when libarchive reports a failure while closing.
    public func finish() throws {
        guard let handle else { return }
        let rc = archive_read_close(handle)
        let error = rc < ARCHIVE_OK ? failure(rc, "cannot close", entry: nil) : nil
        release()
        if let error { throw error }
    }
}
