import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
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
    /// `Text.txt`, an image as `Image.<ext>`, data as `Data.<ext>` of its type — written as
    /// ``ExtensionHost/DeviceFiles/save(_:in:)`` writes (a taken name gets ` 2`, ` 3`…; nothing is
    /// overwritten or half-written), or through `service` (an app's own sheet, in its sandbox).
    static func performSaveToFiles(
        _ items: ActivityItems, root: DeviceRoot, bundles: InstalledBundles, location: FilesLocation,
        through service: (@Sendable ([FileToSave], FilesLocation) throws -> [SavedFile])? = nil
    ) throws(SheetError) -> SheetPerformance {
        var files: [FileToSave] = []
        for (item, dataType) in resolved(items, for: saveToFilesActivity) {
            let (type, bytes) = try representation(of: item, dataType: dataType, registry: bundles.registry)
            files.append(
                FileToSave(
                    name: fileName(for: item, type: type, registry: bundles.registry), typeIdentifier: type,
                    data: bytes))
        }
        let saved: [SavedFile]
        do {
            saved = try service?(files, location) ?? DeviceFiles(root: root).save(files, in: location)
        } catch {
            throw SheetError(.failed, "Save to Files: \(error)")
        }
        var performance = SheetPerformance(
            completion: SheetCompletion(
                activityType: saveToFilesActivity, completed: true, returnedItems: nil, activityError: nil))
        performance.saved = saved
        return performance
    }

    /// The `number`th name Save to Files tries for `name` (``ExtensionHost/DeviceFiles/keepBothName(_:_:)``).
    public static func keepBothName(_ name: String, _ number: Int) -> String {
        DeviceFiles.keepBothName(name, number)
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
