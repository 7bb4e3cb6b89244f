public import AppGroups
public import ExtensionHost
import ExtensionIPC
public import Foundation
public import HostSystem
import UniformTypes

/// `exthost airdrop --json`: `sender` and `receiver` (the two device roots), then the receipt's
/// own keys, in one object.
public struct AirDropReport: Codable, Sendable {
    /// The sending device's root.
    public var sender: String
    /// The receiving device's root.
    public var receiver: String
    /// What the receiver did.
    public var receipt: AirDropReceipt
    /// What the sending app's `UIActivityViewController` completion gets for AirDrop.
    public var senderCompletion: AirDropSenderCompletion

    enum Key: String, CodingKey { case sender, receiver, senderCompletion }

    /// A report; the sender's completion follows from the receipt.
    public init(sender: String, receiver: String, receipt: AirDropReceipt) {
        self.sender = sender
        self.receiver = receiver
        self.receipt = receipt
        self.senderCompletion = AirDropSenderCompletion(receipt)
    }

    /// Writes `sender`, `receiver`, `senderCompletion` and the receipt's keys into one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(sender, forKey: .sender)
        try container.encode(receiver, forKey: .receiver)
        try container.encode(senderCompletion, forKey: .senderCompletion)
        try receipt.encode(to: encoder)
    }

    /// Reads the merged object back: `sender` and `receiver` by their keys, the receipt from the
    /// same object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        sender = try container.decode(String.self, forKey: .sender)
        receiver = try container.decode(String.self, forKey: .receiver)
        receipt = try AirDropReceipt(from: decoder)
        senderCompletion = try container.decode(AirDropSenderCompletion.self, forKey: .senderCompletion)
    }
}

/// The arguments of the sending app's `completionWithItemsHandler` after an AirDrop
/// (`UIActivityViewController.CompletionWithItemsHandler`: activity type, completed, returned
/// items, error). `completed` is true once the receiver took the transfer (accepted, or saved to
/// Files when it requires an app), false when the person declined or the receiver refused it;
/// `activityError` says why a transfer was refused. (On iOS 10.2 `completed` was reported true even
/// for a declined transfer, a bug exthost does not reproduce.)
public struct AirDropSenderCompletion: Codable, Sendable, Hashable {
    /// `com.apple.UIKit.activity.AirDrop`.
    public var activityType: String
    /// Whether the activity completed.
    public var completed: Bool
    /// AirDrop returns no items (nil).
    public var returnedItems: [String]?
    /// The error, for a refused transfer.
    public var activityError: String?

    /// The completion a sender gets for `receipt`.
    public init(_ receipt: AirDropReceipt) {
        activityType = "com.apple.UIKit.activity.AirDrop"
        completed = receipt.outcome == "accepted" || receipt.outcome == "requires-app"
        returnedItems = nil
        activityError = receipt.outcome == "refused" ? "the receiver refused the transfer: \(receipt.reason)" : nil
    }
}

/// What `exthost airdrop` sends: files, one folder, or a link.
public enum AirDropPayload: Sendable, Hashable {
    /// One or several files.
    case files([URL])
    /// A folder and every file under it.
    case folder(URL)
    /// A link.
    case link(String)
}

/// Why an AirDrop transfer could not take place (a refused transfer is a receipt, not an error).
public struct AirDropError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The file to send cannot be read (exit 2).
        case badInput
        /// The receiver could not be started or gave no receipt (exit 1).
        case failed
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The message.
    public var message: String

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// AirDrop between two devices on one machine: the receiving device is a process of its own
/// (`exthost __airdrop-receive`) handed a loopback TCP listener the sender bound before starting
/// it; the two talk over a real TCP connection — the offer as one JSON line, the bytes, then the
/// receipt as one JSON line back.
public enum AirDropTransfer {
    /// Sends `payload` from the device `from` (named `senderName`) to the device `to`: the sender
    /// types each file with its own installed apps' declarations and announces its name, type, size
    /// and SHA-256 (a folder: every regular file under it, by its path in the folder; hidden files
    /// are not sent); the receiver checks and routes the transfer (``AirDropReceiver``) and hands it
    /// to the app, which is launched through `programs`.
    /// - Returns: what was announced, and the report with the receiver's receipt.
    /// - Throws: ``AirDropError`` — `badInput` for zero files, a file that cannot be read, a link
    ///   without a scheme, a choice the receiving device does not offer — before anything is sent.
    public static func send(
        _ payload: AirDropPayload, from: DeviceRoot, senderName: String, to: DeviceRoot, response: AirDropResponse,
        programs: InstalledPrograms
    ) async throws(AirDropError) -> (announcement: AirDropAnnouncement, report: AirDropReport) {
        let (announcement, contents) = try announce(payload, from: from, senderName: senderName)
        // A choice the receiving device does not offer is bad input, told before any byte is sent.
        let preview = AirDropReceiver(root: to, iosVersion: to.iosVersion, response: response)
        if let refusal = preview.choiceRefusal(for: announcement) { throw AirDropError(.badInput, refusal) }
        let header = Array(((try? JSONEncoder.line(announcement)) ?? "").utf8)
        let (answer, status) = try await withReceiver(on: to, response: response, programs: programs) { connection in
            try connection.sendAll(header)
            for data in contents { try data.withUnsafeBytes { try connection.sendAll($0) } }
            try connection.shutdownWriting()
            return readLine(from: connection) ?? Data()
        }
        guard let receipt = try? JSONDecoder().decode(AirDropReceipt.self, from: answer) else {
            throw AirDropError(
                .failed, "the receiver gave no receipt (\(status)): \(String(decoding: answer, as: UTF8.self))")
        }
        return (announcement, AirDropReport(sender: from.url.path, receiver: to.url.path, receipt: receipt))
    }

