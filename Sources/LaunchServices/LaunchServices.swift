public import AppGroups
public import ExtensionHost
import ExtensionIPC
public import Foundation
import HostSystem
public import UniformTypes

/// One app that can open a file or URL, and why.
public struct LaunchHandler: Codable, Sendable, Hashable {
    /// The app.
    public var bundleIdentifier: String
    /// `LSHandlerRank` of the claiming document type (`Owner`, `Default`, `Alternate`), or
    /// `URLScheme` for a custom scheme.
    public var rank: String
    /// Why it qualifies.
    public var reason: String
}

/// What `exthost open` decided for a file or URL.
public struct LaunchDecision: Codable, Sendable {
    /// The file or URL.
    public var target: String
    /// The file's type (nil for a URL).
    public var typeIdentifier: String?
    /// Every app that can open it, best first.
    public var handlers: [LaunchHandler]
    /// The app iOS picks (nil: none can).
    public var chosen: String?
    /// Why that one, or why none.
    public var reason: String
    /// For a file: which type its filename extension gives and why (the types declared with it,
    /// who declares each, and which install won).
    public var typeChoice: ExtensionTypeChoice?
}

/// The device's Launch Services: which installed apps open a file or a URL, and which one iOS
/// picks.
///
/// Rules (evidence in the reference on ways into the app, section A):
/// - A file qualifies an app when the file's type (from its filename extension, with the types
///   every installed app declares) conforms to a type in `LSItemContentTypes` of one of the app's
///   `CFBundleDocumentTypes` ("An app will be shown in the 'Open In' list if the UTI of the file
///   in question conforms to the UTIs specified in the document types"); a string where an array is
///   expected is accepted, as Apple's samples and shipped apps write it.
/// - `LSHandlerRank` `None` never opens the type; the default rank is `Default`.
/// - The best handler: the app that exports the file's type, then by rank (Owner, Default,
///   Alternate), then the app whose claim is the type itself over one that claims a supertype (a
///   `public.data` claim is in every list but never first for a type someone claims exactly), then
///   install order (the earlier install first: exthost's choice, iOS documents no order). A `dyn.`
///   type (nobody declares the extension) is claimed only by apps whose claims it conforms to:
///   `public.data`, `public.item`.
/// - A custom URL scheme goes to an app listing it in `CFBundleURLTypes` → `CFBundleURLSchemes`;
///   "If multiple apps register the same scheme, the app the system targets is undefined": exthost
///   takes the first installed and says so. `http` and `https` open in Safari.
extension InstalledBundles {
    /// The handlers for the file at `url` (by its name; it need not exist).
    public func handlers(forFile url: URL) -> LaunchDecision {
        // A file is data: an extension nobody declares gives a dyn. type conforming to public.data.
        var decision = handlers(
            forType: registry.preferredType(forFileNamed: url.path), name: url.lastPathComponent)
        decision.target = url.path
        if !url.pathExtension.isEmpty { decision.typeChoice = typeChoice(forFilenameExtension: url.pathExtension) }
        return decision
    }

