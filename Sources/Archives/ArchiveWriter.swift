internal import CArchive
public import FoundationEssentials
import HostSystem

/// Writes a tar, tar.gz or zip archive to a file, a descriptor, or bounded memory.
///
/// ```swift
/// let writer = try ArchiveWriter(url: out)          // format from the name: .tar, .tar.gz/.tgz, .zip
/// try writer.addDirectory(at: folder, as: "Folder") // sorted, modes, mtimes, symlinks as symlinks
/// try writer.finish()                               // the file appears only now (temp + rename)
/// ```
///
/// File data is streamed in 64 KiB chunks; no file is ever held in memory whole. Entries record
/// type, permission bits, size and whole-second modification time, but no owner, group or
/// inode numbers, so the same tree gives the same archive. Hard links inside a tree are stored
/// as independent files.
///
/// The writer writes what it is told: a path such as `../x` is stored as given (tests build
/// hostile archives this way). ``ArchiveExtractor`` is where paths are checked.
///
/// After a failure that may have left a partial entry in the output, the writer refuses further
/// work and ``finish()`` throws; for a file output the temporary file is removed.
///
/// An `ArchiveWriter` owns one libarchive write handle. It is deliberately not `Sendable`, for
/// the reasons given on ``ArchiveReader``. ``finish()`` frees the handle; `deinit` is a backstop
/// that abandons the output (no end-of-archive marker, temporary file removed).
public final class ArchiveWriter {
    /// The size of the chunks file data is streamed in: 64 KiB.
    public static let chunkSize = 64 * 1024

    /// The format being written.
    public let format: ArchiveFormat
    /// The output's path, `fd N`, or `<memory>`; used in error messages.
    public let archiveName: String

    private enum Output {
        /// A temporary file in `directory`, renamed to `finalName` by `finish()`.
        case file(directory: FileDescriptor, file: FileDescriptor, temporaryName: String, finalName: String)
        case descriptor
        case memory(MemorySink)
        case done
    }

    private var handle: OpaquePointer?
    private var output: Output
    private var poisoned: ArchiveError?
    private let chunk: UnsafeMutableRawBufferPointer

    /// Creates the archive at `url`, writing into a temporary file next to it that ``finish()``
    /// renames into place (replacing an existing file).
    ///
    /// - Parameters:
    ///   - url: A file URL; its parent directory must exist.
    ///   - format: The format; nil picks it from the file name (``ArchiveFormat/init(fileName:)``).
    /// - Throws: ``ArchiveError`` with ``ArchiveError/Code/unsupportedFormat`` when the name names no
    ///   format, ``ArchiveError/Code/io`` when the temporary file cannot be created.
    public convenience init(url: URL, format: ArchiveFormat? = nil) throws {
        let path = url.path(percentEncoded: false)
        guard let format = format ?? ArchiveFormat(fileName: url.lastPathComponent) else {
            throw ArchiveError(
                .unsupportedFormat, "cannot tell the archive format of \(path): use .tar, .tar.gz, .tgz or .zip",
                archive: path)
        }
        let parentPath = url.deletingLastPathComponent().path(percentEncoded: false)
        let finalName = url.lastPathComponent
        let temporaryName = ".\(finalName).tmp-\(randomSuffix())"
        let directory: FileDescriptor
        let file: FileDescriptor
        do {
            directory = try FileDescriptor.open(parentPath.isEmpty ? "." : parentPath, [.readOnly, .directory])
        } catch {
            throw ArchiveError.io(error, "openat", "cannot open the directory of \(path)", archive: path)
        }
        do {
            file = try FileDescriptor.open(
                temporaryName, relativeTo: directory, [.writeOnly, .create, .exclusiveCreate, .noFollow],
                permissions: 0o600)
        } catch {
            try? directory.close()
            throw ArchiveError.io(error, "openat", "cannot create a temporary file for \(path)", archive: path)
        }
        let output = Output.file(directory: directory, file: file, temporaryName: temporaryName, finalName: finalName)
        try self.init(format: format, name: path, output: output, descriptor: file.rawValue)
    }

    /// Writes the archive to an open descriptor (a file, pipe or socket). The caller keeps
    /// ownership of `fileDescriptor`; ``finish()`` does not close it.
    ///
    /// - Parameters:
    ///   - fileDescriptor: A writable descriptor.
    ///   - format: The format to write.
    ///   - name: How error messages name the output; `fd N` when nil.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``).
    public convenience init(fileDescriptor: Int32, format: ArchiveFormat, name: String? = nil) throws {
        try self.init(
            format: format, name: name ?? "fd \(fileDescriptor)", output: .descriptor, descriptor: fileDescriptor)
    }

