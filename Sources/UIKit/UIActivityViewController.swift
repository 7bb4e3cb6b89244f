@_exported public import ExtensionFoundation
public import Foundation
public import LinkPresentation
@_exported public import SheetReports

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
    ///   is itself an item source, no device, or a program that does not link the app runtime (the
    ///   `ExtHostApp` product).
    public func sheet(on root: URL? = nil) throws -> SheetReport {
        try ApplicationBackendLookup.backend().sheet(of: self, on: root)
    }

    /// Chooses `activityType` on the sheet, as a tap: an extension runs with the items each item
    /// source gives for that type; then ``completionWithItemsHandler`` runs. `nil` dismisses the
    /// sheet without choosing.
    /// - Throws: ``UIActivityViewControllerError`` when the activity is not shown or cannot run, or
    ///   the program does not link the app runtime (the `ExtHostApp` product).
    public func perform(_ activityType: UIActivity.ActivityType?, on root: URL? = nil) async throws {
        guard let activityType else {
            completionWithItemsHandler?(nil, false, nil, nil)
            return
        }
        try await ApplicationBackendLookup.backend().perform(activityType, of: self, on: root)
    }
}

/// Why the sheet could not be shown or an activity performed.
public struct UIActivityViewControllerError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public var description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