    /// The handlers for a file of type `type` named `name` (AirDrop names the sender's type).
    public func handlers(forType type: UniformTypeIdentifier, name: String) -> LaunchDecision {
        let exporter = registry.declaration(for: type).flatMap { declaration -> String? in
            guard case .exported(let path) = declaration.source else { return nil }
            return apps.first { $0.url.appendingPathComponent("Info.plist").path == path }?.identifier
        }
        var scored: [(handler: LaunchHandler, key: (Int, Int, Int, Int))] = []
        for (order, app) in apps.enumerated() {
            let usable = app.documentClaims.filter { $0.rank != "None" && registry.conforms(type, to: $0.type) }
            guard let best = usable.min(by: { Self.rankOrder($0.rank) < Self.rankOrder($1.rank) }) else { continue }
            let exact = usable.contains { registry.canonical($0.type) == registry.canonical(type) }
            let exports = app.identifier == exporter
            var reason =
                "\(type) conforms to \(best.type), which its CFBundleDocumentTypes claim (LSHandlerRank \(best.rank))"
            if exports { reason += "; it exports \(type)" }
            scored.append(
                (
                    LaunchHandler(bundleIdentifier: app.identifier, rank: best.rank, reason: reason),
                    (exports ? 0 : 1, Self.rankOrder(best.rank), exact ? 0 : 1, order)
                ))
        }
        let handlers = scored.sorted { $0.key < $1.key }.map(\.handler)
        let neverOpening = apps.filter { app in
            app.documentClaims.contains { $0.rank == "None" && registry.conforms(type, to: $0.type) }
        }
        let why: String
        if let first = handlers.first {
            why =
                handlers.count == 1
                ? "the only app that claims \(type)"
                : "\(first.bundleIdentifier) ranks first: exporter, then LSHandlerRank, then an exact claim, then "
                    + "install order (\(app(first.bundleIdentifier)?.installOrder.description ?? "?"))"
        } else if !neverOpening.isEmpty {
            let never = neverOpening
            // LSHandlerRank None: "the app is never selected to open the type but still accepts drops".
            why =
                "\(never.map(\.identifier).joined(separator: ", ")) \(never.count == 1 ? "claims" : "claim") \(type) "
                + "only with LSHandlerRank None, which never opens it (it accepts drops only): the file requires an app"
        } else {
            let ext = (name as NSString).pathExtension
            why =
                type.rawValue.hasPrefix("dyn.")
                ? "no installed app declares the extension .\(ext) or claims public.data: the file requires an app"
                : "no installed app claims \(type): the file requires an app"
        }
        return LaunchDecision(
            target: name, typeIdentifier: type.rawValue, handlers: handlers, chosen: handlers.first?.bundleIdentifier,
            reason: why)
    }

    /// The handlers for a URL with a scheme.
    public func handlers(forURL url: URL) -> LaunchDecision {
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == "http" || scheme == "https" {
            return LaunchDecision(
                target: url.absoluteString, typeIdentifier: nil, handlers: [], chosen: "com.apple.mobilesafari",
                reason: "a web link opens in Safari (no app on this device claims it as a universal link)")
        }
        let handlers = apps.filter { $0.urlSchemes.contains(scheme) }.map {
            LaunchHandler(
                bundleIdentifier: $0.identifier, rank: "URLScheme",
                reason: "its CFBundleURLTypes list the scheme \(scheme)")
        }
        let why: String =
            switch handlers.count {
            case 0: "no installed app registers the scheme \(scheme)"
            case 1: "the only app that registers \(scheme)"
            default:
                "\(handlers.count) apps register \(scheme): iOS leaves the target undefined; exthost takes the first installed"
            }
        return LaunchDecision(
            target: url.absoluteString, typeIdentifier: nil, handlers: handlers,
            chosen: handlers.first?.bundleIdentifier,
            reason: why)
    }

    static func rankOrder(_ rank: String) -> Int {
        switch rank {
        case "Owner": 0
        case "Default": 1
        case "Alternate": 2
        default: 3
        }
    }
}

/// Where a file handed to an app ends up.
public struct FileDelivery: Codable, Sendable {
    /// The URL the app is given.
    public var url: String
    /// `openInPlace` of the options: true for the original (with a security scope), false for a
    /// copy in `Documents/Inbox`.
    public var openInPlace: Bool
    /// The app's `Documents/Inbox` when the file was copied there.
    public var inbox: String?
    /// Which entry point of the app's process received the URL: `willConnectTo`,
    /// `openURLContexts`, `application-open`, or `lost` (nil: not delivered to a process).
    public var method: String?
    /// The app's process: its pid, `start` (cold or warm) and what became of the URL.
    public var app: AppOpenReport?

