public import AppGroups
import ExtensionHost
import Foundation
import HostSystem
import UniformTypes

/// What an AirDrop sender announces for one file before the bytes: the file's name, its type
/// identifier (the sender's, as `kSFOperationFileTypeKey` carries it), its size and digest.
public struct AirDropOffer: Codable, Sendable {
    /// The sender's device name.
    public var sender: String
    /// The file's name (no folders); inside a folder transfer, its path relative to the folder
    /// (`photos/a.jpg`), each component a plain name.
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

/// What an AirDrop sender announces for a whole transfer, as one JSON line before the bytes: one
/// or several files, a folder (its files, with paths relative to it), or a link. The bytes follow
/// file after file, in order. A line that is a single ``AirDropOffer`` is a transfer of that file.
public struct AirDropAnnouncement: Codable, Sendable {
    /// The sender's device name.
    public var sender: String
    /// The files, in the order their bytes follow.
    public var files: [AirDropOffer]
    /// The folder sent, whose entries ``files`` are (nil: plain files).
    public var folder: String?
    /// A link sent instead of files.
    public var url: String?

    /// An announcement.
    public init(sender: String, files: [AirDropOffer], folder: String? = nil, url: String? = nil) {
        self.sender = sender
        self.files = files
        self.folder = folder
        self.url = url
    }

    enum Key: String, CodingKey { case sender, files, folder, url }

    /// Reads an announcement, or a single offer as a transfer of one file.
    /// - Throws: `DecodingError` when the object is neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(.files) || container.contains(.url) {
            self.init(
                sender: try container.decode(String.self, forKey: .sender),
                files: try container.decodeIfPresent([AirDropOffer].self, forKey: .files) ?? [],
                folder: try container.decodeIfPresent(String.self, forKey: .folder),
                url: try container.decodeIfPresent(String.self, forKey: .url))
        } else {
            let offer = try AirDropOffer(from: decoder)
            self.init(sender: offer.sender, files: [offer])
        }
    }

    /// The bytes announced in all.
    public var bytes: Int { files.reduce(0) { $0.addingReportingOverflow(max($1.bytes, 0)).partialValue } }
}

/// One file of an AirDrop receipt: what was announced, how the receiver typed it, where it ended.
public struct AirDropFileReceipt: Codable, Sendable {
    /// The name announced (a path relative to the folder, in a folder transfer).
    public var name: String
    /// The sender's declared type identifier.
    public var declaredType: String
    /// The type the receiver gave it: the declared one when the device knows it, else the one its
    /// filename extension gives.
    public var typeIdentifier: String
    /// Its bytes.
    public var bytes: Int
    /// Their SHA-256.
    public var sha256: String
    /// Where it ended, relative to the receiving device's root (nil: nothing kept).
    public var path: String?
}

/// What the receiving device did with an AirDrop transfer.
public struct AirDropReceipt: Codable, Sendable {
    /// `accepted`, `declined`, `refused` (a bad transfer) or `requires-app`.
    public var outcome: String
    /// Why, in words.
    public var reason: String
    /// `downloads` (iOS 17+: saved to Downloads and opened in Files, "Move to App…" offered),
    /// `open-with` (before: the alert lists Open with per app and Save to Files), `system` (a
    /// system handler such as Photos takes it, on every version) or `link`.
    public var flow: String
    /// The receiving device's iOS version.
    public var iosVersion: String?
    /// The handler that took the transfer, why, and those tried before it.
    public var handler: AirDropHandlerChoice?
    /// What the receiver offered the person (`Open in Files`, `Move to App…`, `Open with X`,
    /// `Save to Files`, `Get App`, `Accept`, `Decline`).
    public var actions: [String]
    /// The action taken.
    public var action: String?
    /// The App Store lookup "Get App" opens, when the transfer requires an app.
    public var getApp: String?
    /// The type the receiver gave the (first) file.
    public var typeIdentifier: String?
    /// The apps that can open every file (or the link), best first.
    public var handlers: [LaunchHandler]
    /// The app that took it (a system app, the Files app, or the app chosen).
    public var app: String?
    /// Where the (first) file is, relative to the receiver's device root (a folder transfer: the
    /// folder).
    public var path: String?
    /// Every file of the transfer and where it ended.
    public var files: [AirDropFileReceipt]
    /// The link, for a link transfer.
    public var url: String?
    /// Bytes received.
    public var bytes: Int
    /// Their SHA-256 (a transfer of one file).
    public var sha256: String?
    /// The hand-over to the app (the first file's, or the link's).
    public var delivery: FileDelivery?
    /// The URLs the app is given, in one launch (Move to App…, Open with, a custom-scheme link).
    public var appURLs: [String]

