public import Foundation

/// One representation of a pasteboard item: a type identifier and its bytes (what
/// `UIPasteboard.items` holds as `[String: Any]`, by type).
public struct PasteboardRepresentation: Codable, Hashable, Sendable {
    /// The type identifier (`public.utf8-plain-text`, `public.url`, `public.png`, …).
    public var type: String
    /// The bytes.
    public var data: Data

    /// A representation.
    public init(type: String, data: Data) {
        self.type = type
        self.data = data
    }
}

/// One item of a pasteboard: its representations, in the order they were given.
public struct PasteboardItem: Codable, Hashable, Sendable {
    /// The representations.
    public var representations: [PasteboardRepresentation]

    /// An item.
    public init(representations: [PasteboardRepresentation]) { self.representations = representations }

    /// The bytes of `type` (an exact match), or nil.
    public func data(for type: String) -> Data? { representations.first { $0.type == type }?.data }
}

/// What a pasteboard holds: its items, its change count and who wrote last.
public struct PasteboardContents: Codable, Hashable, Sendable {
    /// `changeCount`: incremented by every change of the contents.
    public var changeCount: Int
    /// The items (empty: nothing on the pasteboard).
    public var items: [PasteboardItem]
    /// Who wrote the items: a bundle identifier, or what exthost performed (`Copy`).
    public var writer: String?
    /// `UIPasteboard.OptionsKey.expirationDate`: after it, the pasteboard reads as empty.
    public var expirationDate: Date?
    /// `UIPasteboard.OptionsKey.localOnly`: the items stay on this device (no Universal Clipboard).
    public var localOnly: Bool?

    /// Contents.
    public init(
        changeCount: Int = 0, items: [PasteboardItem] = [], writer: String? = nil, expirationDate: Date? = nil,
        localOnly: Bool? = nil
    ) {
        self.changeCount = changeCount
        self.items = items
        self.writer = writer
        self.expirationDate = expirationDate
        self.localOnly = localOnly
    }

    /// The contents as a reader sees them at `now`: no items once past the expiration date.
    public func visible(at now: Date = Date()) -> PasteboardContents {
        guard let expirationDate, expirationDate <= now else { return self }
        var expired = self
        expired.items = []
        return expired
    }
}

/// Extension or app → host: read the general pasteboard, or replace its items (the pasteboard is a
/// system service on iOS, never a file a sandboxed process can reach; the host answers with
/// ``PasteboardReply``).
public struct PasteboardRequest: Codable, Hashable, Sendable {
    /// Chosen by the sender; the reply names it.
    public var requestID: UInt64
    /// The items to set (`setItems(_:options:)` and every setter); nil reads.
    public var items: [PasteboardItem]?
    /// `expirationDate` of a write.
    public var expirationDate: Date?
    /// `localOnly` of a write.
    public var localOnly: Bool?

    /// A request.
    public init(requestID: UInt64, items: [PasteboardItem]? = nil, expirationDate: Date? = nil, localOnly: Bool? = nil)
    {
        self.requestID = requestID
        self.items = items
        self.expirationDate = expirationDate
        self.localOnly = localOnly
    }

    /// The most bytes of item data one request or reply carries: the service's messages travel
    /// in one frame (``WireFormat/maximumPayloadSize``) as base64, so larger contents are refused.
    public static var maximumDataSize: Int { 512 << 10 }
}

/// Host → extension or app: the pasteboard after the request (its contents as a reader sees
/// them), or why the request failed.
public struct PasteboardReply: Codable, Hashable, Sendable {
    /// The request.
    public var requestID: UInt64
    /// The contents, nil when the request failed.
    public var contents: PasteboardContents?
    /// Why it failed.
    public var error: String?

    /// A reply.
    public init(requestID: UInt64, contents: PasteboardContents?, error: String? = nil) {
        self.requestID = requestID
        self.contents = contents
        self.error = error
    }
}

/// Where Save to Files saves: the folders of the Files app on the device.
public enum FilesLocation: String, Sendable, Hashable, CaseIterable, Codable {
    /// `<root>/Files/On My iPhone` (the default).
    case onMyIPhone = "on-my-iphone"
    /// `<root>/Downloads` (where AirDrop saves from iOS 17, too).
    case downloads

    /// The folder, relative to the device root.
    public var relativePath: String {
        switch self {
        case .onMyIPhone: "Files/On My iPhone"
        case .downloads: "Downloads"
        }
    }
}

/// One file for Save to Files: the name it asks for, its type and bytes.
public struct FileToSave: Codable, Sendable, Hashable {
    /// The name it asks for (a taken one becomes `name 2.ext`).
    public var name: String
    /// Its type.
    public var typeIdentifier: String
    /// Its bytes.
    public var data: Data

    /// A file.
    public init(name: String, typeIdentifier: String, data: Data) {
        self.name = name
        self.typeIdentifier = typeIdentifier
        self.data = data
    }
}

/// One file Save to Files wrote.
public struct SavedFile: Codable, Sendable, Hashable {
    /// The name it was saved under (`name 2.ext` when `name.ext` was taken).
    public var name: String
    /// Its path, relative to the device root (`Files/On My iPhone/…` or `Downloads/…`).
    public var path: String
    /// Its type.
    public var typeIdentifier: String
    /// Its size.
    public var bytes: Int
    /// The name the item asked for, when another was taken instead.
    public var requestedName: String?

    /// A saved file.
    public init(name: String, path: String, typeIdentifier: String, bytes: Int, requestedName: String?) {
        self.name = name
        self.path = path
        self.typeIdentifier = typeIdentifier
        self.bytes = bytes
        self.requestedName = requestedName
    }
}

/// App → host: Save to Files from the app's own share sheet (the Files app writes, not the app's
/// sandbox); answered by ``SaveToFilesReply``.
public struct SaveToFilesRequest: Codable, Sendable, Hashable {
    /// Where.
    public var location: FilesLocation
    /// What.
    public var files: [FileToSave]

    /// A request.
    public init(location: FilesLocation, files: [FileToSave]) {
        self.location = location
        self.files = files
    }
}

/// Host → app: what was saved, or why nothing was.
public struct SaveToFilesReply: Codable, Sendable, Hashable {
    /// The files written (nil when the save failed; then none was kept).
    public var saved: [SavedFile]?
    /// Why it failed.
    public var error: String?

    /// A reply.
    public init(saved: [SavedFile]?, error: String? = nil) {
        self.saved = saved
        self.error = error
    }
}
