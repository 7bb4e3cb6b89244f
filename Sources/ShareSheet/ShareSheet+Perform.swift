public import AppGroups
public import ExtensionHost
public import ExtensionIPC
public import Foundation
import HostSystem
import LaunchServices
public import Payloads
import SheetReports
import Shortcuts

/// What the sharing app's `completionWithItemsHandler` receives:
/// `(activityType, completed, returnedItems, activityError)`.
public struct SheetCompletion: Codable, Sendable, Hashable {
    /// The activity chosen (nil when the sheet was dismissed without choosing).
    public var activityType: String?
    /// Whether the activity completed (`false` also for a dismissal or a cancel).
    public var completed: Bool
    /// The `NSExtensionItem`s an action extension returned (nil: none).
    public var returnedItems: [ReturnedItem]?
    /// The error when the activity failed or the extension cancelled (a user cancel is
    /// `NSCocoaErrorDomain` 3072).
    public var activityError: WireError?
}

/// What performing one activity did.
public struct SheetPerformance: Codable, Sendable {
    /// The completion the sharing app receives.
    public var completion: SheetCompletion
    /// The extension's share report, for an extension.
    public var share: ShareReport?
    /// For "Copy to"/"Open in" an app: the file URL the app is handed (a copy in its
    /// `Documents/Inbox`, or the original when it opens documents in place), per shared file.
    public var delivered: [String]?
    /// For "Copy to"/"Open in": the app's process receiving the URLs (cold, or warm when it runs).
    public var app: AppOpenReport? = nil
    /// For Copy: what it put on the device's pasteboard.
    public var pasteboard: PasteboardWrite? = nil
    /// For Save to Files: the files it wrote.
    public var saved: [SavedFile]? = nil
}

/// Why an activity could not be performed.
public struct SheetError: Error, Sendable, CustomStringConvertible {
    /// Bad input (an unknown activity, a missing file): exit 2; a hidden activity: exit 3;
    /// otherwise exit 1.
    public enum Kind: Sendable { case badInput, notShown, failed }
    /// Which.
    public var kind: Kind
    /// The message.
    public var description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The sheet's error for an extension or app that could not run, by the share error's kind.
    init(_ error: ShareError) {
        switch error.kind {
        case .badInput, .invalidRule: self.init(.badInput, error.message)
        case .failed: self.init(.failed, error.message)
        }
    }
}

/// How ``ShareSheet/perform(_:items:on:options:)`` runs an extension.
public struct SheetPerformOptions: Sendable {
    /// `exthost-sandbox-exec`.
    public var launcher: String
    /// The program (and arguments) that runs a share extension whose bundle holds none.
    public var builtInShareExtension: ProgramInvocation?
    /// The program (and arguments) that runs an action extension whose bundle holds none.
    public var builtInActionExtension: ProgramInvocation?
    /// The program (and arguments) that runs an app whose bundle holds none (the receiver of
    /// "Copy to"/"Open in"); nil: such an app is handed the files but not launched.
    public var builtInApp: ProgramInvocation?
    /// A program to run as the extension instead of the bundle's (your own, not yet installed).
    public var extensionExecutable: URL?
    /// Its arguments.
    public var extensionArguments: [String] = []
    /// The limits the extension runs under.
    public var limits = ExtensionLimits()
    /// The sharing app's bundle identifier: "Copy to"/"Open in" hands it to the receiving app as
    /// `options.sourceApplication` when both are installed with the same team ID (nil otherwise).
    public var sharingApp: String?
    /// Where Save to Files saves.
    public var saveLocation: FilesLocation = .onMyIPhone
    /// How Copy replaces the pasteboard's items; nil: the device's pasteboard file directly (the
    /// host). An app's own sheet, in its sandbox, passes its `UIPasteboard` service instead.
    public var writePasteboard: (@Sendable ([PasteboardItem]) throws -> PasteboardContents)?
    /// How Save to Files writes; nil: into the device's folders directly (the host). An app's own
    /// sheet, in its sandbox, passes its Files service instead.
    public var saveFiles: (@Sendable ([FileToSave], FilesLocation) throws -> [SavedFile])?

    /// Options with the launcher and the built-in programs of `programs`.
    public init(programs: InstalledPrograms) {
        launcher = programs.launcher
        builtInShareExtension = programs.builtInShareExtension
        builtInActionExtension = programs.builtInActionExtension
        builtInApp = programs.builtInApp
    }
}

extension ShareSheet {
    /// Chooses the activity `id` on the sheet for `items`, as a person tapping it: an extension
    /// runs through the sandboxed pipeline with the items each item source gives for that
    /// activity type; "Copy to" copies each file into the app's `Documents/Inbox`; "Open in"
    /// hands the app the original. `id` `cancel` dismisses the sheet without choosing.
    /// - Throws: ``SheetError``: an unknown or hidden activity, a system activity (exthost models
    ///   only whether those appear), or a share that could not start.
    @MainActor
    public static func perform(_ id: String, items: ActivityItems, on root: DeviceRoot, options: SheetPerformOptions)
        async throws(SheetError) -> SheetPerformance
    {
        if id == "cancel" {
            return SheetPerformance(
                completion: SheetCompletion(activityType: nil, completed: false, returnedItems: nil, activityError: nil)
            )
        }
        let bundles = InstalledBundles(root: root)
        let report: SheetReport
        do {
            report = try present(items, bundles: bundles, shortcuts: Shortcut.library(at: root.url))
        } catch {
            throw SheetError(.badInput, "\(error)")
        }
        guard let activity = report.activities.first(where: { $0.id == id }) else {
            let shown = report.activities.filter(\.shown).map(\.id)
            throw SheetError(
                .badInput, "no activity \(id) on this sheet; shown: \(shown.joined(separator: ", ")) (or cancel)")
        }
        guard activity.shown else { throw SheetError(.notShown, "\(activity.title) is not shown: \(activity.reason)") }
        switch activity.kind {
        case "share-extension", "action-extension":
            return try await performExtension(activity, items: items, root: root, bundles: bundles, options: options)
        case "app" where id.hasPrefix("open-in:") || id.hasPrefix("copy-to:"):
            return try await deliver(activity, items: items, root: root, bundles: bundles, options: options)
        case "system" where id == copyActivity:
            return try performCopy(
                items, root: root, bundles: bundles, writer: options.sharingApp, through: options.writePasteboard)
        case "system" where id == saveToFilesActivity:
            return try performSaveToFiles(
                items, root: root, bundles: bundles, location: options.saveLocation, through: options.saveFiles)
        default:
            throw SheetError(
                .badInput,
                "\(activity.title) is \(Self.article(activity.kind)) \(activity.kind) activity: exthost models whether it appears, not what it does; "
                    + "perform an extension, a Copy to/Open in activity, Copy or Save to Files")
        }
    }