    /// A hand-over of `url`.
    public init(url: String, openInPlace: Bool, inbox: String?, method: String? = nil, app: AppOpenReport? = nil) {
        self.url = url
        self.openInPlace = openInPlace
        self.inbox = inbox
        self.method = method
        self.app = app
    }

    /// Records the delivery to the app's process.
    public mutating func record(_ report: AppOpenReport) {
        method = report.delivery.method.rawValue
        app = report
    }

    /// The path of ``url``.
    public var path: String { URL(string: url)?.path ?? url }
}

extension InstalledBundles {
    /// Hands the file at `file` to the installed app `identifier` as iOS does: the original when
    /// the app sets `LSSupportsOpeningDocumentsInPlace` (and the file is not `moving`), else into
    /// its `Documents/Inbox` — copied, or moved when `moving` (AirDrop's `LSMoveDocumentOnOpenKey`)
    /// — as `name` (default: the file's own), where a name already there gets `-1`, `-2`… before
    /// its extension (as a device log shows).
    /// - Throws: `CocoaError`/`AppGroupError` when the app's container or the file cannot be made.
    public func deliver(
        file: URL, to identifier: String, on root: DeviceRoot, moving: Bool = false, named name: String? = nil
    ) throws -> FileDelivery {
        guard let app = apps.first(where: { $0.identifier == identifier }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: identifier])
        }
        if app.opensInPlace, !moving {
            return FileDelivery(url: file.standardizedFileURL.absoluteString, openInPlace: true, inbox: nil)
        }
        let identity = try BundleIdentity.load(bundle: app.url)
        let inbox = try root.dataContainer(for: identity).url.appendingPathComponent("Documents/Inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let target: URL
        if moving {
            target = try InstalledBundles.moveUnique(file, named: name ?? file.lastPathComponent, into: inbox)
        } else {
            target = InstalledBundles.uniqueName(name ?? file.lastPathComponent, in: inbox)
            try FileManager.default.copyItem(at: file, to: target)
        }
        return FileDelivery(url: target.absoluteString, openInPlace: false, inbox: inbox.path)
    }
}

extension InstalledBundles {
    /// `name` in `folder`, or — when a file of that name is there — `name` with `-1`, `-2`… before its
    /// extension, as a device numbers a second copy in an Inbox.
    static func uniqueName(_ name: String, in folder: URL) -> URL {
        var number = 0
        var candidate = folder.appendingPathComponent(name)
        while FileManager.default.fileExists(atPath: candidate.path) {
            number += 1
            candidate = folder.appendingPathComponent(numbered(name, number))
        }
        return candidate
    }

    /// `name` with `-number` before its extension (`photo-2.jpg`); `name` itself for 0.
    static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 0 else { return name }
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        return "\(base)-\(number)" + (ext.isEmpty ? "" : ".\(ext)")
    }
}

extension InstalledBundles {
    /// Moves `file` into `folder` as `name`, or `name` numbered `-1`, `-2`… when taken, without ever
    /// replacing a file: each candidate is a rename that fails when the name exists
    /// (`RENAME_NOREPLACE`), so two transfers of one name at once both land, under two names.
    /// - Returns: where the file is now.
    /// - Throws: `CocoaError` naming the folder when the move fails for another reason.
    static func moveUnique(_ file: URL, named name: String, into folder: URL) throws -> URL {
        do throws(Errno) {
            let source = try FileDescriptor.open(file.deletingLastPathComponent().path, .directory)
            defer { try? source.close() }
            let target = try FileDescriptor.open(folder.path, .directory)
            defer { try? target.close() }
            for number in 0..<10_000 {
                let candidate = numbered(name, number)
                do throws(Errno) {
                    try source.rename(file.lastPathComponent, to: candidate, in: target, flags: .noReplace)
                    return folder.appendingPathComponent(candidate)
                } catch  where error == .fileExists {
                    continue
                }
            }
            throw Errno.fileExists
        } catch {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: folder.appendingPathComponent(name).path, NSUnderlyingErrorKey: error])
        }
    }
}
