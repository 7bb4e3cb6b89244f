import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import LinkPresentation
import Payloads
import ShareSheet
import SheetReports
import UIKit

/// The share sheet of an app that shares: what `UIActivityViewController` shows and does, through
/// the device's share sheet (module `ShareSheet`) and the sandboxed extension pipeline.
extension AppRuntimeBackend {
    static func sheet(of controller: UIActivityViewController, on root: URL?) throws -> SheetReport {
        do {
            return try ShareSheet.present(try controller.model(for: nil), on: try UIActivityViewController.device(root))
        } catch let error as UIActivityViewControllerError {
            throw error
        } catch {
            throw UIActivityViewControllerError("\(error)")
        }
    }

    static func perform(
        _ activityType: UIActivity.ActivityType, of controller: UIActivityViewController, on root: URL?
    ) async throws {
        let device = try UIActivityViewController.device(root)
        // Copy and Save to Files run in the app's process; only an extension or app needs the launcher.
        let inProcess = [
            UIActivity.ActivityType.copyToPasteboard.rawValue, "com.apple.DocumentManagerUICore.SaveToFiles",
        ]
        .contains(activityType.rawValue)
        guard
            let programs = InstalledPrograms.nextToExecutable()
                ?? (inProcess ? InstalledPrograms(launcher: "", exthost: nil) : nil)
        else {
            throw UIActivityViewControllerError(
                "exthost-sandbox-exec is not built beside this program: add the product to the target's dependencies")
        }
        var options = SheetPerformOptions(programs: programs)
        if let channel = ChannelPasteboard.channel.withLock({ $0 }) {
            // Save to Files from the app's own sheet: the Files app writes into the device's Files,
            // which the app's sandbox does not reach — exthost's host does it.
            options.saveFiles = { files, location in
                let reply = ChannelPasteboard.save(SaveToFilesRequest(location: location, files: files), on: channel)
                guard let saved = reply.saved else {
                    throw UIActivityViewControllerError(reply.error ?? "Save to Files failed")
                }
                return saved
            }
        }
        if UIPasteboard.appService != nil {
            // In the app's process (sandboxed), Copy writes UIPasteboard.general as UIKit's Copy
            // activity does: through the pasteboard service, with the app as the writer.
            options.writePasteboard = { items in
                guard let contents = UIPasteboard.general.replaceItems(items) else {
                    throw UIActivityViewControllerError("the pasteboard service refused the copy")
                }
                return contents
            }
        }
        let items = try controller.model(for: activityType.rawValue)
        let performance: SheetPerformance
        do {
            performance = try await ShareSheet.perform(
                activityType.rawValue, items: items, on: device, options: options)
        } catch {
            throw UIActivityViewControllerError(error.description)
        }
        let completion = performance.completion
        let returned = completion.returnedItems.map { items in items.map(UIActivityViewController.extensionItem) }
        let error = completion.activityError.map {
            NSError(domain: $0.domain, code: $0.code, userInfo: [NSLocalizedDescriptionKey: $0.message])
        }
        controller.completionWithItemsHandler?(
            completion.activityType.map(UIActivity.ActivityType.init(rawValue:)), completion.completed, returned, error)
    }
}

extension UIActivityViewController {
    // MARK: - The model

    static func device(_ root: URL?) throws -> DeviceRoot {
        if let root { return DeviceRoot(url: root) }
        guard let path = ProcessEnvironment.current()?.rootPath else {
            throw UIActivityViewControllerError(
                "no device: pass the device's root (this process was not started by exthost app run)")
        }
        return DeviceRoot(url: URL(fileURLWithPath: path))
    }

    /// The items as the sheet's model sees them; an item source is asked for `activityType`'s
    /// item (nil: before anything is chosen).
    func model(for activityType: String?) throws -> ActivityItems {
        let type = activityType.map(UIActivity.ActivityType.init(rawValue:))
        var items: [ActivityItem] = []
        for (index, object) in activityItems.enumerated() {
            if let source = object as? any UIActivityItemSource {
                let placeholder = try Self.item(source.activityViewControllerPlaceholderItem(self), index: index)
                let item = try source.activityViewController(self, itemForActivityType: type).map {
                    try Self.item($0, index: index)
                }
                let dataType = source.activityViewController(self, dataTypeIdentifierForActivityType: type)
                let subject = source.activityViewController(self, subjectForActivityType: type)
                let metadata = source.activityViewControllerLinkMetadata(self).map {
                    LinkMetadata(
                        originalURL: $0.originalURL, url: $0.url, title: $0.title, hasIcon: $0.iconProvider != nil,
                        hasImage: $0.imageProvider != nil)
                }
                items.append(
                    .source(
                        ActivityItemSource(
                            placeholder: placeholder, item: item,
                            itemsByActivityType: activityType.map { [$0: item] } ?? [:],
                            dataTypeIdentifier: dataType.isEmpty ? nil : dataType,
                            subject: subject.isEmpty ? nil : subject,
                            hasThumbnail: source.activityViewController(
                                self, thumbnailImageForActivityType: type, suggestedSize: CGSize(width: 64, height: 64))
                                != nil,
                            linkMetadata: metadata)))
            } else {
                items.append(try Self.item(object, index: index))
            }
        }
        let activities = applicationActivities.compactMap { activity -> ApplicationActivity? in
            guard let type = activity.activityType else { return nil }
            return ApplicationActivity(
                type: type.rawValue, title: activity.activityTitle ?? type.rawValue,
                isShare: Swift.type(of: activity).activityCategory == .share, accepts: [],
                canPerform: activity.canPerform(withActivityItems: activityItems))
        }
        return ActivityItems(
            items: items, excludedActivityTypes: (excludedActivityTypes ?? []).map(\.rawValue),
            applicationActivities: activities)
    }

    static func item(_ object: Any, index: Int) throws -> ActivityItem {
        switch object {
        case is any UIActivityItemSource:
            throw UIActivityViewControllerError(
                "activity item \(index): a placeholder or item cannot itself be an item source")
        case let url as URL: return url.isFileURL ? .file(url) : .url(url)
        case let text as String: return .text(text)
        case let text as NSAttributedString: return .attributedText(text.string)
        case let image as UIImage: return .image(image.shareableData, typeIdentifier: image.typeIdentifier)
        case let data as Data: return .data(data, typeIdentifier: nil)
        default:
            throw UIActivityViewControllerError(
                "activity item \(index): \(type(of: object)) is not a String, NSAttributedString, URL, Data, UIImage "
                    + "or UIActivityItemSource")
        }
    }

    /// A returned item as the sharing app gets it: an `NSExtensionItem` whose attachments load
    /// what the extension returned.
    static func extensionItem(_ returned: ReturnedItem) -> NSExtensionItem {
        let item = NSExtensionItem()
        item.attributedTitle = returned.title.map { NSAttributedString(string: $0) }
        item.attributedContentText = returned.contentText.map { NSAttributedString(string: $0) }
        item.attachments = returned.attachments.compactMap { attachment in
            guard let data = attachment.data else { return nil }
            if attachment.typeIdentifier == "public.plain-text" {
                return NSItemProvider(
                    item: String(decoding: data, as: UTF8.self) as NSString, typeIdentifier: attachment.typeIdentifier)
            }
            return NSItemProvider(item: data as NSData, typeIdentifier: attachment.typeIdentifier)
        }
        return item
    }
}