    /// The announcement of `payload` and the bytes of each file, in order.
    /// - Throws: ``AirDropError`` (`badInput`).
    public static func announce(_ payload: AirDropPayload, from: DeviceRoot, senderName: String) throws(AirDropError)
        -> (AirDropAnnouncement, [Data])
    {
        let registry = InstalledBundles(root: from).registry
        func offer(_ file: URL, named name: String) throws(AirDropError) -> (AirDropOffer, Data) {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw AirDropError(.badInput, "\(file.path): cannot read the file to send")
            }
            let type = registry.preferredType(forFileNamed: file.lastPathComponent)
            return (
                AirDropOffer(
                    sender: senderName, name: name, typeIdentifier: type.rawValue, bytes: data.count,
                    sha256: SHA256.hex(of: data)), data
            )
        }
        switch payload {
        case .link(let link):
            if let refusal = AirDropReceiver.linkRefusal(link) { throw AirDropError(.badInput, refusal) }
            return (AirDropAnnouncement(sender: senderName, files: [], url: link), [])
        case .files(let files):
            guard !files.isEmpty else { throw AirDropError(.badInput, "a transfer of zero files: name a file to send") }
            var offers: [AirDropOffer] = []
            var contents: [Data] = []
            for file in files {
                let (made, data) = try offer(file, named: file.lastPathComponent)
                offers.append(made)
                contents.append(data)
            }
            return (AirDropAnnouncement(sender: senderName, files: offers), contents)
        case .folder(let folder):
            var offers: [AirDropOffer] = []
            var contents: [Data] = []
            for relative in try regularFiles(in: folder) {
                let (made, data) = try offer(folder.appendingPathComponent(relative), named: relative)
                offers.append(made)
                contents.append(data)
            }
            guard !offers.isEmpty else {
                throw AirDropError(.badInput, "\(folder.path): a transfer of zero files (the folder has no files)")
            }
            return (
                AirDropAnnouncement(
                    sender: senderName, files: offers, folder: folder.standardizedFileURL.lastPathComponent),
                contents
            )
        }
    }

    /// The regular files under `folder`, by their paths relative to it, sorted; hidden entries
    /// (a name starting with `.`) are skipped.
    /// - Throws: ``AirDropError`` (`badInput`) for a symbolic link or a special file in it.
    static func regularFiles(in folder: URL) throws(AirDropError) -> [String] {
        var found: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                if (walker?.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    walker?.skipDescendants()
                }
                continue
            }
            let type = walker?.fileAttributes?[.type] as? FileAttributeType
            if type == .typeDirectory { continue }
            guard type == .typeRegular else {
                throw AirDropError(
                    .badInput,
                    "\(folder.appendingPathComponent(path).path): not a regular file (AirDrop sends files and folders)")
            }
            found.append(path)
        }
        return found.sorted()
    }

    /// Starts the receiving device's process on `root` with a loopback listener bound here, runs
    /// `body` with a connection to it, and returns what `body` returned and how the receiver ended.
    /// - Throws: ``AirDropError`` (`failed`) when the receiver cannot start or the connection fails.
    /// `stallLimit` (nil: the receiver's default, 30 s) is how long the receiver waits for a byte
    /// mid-transfer before it refuses the sender.
    public static func withReceiver<R>(
        on root: DeviceRoot, response: AirDropResponse, programs: InstalledPrograms,
        stallLimit: Duration? = nil, _ body: (Socket) async throws -> R
    ) async throws(AirDropError) -> (value: R, status: TerminationStatus) {
        var arguments = ["--root", root.url.path] + response.arguments
        if let stallLimit { arguments += ["--stall-limit", "\(stallLimit.milliseconds / 1000)"] }
        guard let receiver = programs.invocation(.airDropReceiver, arguments) else {
            throw AirDropError(.failed, "the exthost executable is not installed beside \(programs.launcher)")
        }
        do {
            let listener = try LoopbackListener.bind()
            defer { listener.close() }
            let quiet = try FileDescriptor.open("/dev/null", .writeOnly)
            defer { try? quiet.close() }
            var spawn = Spawn(executable: receiver.executable, arguments: receiver.arguments)
            spawn.descriptors = [1: quiet, 2: .standardError, listeningDescriptor: listener.descriptor]
            return try await withChildProcess(spawn) { child in
                let connection = try Socket.connect(loopbackPort: listener.port)
                defer { try? connection.close() }
                let value = try await body(connection)
                _ = await child.exitStatus()
                return value
            }
        } catch {
            throw AirDropError(.failed, "the AirDrop receiver: \(error)")
        }
    }

    /// The descriptor the receiving process finds its listener on.
    public static let listeningDescriptor: CInt = 3

    /// The receiving device's side: accepts one sender on `listener` (within 30 s), receives its
    /// offer and bytes, routes the file, hands it to the app (launched through `programs`; nil:
    /// not launched), and answers with the receipt, which it also returns. A sender that sends
    /// nothing for `stallLimit` mid-transfer is refused, with nothing kept.
    /// - Throws: ``AirDropError`` (`failed`) when no sender connects or the device cannot be written.
    public static func receive(
        on listener: LoopbackListener, root: DeviceRoot, response: AirDropResponse,
        programs: InstalledPrograms?, stallLimit: Duration = .seconds(30)
    ) async throws(AirDropError) -> AirDropReceipt {
        var receiver = AirDropReceiver(root: root, iosVersion: root.iosVersion, response: response)
        receiver.stallLimit = stallLimit
        let accepted = await withBlockingWait { try? listener.accept(timeout: .seconds(30)) }
        listener.close()
        guard let connection = accepted ?? nil else {
            throw AirDropError(.failed, "no sender connected within 30 s")
        }
        defer { try? connection.close() }
        var receipt: AirDropReceipt
        if let (header, rest) = readHeader(from: connection, stallLimit: stallLimit),
            let announcement = try? JSONDecoder().decode(AirDropAnnouncement.self, from: header)
        {
            // The body's first bytes may have come in the header's last block.
            var pending = rest[...]
            do {
                receipt = try receiver.receive(announcement) { buffer in
                    if !pending.isEmpty {
                        let count = min(buffer.count, pending.count)
                        buffer.copyBytes(from: pending.prefix(count))
                        pending = pending.dropFirst(count)
                        return count
                    }
                    // A sender that stops mid-transfer is refused after the stall limit.
                    guard try !connection.descriptor.poll(for: .readable, timeout: stallLimit).isEmpty else {
                        throw AirDropReceiver.Stalled()
                    }
                    return try connection.receive(into: buffer).byteCount
                }
            } catch {
                throw AirDropError(.failed, "receiving into \(root.url.path): \(error)")
            }
        } else {
            receipt = .refused(
                "the sender's announcement is not a readable offer (or did not end within the stall limit, "
                    + "\(stallLimit.milliseconds / 1000) s)",
                flow: receiver.fileFlow)
        }
        // The app the files (or the link) went to receives their URLs in one launch, as sharingd
        // opens them: the Inbox copies, openInPlace false, no source application (AirDrop is
        // another team's).
        if let programs, let app = receipt.app, !receipt.appURLs.isEmpty,
            let report = try? await AppLaunchServer.deliver(
                receipt.appURLs.map { OpenURLContextDescription(url: $0, openInPlace: false) }, to: app, on: root,
                launcher: programs.launcher, options: AppLaunchOptions(programs: programs))
        {
            receipt.delivery?.record(report)
        }
        if let line = try? JSONEncoder.line(receipt) { try? connection.sendAll(Array(line.utf8)) }
        return receipt
    }

    /// The longest announcement or receipt line read (10 000 files of long names fit).
    public static let lineLimit = 16 << 20

    /// One line (up to `limit` bytes, without its newline) read from `socket`; nil at the end of
    /// the stream before any byte, or for a longer line. What came after the newline is dropped.
    public static func readLine(from socket: Socket, limit: Int = lineLimit) -> Data? {
        readHeader(from: socket, limit: limit)?.line
    }

    /// One line (up to `limit` bytes, without its newline) read from `socket` in blocks, and the
    /// bytes that came after it in the last block (the start of the body); nil at the end of the
    /// stream before a newline, or for a longer line.
    /// With `stallLimit`, a sender that sends nothing for that long also gives nil.
    public static func readHeader(from socket: Socket, limit: Int = lineLimit, stallLimit: Duration? = nil) -> (
        line: Data, rest: [UInt8]
    )? {
        var line: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while line.count <= limit {
            if let stallLimit, (try? socket.descriptor.poll(for: .readable, timeout: stallLimit))?.isEmpty != false {
                return nil
            }
            let count = block.withUnsafeMutableBytes { (try? socket.receive(into: $0))?.byteCount ?? 0 }
            if count == 0 { return line.isEmpty ? nil : (Data(line), []) }
            if let newline = block[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                line += block[0..<newline]
                return line.count <= limit ? (Data(line), Array(block[(newline + 1)..<count])) : nil
            }
            line += block[0..<count]
        }
        return nil
    }
}

extension JSONEncoder {
    /// `value` as one line of JSON and a newline (the wire of an AirDrop transfer).
    fileprivate static func line(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self) + "\n"
    }
}
