import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import LaunchServices
import UniformTypes

#if canImport(Glibc)
import Glibc
#endif

/// `exthost airdrop`: one device sends a file to another over a real loopback TCP connection; the
/// receiver is a separate process listening on 127.0.0.1 that checks the transfer and routes it.
enum AirDropCommand {
    static let receiveName = "__airdrop-receive"

    static var all: [CommandSpec] { [airdrop, receive] }

    /// `exthost airdrop --json`: `sender` and `receiver` (the two device roots), then the
    /// receipt's own keys, in one object.
    struct Report: Codable, Sendable {
        var sender: String
        var receiver: String
        var receipt: AirDropReceipt

        enum Key: String, CodingKey { case sender, receiver }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(sender, forKey: .sender)
            try container.encode(receiver, forKey: .receiver)
            try receipt.encode(to: encoder)
        }
    }

    static let airdrop = CommandSpec(
        ["airdrop"],
        summary: "AirDrop a file from one device to another over loopback (exit 0, 1, 2, 3).",
        arguments: "FILE", positionalCount: 1...1,
        options: [
            .value(
                .from, "DEVICE",
                "The sending device (a name from 'exthost device list', or a root folder; default: the default device)."
            ),
            .value(.to, "DEVICE", "The receiving device (a name, or a root folder)."),
            .flag(.accept, "The receiver accepts (and opens with the first app, or --with)."),
            .flag(.decline, "The receiver declines (the default)."),
            .value(.with, "BUNDLE-ID", "The app chosen on the receiver."),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            The sender types the file with its own installed apps' declarations and announces its name, type
            identifier, size and SHA-256; the receiver (exthost __airdrop-receive, a separate process listening
            on 127.0.0.1) refuses a name that is not a plain file name (empty, '.', a folder, a NUL), a size
            beyond its free space, more or fewer bytes than announced, a digest that does not match, or a sender
            that sends nothing for 30 s mid-transfer, leaving nothing behind; the sender reports the refusal. Two
            transfers of one name never replace each other (the second is numbered -1). It types the file by the
            sender's identifier when one of its apps declares it, else by the filename extension. iOS 17+ (the
            receiver's device.plist; a root folder without one is iOS 18): saved to Downloads, then Move to App… into the app's Documents/Inbox. Before:
            Open with the app, the file moved into its Inbox. No app: the file requires an app (kept in Downloads
            only when accepted, as Save to Files). Exit: 0 accepted, 1 refused, 2 bad input, 3 declined or
            requires an app.
            """,
        examples: [
            "exthost init Demo && exthost device create Bob && exthost airdrop Demo/items/photo.png --to Bob --accept  "
                + "# exit 3: no app on Bob opens a PNG, so it is saved to Downloads"
        ]
    ) { parsed, context in
        guard let toName = parsed[.to] else {
            throw CommandError.usage(
                "exthost airdrop needs --to DEVICE, the receiving device (make one with 'exthost device create NAME')")
        }
        let fromName = parsed[.from] ?? DeviceSet.defaultName
        let from = try device(fromName, context)
        let to = try device(toName, context)
        let given = parsed.positionals.first ?? ""
        let file = context.resolve(given)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CommandError.input("\(given): cannot read the file to send (\(file.path))")
        }
        let type = InstalledBundles(root: from).registry.preferredType(forFilenameExtension: file.pathExtension)
        let offer = AirDropOffer(
            sender: deviceName(from, fallback: fromName), name: file.lastPathComponent, typeIdentifier: type.rawValue,
            bytes: data.count, sha256: SHA256.hex(of: data))
        var arguments = [receiveName, "--root", to.url.path, "--port-file"]
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exthost-airdrop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: portFile) }
        arguments.append(portFile.path)
        if parsed[.accept] && !parsed[.decline] { arguments.append("--accept") }
        if let with = parsed[.with] { arguments += ["--with", with] }
        let receiver = Process()
        receiver.executableURL = URL(fileURLWithPath: try Executables.exthost())
        receiver.arguments = arguments
        let output = Pipe()
        receiver.standardOutput = output
        receiver.standardError = FileHandle.standardError
        do { try receiver.run() } catch { throw CommandError.failed("cannot start the receiver: \(error)") }
        let port = try waitForPort(portFile, receiver: receiver)
        let answer = try send(offer: offer, data: data, port: port)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        receiver.waitUntilExit()
        guard let receipt = try? JSONDecoder().decode(AirDropReceipt.self, from: Data(answer.utf8)) else {
            throw CommandError.failed("the receiver gave no receipt (exit \(receiver.terminationStatus)): \(answer)")
        }
        if parsed[.json] {
            try context.printJSON(encoding: Report(sender: from.url.path, receiver: to.url.path, receipt: receipt))
        } else {
            context.print("\(offer.name) (\(offer.typeIdentifier), \(offer.bytes) bytes) from \(offer.sender)")
            context.print("\(receipt.outcome) [\(receipt.flow)]: \(receipt.reason)")
            for handler in receipt.handlers {
                context.print("  open with \(handler.bundleIdentifier) [\(handler.rank)]")
            }
            if let path = receipt.path { context.print("at \(path) in \(to.url.path)") }
            if let launch = receipt.delivery?.app {
                context.print(
                    AppHandOff.line(
                        launch.delivery, start: launch.start, bundle: launch.bundleIdentifier, pid: launch.pid))
            }
        }
        switch receipt.outcome {
        case "accepted": return .success
        case "refused": return .failure
        default: return .no
        }
    }

    static let receive = CommandSpec(
        [receiveName], summary: "The receiving side of 'exthost airdrop' (a listening process).",
        options: [
            .value(.root, "DIR", "The receiving device's root."),
            .value(.portFile, "FILE", "Where to write the port it listens on."),
            .flag(.accept, "Accept."), .value(.with, "BUNDLE-ID", "The app chosen."),
            .value(
                .stallLimit, "SECONDS", "Refuse a sender that sends nothing for this long mid-transfer (default 30)."),
        ]
    ) { parsed, context in
        guard let rootPath = parsed[.root], let portFile = parsed[.portFile] else {
            throw CommandError.usage("needs --root and --port-file")
        }
        let root = DeviceRoot(url: URL(fileURLWithPath: rootPath))
        var receiver = AirDropReceiver(
            root: root, iosVersion: root.deviceInfo?.iosVersion ?? DeviceSet.defaultIOSVersion,
            accept: parsed[.accept], chosenApp: parsed[.with])
        if let seconds = try parsed.value(.stallLimit) {
            guard seconds > 0 else { throw CommandError.usage("--stall-limit must be positive") }
            receiver.stallLimit = .milliseconds(Int(seconds * 1000))
        }
        let stallMilliseconds = CInt(clamping: Int((receiver.stallLimit / .milliseconds(1)).rounded(.up)))
        let listener = try TCPListener()
        try Data("\(listener.port)".utf8).write(to: URL(fileURLWithPath: portFile), options: .atomic)
        let connection = try listener.accept(timeoutSeconds: 30)
        defer { close(connection) }
        var receipt: AirDropReceipt
        if let header = readLine(connection), let offer = try? JSONDecoder().decode(AirDropOffer.self, from: header) {
            do {
                receipt = try receiver.receive(offer) { buffer in
                    // A sender that stops mid-transfer is refused after the stall limit.
                    var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                    guard poll(&waiting, 1, max(1, stallMilliseconds)) > 0 else { throw AirDropReceiver.Stalled() }
                    let count = recv(connection, buffer.baseAddress, buffer.count, 0)
                    guard count >= 0 else { throw CommandError.failed("receive: errno \(errno)") }
                    return count
                }
            } catch {
                throw CommandError.failed("receiving into \(rootPath): \(error)")
            }
        } else {
            receipt = .refused(
                "the sender's announcement is not a readable offer",
                flow: receiver.savesToDownloads ? "downloads" : "open-with")
        }
        // The app the file went to receives its URL, as sharingd opens it: the Inbox copy, openInPlace
        // false, no source application (AirDrop is another team's).
        if let app = receipt.app, let delivery = receipt.delivery,
            let report = try? await AppHandOff.deliver(
                [OpenURLContextDescription(url: delivery.url, openInPlace: delivery.openInPlace)], to: app, on: root)
        {
            receipt.delivery?.record(report)
        }
        let line = (try? JSONValue(encoding: receipt).rendered(pretty: false)) ?? "{}"
        writeAll(connection, line + "\n")
        context.print(line)
        return receipt.outcome == "refused" ? .failure : .success
    }

    /// A device by name (`exthost device list`), else by root folder.
    static func device(_ name: String, _ context: CommandContext) throws -> DeviceRoot {
        let devices = DeviceSet.user(environment: context.environment)
        let named = devices.root(named: name)
        if !name.contains("/"), FileManager.default.fileExists(atPath: named.url.path) { return named }
        // The default device is there on first use, as for every other command.
        if name == DeviceSet.defaultName, !FileManager.default.fileExists(atPath: context.resolve(name).path) {
            return try ContainerSupport.mapped { try devices.existing(orNew: name) }
        }
        var isDirectory: ObjCBool = false
        let asPath = context.resolve(name)
        guard FileManager.default.fileExists(atPath: asPath.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CommandError.input(
                "no device \(name) (make it with 'exthost device create \(name)', or give a folder)")
        }
        return DeviceRoot(url: asPath)
    }

    static func deviceName(_ root: DeviceRoot, fallback: String) -> String { root.deviceInfo?.name ?? fallback }

    static func waitForPort(_ file: URL, receiver: Process) throws -> UInt16 {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8), let port = UInt16(text) { return port }
            if !receiver.isRunning { throw CommandError.failed("the receiver ended before listening") }
            usleep(5_000)
        }
        receiver.terminate()
        throw CommandError.failed("the receiver did not listen within 15 s")
    }

    /// Connects to 127.0.0.1:`port`, sends the offer line and the bytes, and reads the receipt line.
    static func send(offer: AirDropOffer, data: Data, port: UInt16) throws -> String {
        let socket = try TCPListener.connect(port: port)
        defer { close(socket) }
        let header = String(decoding: try JSONEncoder().encode(offer), as: UTF8.self) + "\n"
        writeAll(socket, header)
        data.withUnsafeBytes { writeAll(socket, $0) }
        shutdown(socket, Int32(SHUT_WR))
        return String(decoding: readLine(socket) ?? Data(), as: UTF8.self)
    }

    static func readLine(_ socket: Int32) -> Data? {
        var line = Data()
        var byte: UInt8 = 0
        while line.count < 1 << 16 {
            let count = recv(socket, &byte, 1, 0)
            if count <= 0 { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { return line }
            line.append(byte)
        }
        return nil
    }

    static func writeAll(_ socket: Int32, _ text: String) {
        Array(text.utf8).withUnsafeBytes { writeAll(socket, $0) }
    }

    static func writeAll(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(
                socket, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += sent
        }
    }
}

extension AirDropCommand.Report {
    /// Reads the merged object back: `sender` and `receiver` by their keys, the receipt from the
    /// same object.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        sender = try container.decode(String.self, forKey: .sender)
        receiver = try container.decode(String.self, forKey: .receiver)
        receipt = try AirDropReceipt(from: decoder)
    }
}

/// A TCP socket listening on 127.0.0.1 (loopback only).
struct TCPListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CommandError.failed("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw CommandError.failed("bind/listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    func accept(timeoutSeconds: Int32) throws -> Int32 {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutSeconds * 1000) == 1 else {
            close(descriptor)
            throw CommandError.failed("no sender connected within \(timeoutSeconds) s")
        }
        let connection = Glibc.accept(descriptor, nil, nil)
        close(descriptor)
        guard connection >= 0 else { throw CommandError.failed("accept: errno \(errno)") }
        return connection
    }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CommandError.failed("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        address.sin_port = port.bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw CommandError.failed("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return fd
    }
}