    private init(format: ArchiveFormat, name: String, output: Output, descriptor: Int32?) throws {
        self.format = format
        self.archiveName = name
        self.output = output
        self.chunk = .allocate(byteCount: Self.chunkSize, alignment: 16)
        // Every stored property is initialised here, so a throw below still runs deinit (the backstop).
        try withUTF8CharacterLocale { try configure(format: format, output: output, descriptor: descriptor) }
    }

    private func configure(format: ArchiveFormat, output: Output, descriptor: Int32?) throws {
        guard let handle = archive_write_new() else {
            throw ArchiveError(
                .writeFailed, "cannot allocate a libarchive writer for \(archiveName)", archive: archiveName)
        }
        self.handle = handle
        switch format {
        case .tar:
            try check(archive_write_set_format_pax_restricted(handle), "cannot select tar for")
        case .tarGzip:
            try check(archive_write_set_format_pax_restricted(handle), "cannot select tar for")
            try check(archive_write_add_filter_gzip(handle), "cannot add gzip to")
            try check(archive_write_set_filter_option(handle, "gzip", "timestamp", nil), "cannot configure gzip for")
        case .zip:
            try check(archive_write_set_format_zip(handle), "cannot select zip for")
            try check(
                archive_write_set_format_option(handle, "zip", "compression", "deflate"), "cannot configure zip for")
        }
        if case .memory(let sink) = output {
            // No padding to 10 KiB blocks: the same bytes as a regular-file output.
            try check(archive_write_set_bytes_in_last_block(handle, 1), "cannot configure blocking for")
            let client = Unmanaged.passUnretained(sink).toOpaque()
            try check(archive_write_open2(handle, client, nil, memorySinkWrite, nil, nil), "cannot open")
        } else if let descriptor {
            try check(archive_write_open_fd(handle, descriptor), "cannot open")
        }
    }

    deinit {
        if let handle {
            archive_write_fail(handle)  // abandon: no end-of-archive marker
            archive_write_free(handle)
        }
        discardOutput()
        chunk.deallocate()
    }

    /// Closes and removes a temporary output file; leaves other outputs alone.
    private func discardOutput() {
        if case .file(let directory, let file, let temporaryName, _) = output {
            try? file.close()
            try? directory.removeFile(temporaryName)
            try? directory.close()
        }
        output = .done
    }

    // MARK: - In memory

    /// Runs `body` with a writer whose output is collected in memory, and returns the archive.
    ///
    /// - Parameters:
    ///   - format: The format to write.
    ///   - maximumSize: The most bytes the archive may take; writing more fails.
    ///   - body: Adds the entries. Do not call ``finish()`` in it.
    /// - Returns: The complete archive.
    /// - Throws: ``ArchiveError`` with ``ArchiveError/Code/outputTooLarge`` past `maximumSize`, or
    ///   any error from `body`.
    public static func withMemoryOutput(
        format: ArchiveFormat, maximumSize: Int, _ body: (ArchiveWriter) throws -> Void
    ) throws -> Data {
        let sink = MemorySink(limit: maximumSize)
        let writer = try ArchiveWriter(format: format, name: "<memory>", output: .memory(sink), descriptor: nil)
        do {
            try body(writer)
            try writer.finish()
        } catch let error as ArchiveError where sink.overflowed {
            throw ArchiveError(
                .outputTooLarge, "the \(format) archive grew past its limit of \(maximumSize) bytes",
                cause: error, archive: "<memory>")
        }
        return sink.data
    }

    // MARK: - libarchive status

    /// Turns a libarchive status other than `ARCHIVE_OK` into an ``ArchiveError`` with
    /// `archive_error_string`.
    private func check(_ rc: Int32, _ what: String, entry: String? = nil) throws {
        if rc == ARCHIVE_OK { return }
        throw failure(rc, what, entry: entry)
    }

    private func failure(_ rc: Int32, _ what: String, entry: String?) -> ArchiveError {
        let text = archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
        let cause = LibarchiveFailure(status: rc, errorNumber: archive_errno(handle), text: text)
        let place = entry.map { " (entry '\($0)')" } ?? ""
        return ArchiveError(
            .writeFailed, "\(what) \(archiveName)\(place): \(text)", cause: cause, archive: archiveName, entry: entry)
    }