    /// A receipt with nothing decided yet.
    public init(outcome: String, reason: String, flow: String, iosVersion: String? = nil) {
        self.outcome = outcome
        self.reason = reason
        self.flow = flow
        self.iosVersion = iosVersion
        self.handler = nil
        self.actions = []
        self.action = nil
        self.getApp = nil
        self.typeIdentifier = nil
        self.handlers = []
        self.app = nil
        self.path = nil
        self.files = []
        self.url = nil
        self.bytes = 0
        self.sha256 = nil
        self.delivery = nil
        self.appURLs = []
    }

    /// A refused transfer: nothing received, nothing kept.
    public static func refused(_ reason: String, flow: String) -> AirDropReceipt {
        AirDropReceipt(outcome: "refused", reason: reason, flow: flow)
    }
}

/// What the person does on the receiving device.
public struct AirDropResponse: Codable, Sendable, Hashable {
    /// Whether they tap Accept.
    public var accept: Bool
    /// Before iOS 17: the "Open with" app chosen in the alert (nil: the first).
    public var openWith: String?
    /// From iOS 17: the app chosen in "Move to App…" (nil: the file stays in Downloads, opened in
    /// Files).
    public var moveToApp: String?
    /// Before iOS 17: "Save to Files" chosen in the alert.
    public var saveToFiles: Bool

    /// A response.
    public init(accept: Bool, openWith: String? = nil, moveToApp: String? = nil, saveToFiles: Bool = false) {
        self.accept = accept
        self.openWith = openWith
        self.moveToApp = moveToApp
        self.saveToFiles = saveToFiles
    }

    /// The receiver process's arguments for it.
    public var arguments: [String] {
        var arguments: [String] = []
        if accept { arguments.append("--accept") }
        if let openWith { arguments += ["--with", openWith] }
        if let moveToApp { arguments += ["--move-to-app", moveToApp] }
        if saveToFiles { arguments.append("--save-to-files") }
        return arguments
    }
}

/// The receiving side of AirDrop on a device (evidence: the reference on ways into the app,
/// section B.2, copied into docs/airdrop.md): the transfer is checked (plain names, exactly the
/// announced sizes, the announced digests) into a staging folder nobody else sees, then routed by
/// sharingd's handler order (``AirDropFileRouting``, ``AirDropLinkRouting``) and the device's iOS
/// version. A refused or declined transfer leaves nothing behind; an accepted one is kept whole.
public struct AirDropReceiver: Sendable {
    /// The receiving device.
    public var root: DeviceRoot
    /// The iOS version it emulates.
    public var iosVersion: IOSVersion
    /// What the person does.
    public var response: AirDropResponse
    /// The largest transfer accepted, in bytes.
    public var maximumBytes = 4 << 30
    /// The most files in one transfer.
    public var maximumFiles = 10_000
    /// How long the sender may send nothing mid-transfer before the receiver gives up (what a
    /// `read` that waited that long throws: ``Stalled``).
    public var stallLimit: Duration = .seconds(30)

    /// What the `read` of ``receive(_:read:)`` throws when the sender sent nothing for ``stallLimit``.
    public struct Stalled: Error, Sendable {
        /// A stall.
        public init() {}
    }

    /// A receiver.
    public init(root: DeviceRoot, iosVersion: IOSVersion, response: AirDropResponse) {
        self.root = root
        self.iosVersion = iosVersion
        self.response = response
    }

    /// Whether the device uses the iOS 17+ flow for files (saved to Downloads, opened in Files,
    /// "Move to App…" a separate choice).
    public var savesToDownloads: Bool { iosVersion.major >= 17 }

