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

    enum Key: String, CodingKey { case sender, receiver }

    /// A report.
    public init(sender: String, receiver: String, receipt: AirDropReceipt) {
        self.sender = sender
        self.receiver = receiver
        self.receipt = receipt
    }

    /// Writes `sender`, `receiver` and the receipt's keys into one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(sender, forKey: .sender)
        try container.encode(receiver, forKey: .receiver)
        try receipt.encode(to: encoder)
    }

    /// Reads the merged object back: `sender` and `receiver` by their keys, the receipt from the
    /// same object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        sender = try container.decode(String.self, forKey: .sender)
        receiver = try container.decode(String.self, forKey: .receiver)
        receipt = try AirDropReceipt(from: decoder)
    }
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
    /// Sends `file` from the device `from` (named `senderName` in the offer) to the device `to`:
    /// the sender types it with its own installed apps' declarations and announces its name, type,
    /// size and SHA-256; the receiver checks and routes it (``AirDropReceiver``) and hands it to the
    /// app, which is launched through `programs`.
    /// - Returns: what was announced, and the report with the receiver's receipt.
    /// - Throws: ``AirDropError``.
    public static func send(
        _ file: URL, from: DeviceRoot, senderName: String, to: DeviceRoot, accept: Bool, chosenApp: String?,
        programs: InstalledPrograms
    ) async throws(AirDropError) -> (offer: AirDropOffer, report: AirDropReport) {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw AirDropError(.badInput, "\(file.path): cannot read the file to send")
        }
        let type = InstalledBundles(root: from).registry.preferredType(forFileNamed: file.path)
        let offer = AirDropOffer(
            sender: senderName, name: file.lastPathComponent, typeIdentifier: type.rawValue, bytes: data.count,
            sha256: SHA256.hex(of: data))
        let header = Array(((try? JSONEncoder.line(offer)) ?? "").utf8)
        let (answer, status) = try await withReceiver(
            on: to, accept: accept, chosenApp: chosenApp, programs: programs
        ) { connection in
            try connection.sendAll(header)
            try data.withUnsafeBytes { try connection.sendAll($0) }
            try connection.shutdownWriting()
            return readLine(from: connection) ?? Data()
        }
        guard let receipt = try? JSONDecoder().decode(AirDropReceipt.self, from: answer) else {
            throw AirDropError(
                .failed, "the receiver gave no receipt (\(status)): \(String(decoding: answer, as: UTF8.self))")
        }
        return (offer, AirDropReport(sender: from.url.path, receiver: to.url.path, receipt: receipt))
    }

    /// Starts the receiving device's process on `root` with a loopback listener bound here, runs
    /// `body` with a connection to it, and returns what `body` returned and how the receiver ended.
    /// - Throws: ``AirDropError`` (`failed`) when the receiver cannot start or the connection fails.
    /// `stallLimit` (nil: the receiver's default, 30 s) is how long the receiver waits for a byte
    /// mid-transfer before it refuses the sender.
    public static func withReceiver<R>(
        on root: DeviceRoot, accept: Bool, chosenApp: String?, programs: InstalledPrograms,
        stallLimit: Duration? = nil, _ body: (Socket) async throws -> R
    ) async throws(AirDropError) -> (value: R, status: TerminationStatus) {
        var arguments = ["--root", root.url.path]
        if accept { arguments.append("--accept") }
        if let chosenApp { arguments += ["--with", chosenApp] }
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
        on listener: LoopbackListener, root: DeviceRoot, accept: Bool, chosenApp: String?,
        programs: InstalledPrograms?, stallLimit: Duration = .seconds(30)
    ) async throws(AirDropError) -> AirDropReceipt {
        var receiver = AirDropReceiver(
            root: root, iosVersion: root.deviceInfo?.iosVersion ?? DeviceSet.defaultIOSVersion, accept: accept,
            chosenApp: chosenApp)
        receiver.stallLimit = stallLimit
        let accepted = await withBlockingWait { try? listener.accept(timeout: .seconds(30)) }
        listener.close()
        guard let connection = accepted ?? nil else {
            throw AirDropError(.failed, "no sender connected within 30 s")
        }
        defer { try? connection.close() }
        var receipt: AirDropReceipt
        if let header = readLine(from: connection),
            let offer = try? JSONDecoder().decode(AirDropOffer.self, from: header)
        {
            do {
                receipt = try receiver.receive(offer) { buffer in
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
                "the sender's announcement is not a readable offer",
                flow: receiver.savesToDownloads ? "downloads" : "open-with")
        }
        // The app the file went to receives its URL, as sharingd opens it: the Inbox copy, openInPlace
        // false, no source application (AirDrop is another team's).
        if let programs, let app = receipt.app, let delivery = receipt.delivery,
            let report = try? await AppLaunchServer.deliver(
                [OpenURLContextDescription(url: delivery.url, openInPlace: delivery.openInPlace)], to: app, on: root,
                launcher: programs.launcher, options: AppLaunchOptions(programs: programs))
        {
            receipt.delivery?.record(report)
        }
        if let line = try? JSONEncoder.line(receipt) { try? connection.sendAll(Array(line.utf8)) }
        return receipt
    }

    /// One line (up to 64 KiB, without its newline) read from `socket`; nil at the end of the
    /// stream before any byte.
    public static func readLine(from socket: Socket) -> Data? {
        var line = Data()
        var byte: UInt8 = 0
        while line.count < 1 << 16 {
            let count = withUnsafeMutableBytes(of: &byte) { (try? socket.receive(into: $0))?.byteCount ?? 0 }
            if count == 0 { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
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