    private func usableHandle() throws -> OpaquePointer {
        if let poisoned { throw poisoned }
        guard let handle else {
            throw ArchiveError(.writeFailed, "the writer for \(archiveName) is already finished", archive: archiveName)
        }
        return handle
    }

    /// Runs `body`, which may leave a partial entry behind; any error poisons the writer.
    private func poisoningOnFailure(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ArchiveError {
            poisoned = error
            throw error
        }
    }

    // MARK: - Entries

    /// Writes the header for `entry` (size 0 unless it is a file with a size).
    func writeHeader(_ entry: ArchiveEntry) throws {
        let handle = try usableHandle()
        guard let raw = archive_entry_new() else {
            throw ArchiveError(.writeFailed, "cannot allocate an entry for \(archiveName)", archive: archiveName)
        }
        defer { archive_entry_free(raw) }
        // UTF-8 setters: the process runs in the C locale, where libarchive cannot convert
        // non-ASCII names from the "current locale" (it fails with "Can't translate pathname").
        archive_entry_set_pathname_utf8(raw, entry.path)
        archive_entry_set_filetype(raw, entry.kind.fileType)
        archive_entry_set_perm(raw, entry.permissions & 0o7777)
        archive_entry_set_size(raw, entry.kind == .file ? (entry.size ?? 0) : 0)
        archive_entry_set_mtime(raw, Int(entry.modificationTime ?? Self.now()), 0)
        switch entry.kind {
        case .symbolicLink: archive_entry_set_symlink_utf8(raw, entry.linkTarget ?? "")
        case .hardLink: archive_entry_set_hardlink_utf8(raw, entry.linkTarget ?? "")
        default: break
        }
        try poisoningOnFailure {
            try withUTF8CharacterLocale {
                try check(archive_write_header(handle, raw), "cannot write the header to", entry: entry.path)
            }
        }
    }