    /// The flow files take on this device when no system handler takes them.
    public var fileFlow: String { savesToDownloads ? "downloads" : "open-with" }

    /// Why `name` is not a plain file name, or nil.
    public static func nameRefusal(_ name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\0")
            || name.hasPrefix(".")
        {
            return "the file name \(String(reflecting: name)) is not a plain file name"
        }
        return nil
    }

    /// Why `offer` is refused before any byte is read, or nil; in a folder transfer its name is a
    /// path of plain names.
    public func refusal(of offer: AirDropOffer, inFolder: Bool = false) -> String? {
        if inFolder {
            let parts = offer.name.split(separator: "/", omittingEmptySubsequences: false)
            if parts.contains(where: { Self.nameRefusal(String($0)) != nil }) {
                return "the name \(String(reflecting: offer.name)) in the folder is not a path of plain file names"
            }
        } else if let refusal = Self.nameRefusal(offer.name) {
            return refusal
        }
        if offer.bytes < 0 { return "the announced size \(offer.bytes) is out of range" }
        if offer.sha256.count != 64 || !offer.sha256.allSatisfy(\.isHexDigit) { return "the digest is not SHA-256 hex" }
        return nil
    }

    /// Why `announcement` is refused before any byte is read, or nil.
    public func refusal(of announcement: AirDropAnnouncement) -> String? {
        if let link = announcement.url {
            guard announcement.files.isEmpty, announcement.folder == nil else {
                return "a transfer is files or a link, not both"
            }
            return Self.linkRefusal(link)
        }
        guard !announcement.files.isEmpty else { return "a transfer of zero files" }
        guard announcement.files.count <= maximumFiles else {
            return "\(announcement.files.count) files are more than the \(maximumFiles) one transfer may carry"
        }
        if let folder = announcement.folder, let refusal = Self.nameRefusal(folder) {
            return "the folder's name: " + refusal
        }
        var names: Set<String> = []
        var folders: Set<String> = []
        for offer in announcement.files {
            if let refusal = refusal(of: offer, inFolder: announcement.folder != nil) { return refusal }
            if announcement.folder != nil {
                guard names.insert(offer.name).inserted else { return "the folder names \(offer.name) twice" }
                var parts = offer.name.split(separator: "/").map(String.init)
                parts.removeLast()
                while !parts.isEmpty {
                    folders.insert(parts.joined(separator: "/"))
                    parts.removeLast()
                }
            }
        }
        if let clash = names.first(where: folders.contains) {
            return "the folder names \(clash) both as a file and as a folder"
        }
        var total = 0
        for offer in announcement.files {
            let (sum, overflow) = total.addingReportingOverflow(offer.bytes)
            if overflow { return "the announced sizes add up to more than \(Int.max) bytes" }
            total = sum
        }
        if let free = freeBytes, total > free {
            return "the announced size of \(total) bytes is more than the \(free) bytes free on the receiving device"
        }
        if total > maximumBytes { return "the announced size \(total) is out of range" }
        return nil
    }

