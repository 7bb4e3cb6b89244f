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
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result: Result<Int, Errno> = chunk.withUnsafeMutableBytes { raw in
                do throws(Errno) { return .success(try read(into: raw)) } catch { return .failure(error) }
            }
            let count = try result.get()
            if count == 0 { return output }
            let room = max(0, limit - output.bytes.count)
            output.bytes.append(contentsOf: chunk[0..<min(room, count)])
            output.droppedByteCount += count - min(room, count)
        }
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
