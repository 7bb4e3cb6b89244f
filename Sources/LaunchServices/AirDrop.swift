public import AppGroups
import ExtensionHost
import Foundation
import HostSystem
import UniformTypes

/// What an AirDrop sender announces before the bytes: the file's name, its type identifier (the
/// sender's, as `kSFOperationFileTypeKey` carries it), its size and digest.
public struct AirDropOffer: Codable, Sendable {
    /// The sender's device name.
    public var sender: String
    /// The file's name (no folders).
    public var name: String
    /// The sender's type identifier for it.
    public var typeIdentifier: String
    /// Its size in bytes.
    public var bytes: Int
    /// Its SHA-256, hexadecimal.
    public var sha256: String

    /// An offer.
    public init(sender: String, name: String, typeIdentifier: String, bytes: Int, sha256: String) {
        self.sender = sender
        self.name = name
        self.typeIdentifier = typeIdentifier
        self.bytes = bytes
        self.sha256 = sha256
    }
}

/// What the receiving device did with an AirDrop transfer.
public struct AirDropReceipt: Codable, Sendable {
    /// `accepted`, `declined`, `refused` (a bad transfer) or `requires-app`.
    public var outcome: String
    /// Why, in words.
    public var reason: String
    /// `downloads` (iOS 17+: saved to Downloads, "Move to App…" offered) or `open-with` (before).
    public var flow: String
    /// The type the receiver gave the file (the sender's identifier when an installed app declares
    /// it, else from the filename extension).
    public var typeIdentifier: String?
    /// The apps that can open it, best first.
    public var handlers: [LaunchHandler]
    /// The app it went to.
    public var app: String?
    /// Where the file is, relative to the receiver's device root.
    public var path: String?
    /// Bytes received.
    public var bytes: Int
    /// Their SHA-256.
    public var sha256: String?
    /// The hand-over to the app.
    public var delivery: FileDelivery?

    /// A refused transfer: nothing received, nothing kept.
    public static func refused(_ reason: String, flow: String) -> AirDropReceipt {
        AirDropReceipt(
            outcome: "refused", reason: reason, flow: flow, typeIdentifier: nil, handlers: [], app: nil, path: nil,
            bytes: 0, sha256: nil, delivery: nil)
    }
}

/// The receiving side of AirDrop on a device (evidence: the reference on ways into the app,
/// section B.2): the transfer is checked (a name without folders, exactly the announced size, the
/// announced digest) into a staging file nobody else sees, then routed. iOS 17 and later save it to
/// Downloads and offer "Move to App…" (accepting moves it into the app's `Documents/Inbox`);
/// before, the alert lists "Open with" one app per handler (accepting moves it into the chosen
/// app's Inbox), and with no app the file "requires an app" (kept only in Downloads when accepted
/// as Save to Files). A refused transfer leaves nothing behind.
public struct AirDropReceiver: Sendable {
    /// The receiving device.
    public var root: DeviceRoot
    /// The iOS version it emulates.
    public var iosVersion: String
    /// Whether the person taps Accept (and then the app, or Move to App…).
    public var accept: Bool
    /// The app chosen in the list (nil: the first).
    public var chosenApp: String?
    /// The largest transfer accepted.
    public var maximumBytes = 4 << 30
    /// How long the sender may send nothing mid-transfer before the receiver gives up (what a
    /// `read` that waited that long throws: ``Stalled``).
    public var stallLimit: Duration = .seconds(30)

    /// What the `read` of ``receive(_:read:)`` throws when the sender sent nothing for ``stallLimit``.
    public struct Stalled: Error, Sendable {
        /// A stall.
        public init() {}
    }

    /// A receiver.
    public init(root: DeviceRoot, iosVersion: String, accept: Bool, chosenApp: String? = nil) {
        self.root = root
        self.iosVersion = iosVersion
        self.accept = accept
        self.chosenApp = chosenApp
    }

    /// Whether the device uses the iOS 17+ flow.
    public var savesToDownloads: Bool { (Int(iosVersion.split(separator: ".").first ?? "") ?? 18) >= 17 }

    /// Why `offer` is refused before any byte is read, or nil.
    public func refusal(of offer: AirDropOffer) -> String? {
        let name = offer.name
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\0")
            || name.hasPrefix(".")
        {
            return "the file name \(String(reflecting: name)) is not a plain file name"
        }
        if offer.bytes < 0 { return "the announced size \(offer.bytes) is out of range" }
        if let free = freeBytes, offer.bytes > free {
            return
                "the announced size of \(offer.bytes) bytes is more than the \(free) bytes free on the receiving device"
        }
        if offer.bytes > maximumBytes { return "the announced size \(offer.bytes) is out of range" }
        if offer.sha256.count != 64 || !offer.sha256.allSatisfy(\.isHexDigit) { return "the digest is not SHA-256 hex" }
        return nil
    }

