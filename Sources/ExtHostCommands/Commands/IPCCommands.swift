import ExtensionIPC
import Foundation

/// `exthost ipc …`: the host ↔ extension wire, for people debugging a captured stream.
enum IPCCommands {
    static var all: [CommandSpec] { [decode] }

    /// `exthost ipc decode --json`.
    struct DecodeReport: Codable, Sendable, Equatable {
        /// One frame; a message frame has `type`, a data frame `requestID`, `chunkOffset` and `bytes`
        /// (the others are null).
        struct Frame: Codable, Sendable, Equatable {
            /// The frame's byte offset in the capture.
            var offset: Int
            /// `message` or `data`.
            var kind: String
            /// The message's type (`hello`, `loadRequest`, …).
            var type: String?
            /// The data chunk's request, as a decimal string (a 64-bit number).
            var requestID: String?
            /// The chunk's offset in the representation, as a decimal string (a 64-bit number).
            var chunkOffset: String?
            /// The chunk's length.
            var bytes: Int?
        }
        var file: String
        var frames: [Frame]
    }

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
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var frames: [(offset: Int, frame: Frame)] = []
        do throws(IPCError) {
            while true {
                let offset = decoder.consumedByteCount
                guard let frame = try decoder.nextFrame() else { break }
                frames.append((offset, frame))
            }
            try decoder.finish()
        } catch {
            throw CommandError.input(
                "\(path): byte \(decoder.consumedByteCount) (frame \(frames.count + 1)): \(error.code): \(error.message)"
            )
        }
        if frames.isEmpty { throw CommandError.input("\(path): empty: no frame") }
        if parsed[.json] {
            try context.printJSON(encoding: DecodeReport(file: path, frames: frames.map(report)))
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

    private static func report(_ entry: (offset: Int, frame: Frame)) -> DecodeReport.Frame {
        switch entry.frame.content {
        case .message(let message):
            return DecodeReport.Frame(offset: entry.offset, kind: "message", type: message.typeName)
        case .data(let chunk):
            return DecodeReport.Frame(
                offset: entry.offset, kind: "data", requestID: String(chunk.requestID),
                chunkOffset: String(chunk.offset), bytes: chunk.bytes.count)
        }
    }
}
