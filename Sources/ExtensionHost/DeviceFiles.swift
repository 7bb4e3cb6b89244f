public import AppGroups
public import ExtensionIPC
import Foundation
import HostSystem

/// The device's Files storage: `<root>/Files/On My iPhone` and `<root>/Downloads`, where Save to
/// Files writes (the host's share sheet, or an app's own sheet asking over its channel: the Files
/// app writes there, not the app's sandbox).
public struct DeviceFiles: Sendable {
    /// The device root.
    public let root: DeviceRoot

    /// The Files storage of the device at `root`.
    public init(root: DeviceRoot) { self.root = root }

    /// The `number`th name tried for `name`: `name.ext`, then `name 2.ext`, `name 3.ext`… (the Files
    /// app's "Keep Both"; Apple documents no rule for iOS, this is what Finder and Files show).
    public static func keepBothName(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        return "\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// Writes each file into `location` under the first free name of ``keepBothName(_:_:)``: each to
    /// a hidden temporary file, synced, renamed without replacing (`RENAME_NOREPLACE`: two saves of
    /// one name at once both land), then the folder synced; when one fails, those written before it
    /// are removed, so nothing is half-saved.
    /// - Throws: ``AppGroups/AppGroupError`` naming the folder.
    public func save(_ files: [FileToSave], in location: FilesLocation) throws -> [SavedFile] {
        for file in files {
            guard !file.name.isEmpty, !file.name.contains("/"), file.name != ".", file.name != ".." else {
                throw AppGroupError(.invalidPath, "'\(file.name)' is not a file name")
            }
        }
        let folder = root.url.appendingPathComponent(location.relativePath)
        var saved: [SavedFile] = []
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let directory = try FileDescriptor.open(folder.path, .directory)
            defer { try? directory.close() }
            do {
                for file in files {
                    let name = try Self.save(file.data, named: file.name, in: directory)
                    saved.append(
                        SavedFile(
                            name: name, path: "\(location.relativePath)/\(name)", typeIdentifier: file.typeIdentifier,
                            bytes: file.data.count, requestedName: name == file.name ? nil : file.name))
                }
            } catch {
                for file in saved { try? directory.removeFile(file.name) }
                throw error
            }
        } catch {
            throw AppGroupError(.io, "saving to \(folder.path): \(error)")
        }
        return saved
    }

    static func save(_ bytes: Data, named name: String, in folder: FileDescriptor) throws(Errno) -> String {
        let temporary = ".saving-\(UUID().uuidString)"
        let file = try FileDescriptor.open(
            temporary, relativeTo: folder, [.writeOnly, .create, .exclusiveCreate], permissions: 0o644)
        var published = false
        defer { if !published { try? folder.removeFile(temporary) } }
        do {
            defer { try? file.close() }
            try file.writeAll(bytes)
            try file.sync()
        }
        for number in 1...10_000 {
            let candidate = keepBothName(name, number)
            do throws(Errno) {
                try folder.rename(temporary, to: candidate, in: folder, flags: .noReplace)
                published = true
                try folder.sync()
                return candidate
            } catch  where error == .fileExists {
                continue
            }
        }
        throw Errno.fileExists
    }

    /// Answers an app's request (its own sheet's Save to Files): at most
    /// ``ExtensionIPC/PasteboardRequest/maximumDataSize`` bytes in all (the request travels in one line).
    public func serve(_ request: SaveToFilesRequest) -> SaveToFilesReply {
        let size = request.files.reduce(0) { $0 + $1.data.count }
        guard size <= PasteboardRequest.maximumDataSize else {
            return SaveToFilesReply(
                saved: nil,
                error: "an app's Save to Files takes at most \(PasteboardRequest.maximumDataSize) bytes, not \(size)")
        }
        do {
            return SaveToFilesReply(saved: try save(request.files, in: request.location))
        } catch {
            return SaveToFilesReply(saved: nil, error: "\(error)")
        }
    }
}
