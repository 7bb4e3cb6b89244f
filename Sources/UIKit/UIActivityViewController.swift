import AppGroups
@_exported public import ExtensionFoundation
import ExtensionHost
import ExtensionIPC
public import Foundation
import HostSystem
public import LinkPresentation
import Payloads
@_exported public import ShareSheet

/// `UIActivityItemSource`: an object that gives the share sheet a placeholder at once and the real
/// item when an activity is chosen. All methods but the first two have defaults, as the optional
/// requirements of the Objective-C protocol.
@MainActor
public protocol UIActivityItemSource: AnyObject {
    /// The placeholder: "only the class of the return type is consulted" to decide the activities.
    /// It must not itself be an item source.
    func activityViewControllerPlaceholderItem(_ activityViewController: UIActivityViewController) -> Any
    /// The item for the chosen activity (nil: nothing for it).
    func activityViewController(
        _ activityViewController: UIActivityViewController, itemForActivityType activityType: UIActivity.ActivityType?
    ) -> Any?
    /// The type of a `Data` item (called with nil, then with the chosen activity).
    func activityViewController(
        _ activityViewController: UIActivityViewController,
        dataTypeIdentifierForActivityType activityType: UIActivity.ActivityType?
    ) -> String
    /// A subject line (Mail and others); the extension item's `attributedContentText`.
    func activityViewController(
        _ activityViewController: UIActivityViewController,
        subjectForActivityType activityType: UIActivity.ActivityType?
    ) -> String
    /// A thumbnail (nil: none).
    func activityViewController(
        _ activityViewController: UIActivityViewController,
        thumbnailImageForActivityType activityType: UIActivity.ActivityType?, suggestedSize size: CGSize
    ) -> UIImage?
    /// The preview header's metadata (iOS 13+; nil: the sheet builds the header from the items).
    func activityViewControllerLinkMetadata(_ activityViewController: UIActivityViewController) -> LPLinkMetadata?
}

extension UIActivityItemSource {
    /// No type: `public.data`.
    public func activityViewController(
        _ activityViewController: UIActivityViewController,
        dataTypeIdentifierForActivityType activityType: UIActivity.ActivityType?
    ) -> String { "" }
    /// No subject.
    public func activityViewController(
        _ activityViewController: UIActivityViewController,
        subjectForActivityType activityType: UIActivity.ActivityType?
    ) -> String { "" }
    /// No thumbnail.
    public func activityViewController(
        _ activityViewController: UIActivityViewController,
        thumbnailImageForActivityType activityType: UIActivity.ActivityType?, suggestedSize size: CGSize
    ) -> UIImage? { nil }
    /// No metadata.
    public func activityViewControllerLinkMetadata(_ activityViewController: UIActivityViewController)
        -> LPLinkMetadata?
    { nil }
}

/// `UIActivityViewController`: the share sheet. On Linux nothing is drawn: ``sheet(on:)`` says
/// what a device would show (which activities, the preview header, why each row is hidden) and
/// ``perform(_:on:)`` chooses an activity as a tap would — an installed extension runs in its
/// sandbox — and calls ``completionWithItemsHandler`` with what iOS passes.
@MainActor
open class UIActivityViewController {
    /// `(activityType, completed, returnedItems, activityError)`.
    public typealias CompletionWithItemsHandler =
        @MainActor (UIActivity.ActivityType?, Bool, [Any]?, (any Error)?) -> Void

    /// The items as given.
    public let activityItems: [Any]
    /// The app's own activities.
    public let applicationActivities: [UIActivity]
    /// Activity types not to show (nil: none).
    open var excludedActivityTypes: [UIActivity.ActivityType]?
    /// Called once the chosen activity ends (or the sheet is dismissed).
    open var completionWithItemsHandler: CompletionWithItemsHandler?

    /// A sheet for `activityItems` (at least one) and the app's own activities.
    public init(activityItems: [Any], applicationActivities: [UIActivity]?) {
        self.activityItems = activityItems
        self.applicationActivities = applicationActivities ?? []
    }

    /// What the sheet shows on the device at `root` (nil: the device the current process runs on,
    /// as `exthost app run` starts it).
    /// - Throws: ``UIActivityViewControllerError`` for an item of no known class, a placeholder that
    ///   is itself an item source, or no device.
    public func sheet(on root: URL? = nil) throws -> SheetReport {
        do {
            return try ShareSheet.present(try model(for: nil), on: try device(root))
        } catch let error as UIActivityViewControllerError {
            throw error
        } catch {
            throw UIActivityViewControllerError("\(error)")
        }
    }

    /// Chooses `activityType` on the sheet, as a tap: an extension runs with the items each item
    /// source gives for that type; then ``completionWithItemsHandler`` runs. `nil` dismisses the
    /// sheet without choosing.
    /// - Throws: ``UIActivityViewControllerError`` when the activity is not shown or cannot run.
    public func perform(_ activityType: UIActivity.ActivityType?, on root: URL? = nil) async throws {
        guard let activityType else {
            completionWithItemsHandler?(nil, false, nil, nil)
            return
        }
        let device = try device(root)
        guard let launcher = SandboxPolicy.launcherNextToExecutable() else {
            throw UIActivityViewControllerError(
                "exthost-sandbox-exec is not built beside this program: add the product to the target's dependencies")
        }
        var options = SheetPerformOptions(launcher: launcher)
        if let exthost = SiblingExecutable.path("exthost") {
            options.builtInShareExtension = (exthost, ["__extension"])
            options.builtInActionExtension = (exthost, ["__action-extension"])
            options.builtInApp = (exthost, ["__app"])
        }
        let items = try model(for: activityType.rawValue)
        let performance: SheetPerformance
        do {
            performance = try await ShareSheet.perform(
                activityType.rawValue, items: items, on: device, options: options)
        } catch {
            throw UIActivityViewControllerError(error.description)
        }
        let completion = performance.completion
        let returned = completion.returnedItems.map { items in items.map(Self.extensionItem) }
        let error = completion.activityError.map {
            NSError(domain: $0.domain, code: $0.code, userInfo: [NSLocalizedDescriptionKey: $0.message])
        }
        completionWithItemsHandler?(
            completion.activityType.map(UIActivity.ActivityType.init(rawValue:)), completion.completed, returned, error)
    }

    // MARK: - The model

    private func device(_ root: URL?) throws -> DeviceRoot {
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

/// Why the sheet could not be shown or an activity performed.
public struct UIActivityViewControllerError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public var description: String
    init(_ description: String) { self.description = description }
}
