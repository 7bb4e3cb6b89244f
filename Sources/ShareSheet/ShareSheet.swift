import ActivationRules
public import AppGroups
import Foundation
import ItemProviders
import LaunchServices
public import Payloads
public import SheetReports
import Shortcuts
import UniformTypes

/// The share sheet of a device: which activities appear for some activity items, and the preview.
///
/// Sources of activities: the system's (``SystemActivity``); every installed share extension
/// (`com.apple.share-services`, app row) and action extension (`com.apple.ui-services`,
/// `com.apple.services`, action list), each shown when its `NSExtensionActivationRule` accepts the
/// items, evaluated with the types every installed app declares; "Open in" / "Copy to" an app whose
/// `CFBundleDocumentTypes` claim every shared file (open in place with
/// `LSSupportsOpeningDocumentsInPlace`); the app's own `applicationActivities`. `excludedActivityTypes`
/// hides any of them by type (an extension's type is its bundle identifier). The order within a
/// section is fixed here (iOS reorders by use; there is no API to change it): system activities,
/// then extensions and apps by title, then the app's own.
public enum ShareSheet {
    /// The sheet for `activityItems` on `root`.
    /// - Throws: ``Payloads/PayloadError`` when an item cannot be built (a missing file).
    public static func present(_ activityItems: ActivityItems, on root: DeviceRoot) throws -> SheetReport {
        try present(activityItems, bundles: InstalledBundles(root: root), shortcuts: Shortcut.library(at: root.url))
    }

    /// The sheet for `activityItems` over what a device has installed and the shortcuts of its library.
    static func present(_ activityItems: ActivityItems, bundles: InstalledBundles, shortcuts: [Shortcut]) throws
        -> SheetReport
    {
        let payload = try activityItems.payload(for: nil, registry: bundles.registry)
        let activation = payload.activationPayload()
        let excluded = Set(activityItems.excludedActivityTypes)
        var activities: [SheetActivity] = []

        for system in SystemActivity.all {
            let refusal = system.refusal(activityItems.items, registry: bundles.registry)
            activities.append(
                SheetActivity(
                    kind: "system", id: system.type, title: system.title, shown: refusal == nil,
                    reason: refusal ?? "it takes every item", section: system.isShare ? "app-row" : "actions"))
        }
        for appex in bundles.extensions {
            activities.append(extensionActivity(appex, activation: activation, registry: bundles.registry))
        }
        for app in bundles.apps where !app.documentTypes.isEmpty {
            activities.append(appActivity(app, items: activityItems.items, registry: bundles.registry))
        }
        let content = ContentItem.items(from: activityItems.items, registry: bundles.registry)
        for shortcut in shortcuts where shortcut.showsInShareSheet {
            let accepted = shortcut.accepts(content)
            let classes = shortcut.inputClasses.isEmpty ? "any input" : shortcut.inputClasses.joined(separator: ", ")
            activities.append(
                SheetActivity(
                    kind: "shortcut", id: "shortcut:\(shortcut.name)", title: shortcut.name, shown: accepted,
                    reason: accepted
                        ? "a shortcut shown in the share sheet that accepts \(classes)"
                        : "it accepts \(classes); the items are \(content.map(\.className).joined(separator: ", "))",
                    section: "actions"))
        }
        for custom in activityItems.applicationActivities {
            let refused = activityItems.items.first { !custom.accepts.contains($0.itemClass) }
            let shown = custom.canPerform ?? (refused == nil)
            let reason =
                if let answer = custom.canPerform {
                    "its canPerform(withActivityItems:) returns \(answer)"
                } else if let refused {
                    "its canPerform(withActivityItems:) refuses \(SystemActivity.describe(refused))"
                } else {
                    "an applicationActivity whose canPerform(withActivityItems:) accepts the items"
                }
            activities.append(
                SheetActivity(
                    kind: "app", id: custom.type, title: custom.title, shown: shown, reason: reason,
                    section: custom.isShare ? "app-row" : "actions"))
        }
        for index in activities.indices {
            let type = activities[index].activityType ?? activities[index].id
            guard excluded.contains(type) || excluded.contains(activities[index].id) else { continue }
            activities[index].shown = false
            activities[index].reason = "excluded: excludedActivityTypes lists \(type)"
        }
        let items = sheetItems(activityItems, payload: payload)
        return SheetReport(
            activities: order(activities),
            preview: SheetPreviewRules.preview(activityItems.items, registry: bundles.registry),
            items: items)
    }

