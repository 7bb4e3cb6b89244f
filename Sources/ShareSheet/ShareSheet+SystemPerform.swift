import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import LaunchServices
import Payloads
import SheetReports
import UniformTypes

/// What Copy put on the device's pasteboard.
public struct PasteboardWrite: Codable, Sendable, Hashable {
    /// `changeCount` after the copy.
    public var changeCount: Int
    /// The representation types of each pasteboard item, in order (one item per activity item).
    public var items: [[String]]
    /// The pasteboard's file (`exthost pasteboard show` prints it).
    public var path: String
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

extension ShareSheet {
    static let copyActivity = "com.apple.UIKit.activity.CopyToPasteboard"
    static let saveToFilesActivity = "com.apple.DocumentManagerUICore.SaveToFiles"

    /// The items an activity receives: each item source's `itemForActivityType` (a nil one gives
    /// nothing), with its `dataTypeIdentifier`.
    static func resolved(_ items: ActivityItems, for activityType: String) -> [(ActivityItem, String?)] {
        items.items.compactMap { item in
            guard case .source(let source) = item else { return (item, nil) }
            return source.item(for: activityType).map { ($0, source.dataTypeIdentifier) }
        }
    }

    /// Copy: the items replace the general pasteboard's, one pasteboard item per activity item, with
    /// what iOS puts there per class — text → `public.utf8-plain-text`, a web URL → `public.url`,
    /// an image → its bytes under its type (`public.png`, `public.jpeg`), a file → its contents
    /// under its type, data → under the item source's `dataTypeIdentifier`.
    static func performCopy(
        _ items: ActivityItems, root: DeviceRoot, bundles: InstalledBundles, writer: String?,
        through service: (@Sendable ([PasteboardItem]) throws -> PasteboardContents)? = nil
    ) throws(SheetError) -> SheetPerformance {
        var pasteboardItems: [PasteboardItem] = []
        for (item, dataType) in resolved(items, for: copyActivity) {
            let (type, bytes) = try representation(of: item, dataType: dataType, registry: bundles.registry)
            pasteboardItems.append(PasteboardItem(representations: [PasteboardRepresentation(type: type, data: bytes)]))
        }
        let pasteboard = DevicePasteboard(root: root)
        let contents: PasteboardContents
        do {
            contents =
                try service?(pasteboardItems)
                ?? pasteboard.setItems(pasteboardItems, writer: writer ?? "Copy (the share sheet)")
        } catch {
            throw SheetError(.failed, "writing the pasteboard: \(error)")
        }
        var performance = SheetPerformance(
            completion: SheetCompletion(
                activityType: copyActivity, completed: true, returnedItems: nil, activityError: nil))
        performance.pasteboard = PasteboardWrite(
            changeCount: contents.changeCount, items: pasteboardItems.map { $0.representations.map(\.type) },
            path: pasteboard.fileURL.path)
        return performance
    }

    /// Save to Files: each item becomes a file in `location` — a file under its own name, text as
    /// `Text.txt`, an image as `Image.<ext>`, data as `Data.<ext>` of its type. A name already
    /// taken gets ` 2`, ` 3`… before its extension (the Files app's "Keep Both"); each file is
    /// written to a temporary file, synced and renamed without replacing, so nothing is ever
    /// overwritten or half-written, and when one item fails the ones saved before it are removed.
    static func performSaveToFiles(
        _ items: ActivityItems, root: DeviceRoot, bundles: InstalledBundles, location: FilesLocation
    ) throws(SheetError) -> SheetPerformance {
        let folder = root.url.appendingPathComponent(location.relativePath)
        var saved: [SavedFile] = []
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let directory = try FileDescriptor.open(folder.path, .directory)
            defer { try? directory.close() }
            do {
                for (item, dataType) in resolved(items, for: saveToFilesActivity) {
                    let (type, bytes) = try representation(of: item, dataType: dataType, registry: bundles.registry)
                    let wanted = fileName(for: item, type: type, registry: bundles.registry)
                    let name = try save(bytes, named: wanted, in: directory)
                    saved.append(
                        SavedFile(
                            name: name, path: "\(location.relativePath)/\(name)", typeIdentifier: type,
                            bytes: bytes.count, requestedName: name == wanted ? nil : wanted))
                }
            } catch {
                for file in saved { try? directory.removeFile(file.name) }
                throw error
            }
        } catch let error as SheetError {
            throw error
        } catch {
            throw SheetError(.failed, "saving to \(folder.path): \(error)")
        }
        var performance = SheetPerformance(
            completion: SheetCompletion(
                activityType: saveToFilesActivity, completed: true, returnedItems: nil, activityError: nil))
        performance.saved = saved
        return performance
    }

    /// The `number`th name Save to Files tries for `name`: `name.ext`, then `name 2.ext`, `name 3.ext`…
    /// (the Files app's "Keep Both"; Apple documents no rule for iOS, this is what Finder and Files show).
    public static func keepBothName(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        return "\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// Writes `bytes` durably under the first free name of ``keepBothName(_:_:)``: a hidden
    /// temporary file in the folder, written and synced, then renamed without replacing
    /// (`RENAME_NOREPLACE`: two saves of one name at once both land, under two names), then the
    /// folder synced. The temporary file is removed on any failure.
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

    /// The name Save to Files gives an item.
    static func fileName(for item: ActivityItem, type: String, registry: TypeRegistry) -> String {
        let ext = registry.preferredFilenameExtension(for: UniformTypeIdentifier(type)).map { ".\($0)" } ?? ""
        switch item {
        case .file(let url): return url.lastPathComponent
        case .text, .attributedText: return "Text.txt"
        case .image: return "Image\(ext)"
        default: return "Data\(ext)"
        }
    }

    /// The type and bytes an item gives a system activity.
    static func representation(of item: ActivityItem, dataType: String?, registry: TypeRegistry)
        throws(SheetError) -> (String, Data)
    {
        switch item {
        case .text(let text), .attributedText(let text): return ("public.utf8-plain-text", Data(text.utf8))
        case .url(let url): return ("public.url", Data(url.absoluteString.utf8))
        case .image(let data, let type): return (type, data)
        case .data(let data, let type): return (type ?? dataType ?? "public.data", data)
        case .file(let url):
            let type = registry.preferredType(forFileNamed: url.path, conformingTo: nil).rawValue
            do {
                return (type, try Data(contentsOf: url))
            } catch {
                throw SheetError(.badInput, "\(url.path): cannot read the shared file: \(error.localizedDescription)")
            }
        case .source:
            throw SheetError(.badInput, "an item source's item cannot itself be an item source")
        case .extensionItem:
            throw SheetError(.badInput, "a system activity does not take an NSExtensionItem")
        }
    }
}
