public import AppGroups
public import ExtensionIPC
public import Foundation
import HostSystem

/// The device's general pasteboard (`UIPasteboard.general`), kept in the device root at
/// `Pasteboard/general.json` — a system service's state, outside every container, so a sandboxed
/// app or extension never reaches the file: it asks its host (``serve(_:writer:)``) over the
/// connection it already has, as an iOS process asks `pasted` over XPC.
///
/// Every change is a read-modify-write under a cross-process lock (`Pasteboard/general.lock`,
/// ``AppGroups/ContainerLock``) and an atomic, durable replacement of the file, so two writers
/// never lose a change count and a reader never sees half a write.
public struct DevicePasteboard: Sendable {
    /// The device root.
    public let root: DeviceRoot

    /// The pasteboard of the device at `root`.
    public init(root: DeviceRoot) { self.root = root }

    /// `<root>/Pasteboard`.
    public var folder: URL { root.url.appendingPathComponent("Pasteboard") }
    /// `<root>/Pasteboard/general.json`.
    public var fileURL: URL { folder.appendingPathComponent("general.json") }

    private static let file = "general.json"

    /// What the pasteboard holds now, as stored (an expired one still lists its items; readers
    /// use ``PasteboardContents/visible(at:)``). An empty pasteboard when nothing was ever copied.
    /// - Throws: ``AppGroups/AppGroupError`` when the file cannot be read or is not a pasteboard.
    public func contents() throws -> PasteboardContents {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return PasteboardContents() }
        let directory = try openFolder()
        return try ContainerLock(directory: directory, path: try ContainerPath("general.lock")).withLock(.shared) {
            try read(directory)
        }
    }

    /// Replaces the items (`setItems(_:options:)`): the change count goes up by one.
    /// - Returns: the contents after the change.
    /// - Throws: ``AppGroups/AppGroupError``; the pasteboard is then unchanged.
    @discardableResult
    public func setItems(
        _ items: [PasteboardItem], writer: String?, expirationDate: Date? = nil, localOnly: Bool? = nil
    ) throws -> PasteboardContents {
        let directory = try openFolder()
        return try ContainerLock(directory: directory, path: try ContainerPath("general.lock")).withLock(.exclusive) {
            var contents = try read(directory)
            contents.changeCount += 1
            contents.items = items
            contents.writer = writer
            contents.expirationDate = expirationDate
            contents.localOnly = localOnly
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            let bytes: Data
            do { bytes = try encoder.encode(contents) } catch {
                throw AppGroupError(.io, "cannot encode the pasteboard: \(error)")
            }
            try directory.writeAtomically(Array(bytes), to: try ContainerPath(Self.file))
            return contents
        }
    }

    /// Answers a sandboxed process's request: a read, or a write by `writer` (its bundle
    /// identifier). Contents larger than ``ExtensionIPC/PasteboardRequest/maximumDataSize`` are
    /// refused (they would not fit in the reply).
    public func serve(_ request: PasteboardRequest, writer: String?) -> PasteboardReply {
        do {
            let contents: PasteboardContents
            if let items = request.items {
                let size = items.reduce(0) { $0 + $1.representations.reduce(0) { $0 + $1.data.count } }
                guard size <= PasteboardRequest.maximumDataSize else {
                    return PasteboardReply(
                        requestID: request.requestID, contents: nil,
                        error:
                            "the pasteboard service takes at most \(PasteboardRequest.maximumDataSize) bytes of item data per change, not \(size)"
                    )
                }
                contents = try setItems(
                    items, writer: writer, expirationDate: request.expirationDate, localOnly: request.localOnly)
            } else {
                contents = try self.contents()
            }
            let visible = contents.visible()
            let size = visible.items.reduce(0) { $0 + $1.representations.reduce(0) { $0 + $1.data.count } }
            guard size <= PasteboardRequest.maximumDataSize else {
                var summary = visible
                summary.items = []
                return PasteboardReply(
                    requestID: request.requestID, contents: summary,
                    error:
                        "the pasteboard holds \(size) bytes, more than the \(PasteboardRequest.maximumDataSize) its service hands a process"
                )
            }
            return PasteboardReply(requestID: request.requestID, contents: visible)
        } catch {
            return PasteboardReply(requestID: request.requestID, contents: nil, error: "\(error)")
        }
    }

    private func openFolder() throws -> ContainerDirectory {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AppGroupError(.io, "cannot create \(folder.path): \(error)")
        }
        return try ContainerDirectory(url: folder)
    }

    private func read(_ directory: ContainerDirectory) throws -> PasteboardContents {
        let path = try ContainerPath(Self.file)
        guard try directory.status(of: path) != nil else { return PasteboardContents() }
        let bytes = try directory.readFile(path)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(PasteboardContents.self, from: Data(bytes))
        } catch {
            throw AppGroupError(.corrupt, "\(fileURL.path) is not a pasteboard: \(error)")
        }
    }
}