    /// Each activity item with the types its attachment registers (an `NSExtensionItem`: every
    /// type its attachments register). iOS's own item comes first in the payload, then each given
    /// `NSExtensionItem` (``Payloads/ActivityItems/payload(for:registry:)``).
    static func sheetItems(_ activityItems: ActivityItems, payload: Payload) -> [SheetItem] {
        if activityItems.presetName != nil {
            return zip(activityItems.items.indices, payload.descriptions.flatMap(\.attachments)).map {
                SheetItem(
                    index: $0.0, itemClass: activityItems.items[$0.0].itemClass.rawValue,
                    registeredTypeIdentifiers: $0.1.representations.map(\.typeIdentifier))
            }
        }
        let hasPlain = activityItems.items.contains { $0.itemClass != .extensionItem }
        var plain = (hasPlain ? payload.descriptions.first?.attachments ?? [] : [])[...]
        var given = payload.descriptions.dropFirst(hasPlain ? 1 : 0)[...]
        var result: [SheetItem] = []
        for (index, item) in activityItems.items.enumerated() {
            let types: [String]
            if item.itemClass == .extensionItem {
                types = given.popFirst()?.attachments.flatMap { $0.representations.map(\.typeIdentifier) } ?? []
            } else {
                types = plain.popFirst()?.representations.map(\.typeIdentifier) ?? []
            }
            result.append(SheetItem(index: index, itemClass: item.itemClass.rawValue, registeredTypeIdentifiers: types))
        }
        return result
    }

    /// Shown first, app row before actions, system before the rest, then by title; hidden last.
    static func order(_ activities: [SheetActivity]) -> [SheetActivity] {
        func rank(_ activity: SheetActivity) -> (Int, Int, Int, String) {
            let systemIndex = SystemActivity.all.firstIndex { $0.type == activity.id } ?? Int.max
            let kindRank =
                switch activity.kind {
                case "system": 0
                case "share-extension", "action-extension": 1
                case "app" where activity.id.hasPrefix("open-in:") || activity.id.hasPrefix("copy-to:"): 2
                case "shortcut": 4
                default: 3
                }
            return (
                activity.shown ? 0 : 1, activity.section == "app-row" ? 0 : 1, kindRank * 1000 + min(systemIndex, 999),
                activity.title
            )
        }
        return activities.sorted { rank($0) < rank($1) }
    }

    static func extensionActivity(
        _ appex: InstalledBundles.Extension, activation: ActivationPayload, registry: TypeRegistry
    )
        -> SheetActivity
    {
        let point = appex.pointIdentifier ?? "none"
        let kind: String
        let section: String
        switch point {
        case "com.apple.share-services": (kind, section) = ("share-extension", "app-row")
        case "com.apple.ui-services", "com.apple.services": (kind, section) = ("action-extension", "actions")
        default:
            return SheetActivity(
                kind: "extension", id: appex.identifier, title: appex.title, bundleIdentifier: appex.identifier,
                shown: false, reason: "NSExtensionPointIdentifier \(point) is not a share or action extension point",
                section: "actions")
        }
        let rule = try? ActivationRule.load(
            contentsOf: appex.url.appendingPathComponent("Info.plist"), name: appex.identifier, registry: registry,
            options: ActivationOptions())
        guard let rule, rule.isEvaluable else {
            return SheetActivity(
                kind: kind, id: appex.identifier, title: appex.title, bundleIdentifier: appex.identifier, shown: false,
                reason: "its Info.plist has no readable NSExtensionActivationRule", section: section)
        }
        let result = rule.explain(activation)
        let shown = result.activated == true
        let decided = result.explanation.decidingPath.last.map { "\($0.text)\($0.value.map { " → \($0)" } ?? "")" }
        return SheetActivity(
            kind: kind, id: appex.identifier, title: appex.title, bundleIdentifier: appex.identifier, shown: shown,
            reason: shown
                ? "its NSExtensionActivationRule accepts the items"
                : "its NSExtensionActivationRule does not accept the items\(decided.map { ": \($0)" } ?? "")",
            section: section, explanation: result.explanation)
    }

    static func appActivity(_ app: InstalledBundles.App, items: [ActivityItem], registry: TypeRegistry)
        -> SheetActivity
    {
        let verb = app.opensInPlace ? "Open in" : "Copy to"
        let id = (app.opensInPlace ? "open-in:" : "copy-to:") + app.identifier
        let files = items.compactMap { $0.documentType(registry: registry) }
        let base = SheetActivity(
            kind: "app", id: id, title: "\(verb) \(app.title)",
            activityType: "com.apple.UIKit.activity.RemoteOpenInApplication-"
                + (app.opensInPlace ? "InPlace" : "ByCopy"),
            bundleIdentifier: app.identifier, shown: false, reason: "", section: "app-row")
        guard files.count == items.count, !files.isEmpty else {
            var hidden = base
            hidden.reason = "only files (or data typed by an item source) can be opened in an app"
            return hidden
        }
        for type in files where !app.claims(type, registry: registry) {
            var hidden = base
            hidden.reason = "no document type of \(app.identifier) conforms to \(type)"
            return hidden
        }
        var shown = base
        shown.shown = true
        let claimed = files.map { $0.rawValue }.joined(separator: ", ")
        shown.reason =
            "CFBundleDocumentTypes claim \(claimed)"
            + (app.opensInPlace
                ? " (LSSupportsOpeningDocumentsInPlace: opens the original)" : " (receives a copy in Documents/Inbox)")
        return shown
    }
}