    /// `an` before a vowel (`an app`, `an action-extension`), else `a` (`a system`).
    static func article(_ word: String) -> String {
        word.first.map { "aeiouAEIOU".contains($0) } == true ? "an" : "a"
    }

    @MainActor
    static func performExtension(
        _ activity: SheetActivity, items: ActivityItems, root: DeviceRoot, bundles: InstalledBundles,
        options: SheetPerformOptions
    ) async throws(SheetError) -> SheetPerformance {
        guard let appex = bundles.extensions.first(where: { $0.identifier == activity.id }) else {
            throw SheetError(.badInput, "\(activity.id) is not installed")
        }
        let activityType = activity.id
        var request = ShareRequest(
            items: .built { registry in try items.payload(for: activityType, registry: registry) }, root: root,
            extensionBundle: appex.url, programs: InstalledPrograms(launcher: options.launcher, exthost: nil))
        request.itemsName = "activity items for \(activityType)"
        request.limits = options.limits
        request.declarations = bundles.declarationFiles
        if let executable = options.extensionExecutable {
            request.extensionExecutable = executable
            request.extensionArguments = options.extensionArguments
            request.standIn =
                "\(executable.path) runs as the chosen extension \(activity.id); Bundle.main is \(appex.url.path)"
        }
        request.builtInExtension =
            activity.kind == "action-extension" ? options.builtInActionExtension : options.builtInShareExtension
        let share: ShareReport
        do {
            share = try await ExtensionHost.share(request)
        } catch {
            throw SheetError(error)
        }
        let cancellation = share.extension?.cancellation
        let failure =
            share.extension.flatMap { run -> WireError? in
                guard cancellation == nil, run.outcome != "completed" else { return nil }
                return WireError(domain: "ExtensionErrorDomain", code: 1, message: run.reason)
            }
        let completion = SheetCompletion(
            activityType: activityType, completed: share.completed,
            returnedItems: share.completed ? share.returnedItems : nil, activityError: cancellation ?? failure)
        return SheetPerformance(completion: completion, share: share)
    }

    /// "Copy to"/"Open in": each file handed over as ``InstalledBundles/deliver(file:to:on:moving:named:)``
    /// does it (a copy in `Documents/Inbox`, or the original for an app that opens in place), then
    /// the URLs delivered to the app's process, warm or cold (``ExtensionHost/AppLaunchServer``).
    static func deliver(
        _ activity: SheetActivity, items: ActivityItems, root: DeviceRoot, bundles: InstalledBundles,
        options: SheetPerformOptions
    ) async throws(SheetError)
        -> SheetPerformance
    {
        let files = items.items.compactMap { item -> URL? in
            switch item {
            case .file(let url): url
            case .source(let source):
                if case .file(let url)? = source.item(for: activity.id) { url } else { nil }
            default: nil
            }
        }
        guard let identifier = activity.bundleIdentifier else {
            throw SheetError(.badInput, "\(activity.id) names no app")
        }
        var delivered: [String] = []
        var contexts: [OpenURLContextDescription] = []
        let source = bundles.sourceApplication(from: options.sharingApp, to: identifier).value
        do {
            for file in files {
                let delivery = try bundles.deliver(file: file, to: identifier, on: root)
                delivered.append(delivery.path)
                contexts.append(
                    OpenURLContextDescription(
                        url: delivery.url, openInPlace: delivery.openInPlace, sourceApplication: source))
            }
        } catch {
            throw SheetError(.failed, "handing the files to \(identifier): \(error)")
        }
        var launch: AppOpenReport?
        let installed = bundles.apps.first { $0.identifier == identifier }
        if !contexts.isEmpty, let installed,
            options.builtInApp != nil || InstalledBundle.executable(of: installed.url) != nil
        {
            var appOptions = AppLaunchOptions()
            appOptions.builtInApp = options.builtInApp
            do {
                launch = try await AppLaunchServer.deliver(
                    contexts, to: identifier, on: root, launcher: options.launcher, options: appOptions)
            } catch {
                throw SheetError(error)
            }
        }
        return SheetPerformance(
            completion: SheetCompletion(
                activityType: activity.activityType ?? activity.id, completed: true, returnedItems: nil,
                activityError: nil),
            delivered: delivered, app: launch)
    }
}

extension SheetCompletion {
    private enum CodingKeys: String, CodingKey { case activityType, completed, returnedItems, activityError }

    /// Encodes the four values of the handler, `null` for a missing one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(completed, forKey: .completed)
        try container.encode(returnedItems, forKey: .returnedItems)
        try container.encode(activityError, forKey: .activityError)
    }
}