    /// The bytes free for an unprivileged writer on the receiving device's file system (of its
    /// root, or the nearest folder above it that exists), or nil when it cannot be told.
    var freeBytes: Int? {
        var url = root.url.standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url.deleteLastPathComponent() }
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.intValue
    }

    /// Receives `offer`'s bytes from `read` (which fills the buffer and returns the count, 0 at the
    /// end) and routes the file.
    /// - Throws: only when the device's folders cannot be written.
    public func receive(_ offer: AirDropOffer, read: (UnsafeMutableRawBufferPointer) throws -> Int) throws
        -> AirDropReceipt
    {
        let flow = savesToDownloads ? "downloads" : "open-with"
        var receipt = AirDropReceipt(
            outcome: "refused", reason: "", flow: flow, typeIdentifier: nil, handlers: [], app: nil, path: nil,
            bytes: 0, sha256: nil, delivery: nil)
        if let refusal = refusal(of: offer) {
            receipt.reason = refusal
            return receipt
        }
        let staging = root.url.appendingPathComponent("tmp/airdrop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: staging.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: staging.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: staging.path)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: staging.path]) }
        var keep = false
        defer {
            try? handle.close()
            if !keep { try? FileManager.default.removeItem(at: staging) }
        }
        var hasher = SHA256()
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try read($0) }
            } catch is Stalled {
                let seconds =
                    Double(stallLimit.components.seconds)
                    + Double(stallLimit.components.attoseconds) / 1e18
                receipt.reason =
                    "the sender stalled after \(total) of \(offer.bytes) bytes: nothing came for \(seconds) s "
                    + "(the receiver's time limit); nothing is kept"
                return receipt
            }
            if count == 0 { break }
            total += count
            if total > offer.bytes {
                receipt.reason = "the sender sent more than the \(offer.bytes) bytes it announced"
                return receipt
            }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            try handle.write(contentsOf: buffer[0..<count])
        }
        receipt.bytes = total
        if total < offer.bytes {
            receipt.reason = "the transfer ended after \(total) of \(offer.bytes) bytes"
            return receipt
        }
        let digest = SHA256.hexString(hasher.finalize())
        guard digest == offer.sha256.lowercased() else {
            receipt.reason = "the bytes do not match the announced SHA-256"
            return receipt
        }
        try handle.synchronize()
        receipt.sha256 = digest

        // Routing: the sender's identifier when this device knows it, else the filename extension.
        let bundles = InstalledBundles(root: root)
        let declared = UniformTypeIdentifier(offer.typeIdentifier)
        let decision =
            bundles.registry.isDeclared(declared)
            ? bundles.handlers(forType: declared, name: offer.name)
            : bundles.handlers(forFile: URL(fileURLWithPath: "/" + offer.name))
        receipt.typeIdentifier = decision.typeIdentifier
        receipt.handlers = decision.handlers
        guard accept else {
            receipt.outcome = "declined"
            receipt.reason = "the person declined; nothing is kept"
            return receipt
        }
        let chosen = chosenApp ?? decision.chosen
        if let chosenApp, !decision.handlers.contains(where: { $0.bundleIdentifier == chosenApp }) {
            receipt.reason = "\(chosenApp) does not open \(decision.typeIdentifier ?? offer.typeIdentifier)"
            return receipt
        }
        if savesToDownloads || chosen == nil {
            // Saved to Downloads (iOS 17+, or "Save to Files" when no app claims it).
            let downloads = root.url.appendingPathComponent("Downloads")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            let target = try InstalledBundles.moveUnique(staging, named: offer.name, into: downloads)
            keep = true
            receipt.path = relative(target)
            guard let chosen else {
                receipt.outcome = "requires-app"
                receipt.reason =
                    "\(offer.sender) is sending you a file that requires an app: no installed app opens "
                    + "\(decision.typeIdentifier ?? offer.typeIdentifier); saved to Downloads (Save to Files)"
                return receipt
            }
            // "Move to App…": the share into the app succeeds and the Downloads copy is gone (moved,
            // so an app that opens in place does not get a URL to a removed file).
            let delivery = try bundles.deliver(file: target, to: chosen, on: root, moving: true)
            receipt.outcome = "accepted"
            receipt.reason = "saved to Downloads, then Move to App… \(chosen) (the Downloads copy is removed)"
            receipt.app = chosen
            receipt.delivery = delivery
            receipt.path = relative(URL(fileURLWithPath: delivery.path))
            return receipt
        }
        // Before iOS 17: Open with the chosen app; the file is moved (LSMoveDocumentOnOpenKey).
        guard let chosen else { return receipt }
        let delivery = try bundles.deliver(file: staging, to: chosen, on: root, moving: true, named: offer.name)
        keep = true
        receipt.outcome = "accepted"
        receipt.reason = "Open with \(chosen): the file is moved into its Documents/Inbox"
        receipt.app = chosen
        receipt.path = relative(URL(fileURLWithPath: delivery.path))
        receipt.delivery = delivery
        return receipt
    }

    private func relative(_ url: URL) -> String {
        let base = root.url.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
