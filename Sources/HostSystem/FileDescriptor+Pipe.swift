#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// A new pipe; both ends are close-on-exec.
    ///
    /// The corresponding C function is `pipe2(O_CLOEXEC)`.
    /// - Returns: `(readEnd, writeEnd)`.
    /// - Throws: ``Errno`` (`.tooManyOpenFiles`).
    public static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var fds: [CInt] = [-1, -1]
        try nothingOrErrno { system_eh_pipe_cloexec(&fds) }.get()
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Reads until end of file, keeping at most `limit` bytes: the rest is read and dropped (so a
    /// writer such as a child's stdout never blocks on a full pipe) and counted.
    ///
    /// Blocks the calling thread; see ``OutputCapture`` for a background reader.
    /// - Throws: ``Errno``.
    public func readAll(keepingAtMost limit: Int) throws(Errno) -> CapturedOutput {
        var output = CapturedOutput(bytes: [], droppedByteCount: 0)
        try readToEnd { chunk in
            let kept = min(max(0, limit - output.bytes.count), chunk.count)
            output.bytes.append(contentsOf: chunk.prefix(kept))
            output.droppedByteCount += chunk.count - kept
        }
        return output
    }
}

/// Bytes read from a stream with a cap (``FileDescriptor/readAll(keepingAtMost:)``).
public struct CapturedOutput: Hashable, Sendable {
    /// The first bytes, up to the cap.
    public var bytes: [UInt8]
    /// How many bytes came after the cap and were dropped.
    public var droppedByteCount: Int

    /// The kept bytes as UTF-8 (invalid sequences repaired), with `[… N bytes dropped]` appended
    /// when the cap was reached.
    public var text: String {
        let body = String(decoding: bytes, as: UTF8.self)
        return droppedByteCount == 0 ? body : body + "[… \(droppedByteCount) bytes dropped]"
    }
}
