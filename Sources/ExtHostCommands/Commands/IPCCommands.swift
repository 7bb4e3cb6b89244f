import ExtensionIPC
import Foundation

/// `exthost ipc …`: the host ↔ extension wire, for people debugging a captured stream.
enum IPCCommands {
    static var all: [CommandSpec] { [decode] }

    /// The largest capture `decode` reads (a capture is a debugging artefact, not a payload).
    static let maximumCaptureSize = 64 << 20

    static let decode = CommandSpec(
        ["ipc", "decode"], summary: "Decode a captured host ↔ extension byte stream, frame by frame.",
        arguments: "FILE", positionalCount: 1...1,
        options: [.flag(.json, "Machine output.")],
        discussion: """
            FILE holds the bytes one side wrote to the socket (see ExtensionIPC's WireFormat: a 16-byte header
            "EXHI", version, kind, descriptor count, payload length; JSON messages or data chunks). Descriptors
            cannot be captured in a file, so a frame that must carry one (fileReply) is reported as a protocol
            violation. Exit 0 when every byte decodes into frames, 2 at the first malformed, oversized or
            truncated frame, with its byte offset.
            """,
        examples: [
            "printf 'EXHI' > capture.bin && exthost ipc decode capture.bin  # exit 2: a truncated frame, at its byte offset"
        ]
    ) { parsed, context in
        let path = parsed.positionals[0]
        let bytes = try readCapture(path)
        let frames: [(offset: Int, frame: Frame)]
        do throws(CaptureReport.DecodingError) {
            frames = try CaptureReport.frames(in: bytes)
        } catch {
            throw CommandError.input(
                "\(path): byte \(error.byteOffset) (frame \(error.frameNumber)): \(error.error.code): \(error.error.message)"
            )
        }
        if frames.isEmpty { throw CommandError.input("\(path): empty: no frame") }
        if parsed[.json] {
            try context.printJSON(
                encoding: CaptureReport(file: path, frames: frames.map { .init($0.frame, at: $0.offset) }))
        } else {
            for (index, entry) in frames.enumerated() {
                context.print("#\(index + 1) @\(entry.offset) \(line(entry.frame))")
            }
            context.print("\(frames.count) frame\(frames.count == 1 ? "" : "s"), \(bytes.count) bytes")
        }
        return .success
    }

    private static func readCapture(_ path: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: path)
        let size: Int
        do {
            let values = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            guard values.isRegularFile == true else { throw CommandError.input("\(path): not a regular file") }
            size = values.fileSize ?? 0
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError.input("\(path): cannot read: \(error.localizedDescription)")
        }
        guard size <= maximumCaptureSize else {
            throw CommandError.input("\(path): \(size) bytes; a capture is read only up to \(maximumCaptureSize) bytes")
        }
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw CommandError.input("\(path): cannot read: \(error.localizedDescription)")
        }
    }

    private static func line(_ frame: Frame) -> String {
        switch frame.content {
        case .message(let message):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = (try? encoder.encode(message)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return "message \(message.typeName) \(body)"
        case .data(let chunk):
            return "data request \(chunk.requestID) offset \(chunk.offset), \(chunk.bytes.count) bytes"
        }
    }
}