    /// Writes all of `bytes` as data of the current entry, looping on partial writes.
    private func writeData(_ bytes: UnsafeRawBufferPointer, entry: String) throws {
        let handle = try usableHandle()
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let written = archive_write_data(handle, base + offset, bytes.count - offset)
            if written <= 0 {
                let error = failure(
                    written < 0 ? Int32(clamping: written) : ARCHIVE_FATAL, "cannot write data to", entry: entry)
                poisoned = error
                throw error
            }
            offset += written
        }
    }

    private static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// Adds a header-only entry: a directory, a symbolic or hard link, a device node or a FIFO
    /// (or an empty file). Use ``addData(_:as:permissions:modificationTime:)`` for file contents.
    ///
    /// - Parameter entry: The entry; a nil ``ArchiveEntry/modificationTime`` means now.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``), for example for a device
    ///   node in zip.
    public func addEntry(_ entry: ArchiveEntry) throws {
        var header = entry
        if header.kind == .file { header.size = 0 }
        try writeHeader(header)
    }

    /// Adds a file whose contents are `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - path: The path to store.
    ///   - permissions: Permission bits.
    ///   - modificationTime: Seconds since 1970; nil means now.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``, ``ArchiveError/Code/outputTooLarge``).
    public func addData(
        _ bytes: some Collection<UInt8>, as path: String, permissions: UInt32 = 0o644, modificationTime: Int64? = nil
    ) throws {
        try writeHeader(
            ArchiveEntry(
                path: path, kind: .file, size: Int64(bytes.count), permissions: permissions,
                modificationTime: modificationTime))
        let done: Void? = try bytes.withContiguousStorageIfAvailable { buffer in
            try writeData(UnsafeRawBufferPointer(buffer), entry: path)
        }
        if done == nil {
            try Array(bytes).withUnsafeBytes { try writeData($0, entry: path) }
        }
    }

    /// Adds the regular file at `url` (following a symbolic link there), streaming its data.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - path: The path to store.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/io``, ``ArchiveError/Code/unsupportedEntryType``,
    ///   ``ArchiveError/Code/writeFailed``).
    public func addFile(at url: URL, as path: String) throws {
        let source = url.path(percentEncoded: false)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(source, .readOnly)
        } catch {
            throw ArchiveError.io(
                error, "openat", "cannot open \(source) to add to \(archiveName)", archive: archiveName, entry: path)
        }
        defer { try? file.close() }
        try addOpenFile(file, source: source, as: path)
    }

    /// Adds a file from an open descriptor, streaming from its current offset to its end as
    /// `fstat` reports it. The caller keeps ownership of `fileDescriptor`.
    ///
    /// - Parameters:
    ///   - fileDescriptor: A readable regular file.
    ///   - path: The path to store.
    ///   - permissions: Permission bits; nil takes the file's.
    ///   - modificationTime: Seconds since 1970; nil takes the file's.
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/io``, ``ArchiveError/Code/writeFailed``).
    public func addFile(
        fileDescriptor: Int32, as path: String, permissions: UInt32? = nil, modificationTime: Int64? = nil
    ) throws {
        try addOpenFile(
            FileDescriptor(rawValue: fileDescriptor), source: "fd \(fileDescriptor)", as: path,
            permissions: permissions, modificationTime: modificationTime)
    }

    /// Adds an open regular file: header from `fstat`, then its data in chunks.
    func addOpenFile(
        _ file: FileDescriptor, source: String, as path: String, permissions: UInt32? = nil,
        modificationTime: Int64? = nil
    ) throws {
        let status: FileStatus
        do {
            status = try file.status()
        } catch {
            throw ArchiveError.io(error, "fstat", "cannot stat \(source)", archive: archiveName, entry: path)
        }
        guard status.kind == .regular else {
            throw ArchiveError(
                .unsupportedEntryType, "cannot add \(source) to \(archiveName): not a regular file",
                archive: archiveName, entry: path)
        }
        try writeHeader(
            ArchiveEntry(
                path: path, kind: .file, size: status.size, permissions: permissions ?? status.permissions,
                modificationTime: modificationTime ?? status.modificationTimeSeconds))
        try poisoningOnFailure {
            var remaining = status.size
            while remaining > 0 {
                let want = Int(min(Int64(chunk.count), remaining))
                let count: Int
                do throws(Errno) {
                    count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<want]))
                } catch {
                    throw ArchiveError.io(error, "read", "cannot read \(source)", archive: archiveName, entry: path)
                }
                guard count > 0 else {
                    throw ArchiveError(
                        .io, "\(source) shrank while being added to \(archiveName)", archive: archiveName, entry: path)
                }
                try writeData(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), entry: path)
                remaining -= Int64(count)
            }
        }
    }

    // MARK: - Finishing

    /// Writes the end of the archive, frees the handle, and for a file output renames the
    /// temporary file into place (mode 0644). Idempotent once it has succeeded.
    ///
    /// - Throws: ``ArchiveError``: the first failure that poisoned the writer, or
    ///   ``ArchiveError/Code/writeFailed``/``ArchiveError/Code/io`` from closing and renaming.
    public func finish() throws {
        guard let handle else {
            if let poisoned { throw poisoned }
            return
        }
        if let poisoned {
            archive_write_fail(handle)
            archive_write_free(handle)
            self.handle = nil
            discardOutput()
            throw poisoned
        }
        let rc = withUTF8CharacterLocale { archive_write_close(handle) }
        let closeError = rc == ARCHIVE_OK ? nil : failure(rc, "cannot finish", entry: nil)
        archive_write_free(handle)
        self.handle = nil
        if let closeError {
            poisoned = closeError
            discardOutput()
            throw closeError
        }
        if case .file(let directory, let file, let temporaryName, let finalName) = output {
            // The C function an error below comes from, for the message.
            var function = "fchmod"
            do {
                try file.setPermissions(0o644)
                function = "renameat"
                try directory.rename(temporaryName, to: finalName)
            } catch {
                let wrapped = ArchiveError.io(
                    error, function, "cannot move the finished archive into place", archive: archiveName)
                poisoned = wrapped
                discardOutput()
                throw wrapped
            }
            try? file.close()
            try? directory.close()
            output = .done
        }
    }
}

// MARK: - Memory output

/// Collects an in-memory archive up to a limit (the client data of libarchive's write callback).
final class MemorySink {
    let limit: Int
    var data = Data()
    var overflowed = false

    init(limit: Int) { self.limit = limit }
}

/// libarchive's `archive_write_callback` for ``MemorySink``: appends, or fails past the limit.
private let memorySinkWrite: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int =
    {
        _, client, buffer, length in
        guard let client, let buffer else { return -1 }
        let sink = Unmanaged<MemorySink>.fromOpaque(client).takeUnretainedValue()
        guard sink.data.count + length <= sink.limit else {
            sink.overflowed = true
            return -1
        }
        sink.data.append(buffer.assumingMemoryBound(to: UInt8.self), count: length)
        return length
    }