    /// Why `link` is not a link AirDrop carries (no scheme), or nil.
    public static func linkRefusal(_ link: String) -> String? {
        guard let url = URL(string: link), let scheme = url.scheme, !scheme.isEmpty else {
            return "the link \(String(reflecting: link)) has no scheme (like https: or carddrop:)"
        }
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

    /// Receives one file: a transfer of `offer` alone.
    /// - Throws: as the receive of an announcement.
    public func receive(_ offer: AirDropOffer, read: (UnsafeMutableRawBufferPointer) throws -> Int) throws
        -> AirDropReceipt
    {
        try receive(AirDropAnnouncement(sender: offer.sender, files: [offer]), read: read)
    }

    /// Receives `announcement`'s bytes from `read` (which fills the buffer and returns the count, 0
    /// at the end) and routes the transfer.
    /// - Throws: only when the device's folders cannot be written (nothing is kept then either).
    public func receive(_ announcement: AirDropAnnouncement, read: (UnsafeMutableRawBufferPointer) throws -> Int)
        throws -> AirDropReceipt
    {
        var receipt = AirDropReceipt(
            outcome: "refused", reason: "", flow: announcement.url == nil ? fileFlow : "link",
            iosVersion: iosVersion.description)
        if let refusal = refusal(of: announcement) {
            receipt.reason = refusal
            return receipt
        }
        let staging = root.url.appendingPathComponent("tmp/airdrop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        var staged: [URL] = []
        var total = 0
        let announced = announcement.bytes
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let registry = InstalledBundles(root: root).registry
        for (index, offer) in announcement.files.enumerated() {
            let file =
                announcement.folder.map { staging.appendingPathComponent($0).appendingPathComponent(offer.name) }
                ?? staging.appendingPathComponent("\(index)")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: file.path, contents: nil),
                let handle = FileHandle(forWritingAtPath: file.path)
            else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
            defer { try? handle.close() }
            var hasher = SHA256()
            var remaining = offer.bytes
            while remaining > 0 {
                let count: Int
                do {
                    count = try buffer.withUnsafeMutableBytes {
                        try read(UnsafeMutableRawBufferPointer(rebasing: $0[0..<min(remaining, $0.count)]))
                    }
                } catch is Stalled {
                    receipt.reason =
                        "the sender stalled after \(total) of \(announced) bytes: nothing came for "
                        + "\(stallLimit.secondsDescription) s (the receiver's time limit); nothing is kept"
                    return receipt
                }
                if count == 0 {
                    receipt.reason =
                        "the transfer ended after \(total) of \(announced) bytes (in \(offer.name)); nothing is kept"
                    return receipt
                }
                total += count
                remaining -= count
                buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                try handle.write(contentsOf: buffer[0..<count])
            }
            let digest = SHA256.hexString(hasher.finalize())
            try handle.synchronize()
            staged.append(file)
            receipt.files.append(
                AirDropFileReceipt(
                    name: offer.name, declaredType: offer.typeIdentifier,
                    typeIdentifier: Self.receiverType(offer, registry: registry).rawValue,
                    bytes: offer.bytes, sha256: digest, path: nil))
        }
        // Nothing may follow the announced bytes.
        do {
            var extra: UInt8 = 0
            if try withUnsafeMutableBytes(of: &extra, { try read($0) }) > 0 {
                receipt.reason = "the sender sent more than the \(announced) bytes it announced; nothing is kept"
                return receipt
            }
        } catch is Stalled {
            receipt.reason =
                "the sender stalled after its \(announced) bytes instead of ending the transfer; nothing is kept"
            return receipt
        }
        // Then every file's digest (checked once the stream is known to end where announced).
        for (offer, file) in zip(announcement.files, receipt.files) where file.sha256 != offer.sha256.lowercased() {
            receipt.reason = "the bytes of \(offer.name) do not match the announced SHA-256; nothing is kept"
            return receipt
        }
        receipt.bytes = total
        if receipt.files.count == 1 { receipt.sha256 = receipt.files[0].sha256 }
        if let link = announcement.url, let url = URL(string: link) {
            return try receiveLink(url, receipt: receipt)
        }
        return try route(announcement, staged: staged, staging: staging, receipt: receipt)
    }

    /// The type the receiver gives a file: the sender's declared identifier when this device knows
    /// it; else the type its filename extension gives when that is a known one; else still the
    /// declared identifier (which no app here claims).
    static func receiverType(_ offer: AirDropOffer, registry: TypeRegistry) -> UniformTypeIdentifier {
        let declared = UniformTypeIdentifier(offer.typeIdentifier)
        if registry.isDeclared(declared) { return declared }
        let name = String(offer.name.split(separator: "/").last ?? Substring(offer.name))
        let byExtension = registry.preferredType(forFileNamed: name)
        return byExtension.rawValue.hasPrefix("dyn.") ? declared : byExtension
    }
}

extension Duration {
    /// `30.0`, `0.5`: seconds as a decimal.
    fileprivate var secondsDescription: String {
        "\(Double(components.seconds) + Double(components.attoseconds) / 1e18)"
    }
}
