import AppGroups
public import Foundation
public import UniformTypes

/// One of sharingd's AirDrop handlers, tried in a fixed order for every incoming transfer (the
/// reference on ways into the app, section B.2, from the decompiled `SDAirDropHandlerFactory
/// +handlerForTransfer:`): the first whose `canHandleTransfer` says yes takes the transfer.
public struct AirDropHandlerChoice: Codable, Sendable, Hashable {
    /// The handler's name without its `SDAirDropHandler` prefix (`Photos`, `GenericFiles`,
    /// `WebLinks`, `UnsupportedType`…).
    public var name: String
    /// The app behind it (`com.apple.mobileslideshow` for Photos), nil for UnsupportedType.
    public var app: String?
    /// Why it took the transfer.
    public var reason: String
    /// The handlers tried before it that declined, in sharingd's order.
    public var declined: [String]

    /// A choice.
    public init(name: String, app: String?, reason: String, declined: [String]) {
        self.name = name
        self.app = app
        self.reason = reason
        self.declined = declined
    }
}

/// A system app's AirDrop handler for files: it takes a transfer when every file is of one of its
/// types, and keeps the files in the app's own store on the device (exthost runs no system app:
/// the store is a folder under the device root).
public struct AirDropSystemHandler: Sendable, Hashable {
    /// The handler's name (`Photos`).
    public var name: String
    /// The system app (`com.apple.mobileslideshow`).
    public var app: String
    /// The app's name for people (`Photos`).
    public var title: String
    /// The types it takes (a file conforming to one of them qualifies).
    public var types: [UniformTypeIdentifier]
    /// Where the device keeps what it takes, relative to the device root.
    public var folder: String

    /// The file handlers exthost models, in sharingd's order (CalendarEvents, Contacts, Notes,
    /// Photos, Profiles, VoiceMails, VoiceMemos, WalletItems, PDFs, iBooksItems, IPA,
    /// PlaygroundItems, then GenericFiles). Notes, Profiles, VoiceMails, VoiceMemos, WalletItems,
    /// IPA and PlaygroundItems are not modelled: their types (`com.apple.mobileconfig`,
    /// `com.apple.pkpass`, …) are not in exthost's system type table, so no file reaches them.
    public static let files: [AirDropSystemHandler] = [
        AirDropSystemHandler(
            name: "CalendarEvents", app: "com.apple.mobilecal", title: "Calendar",
            types: ["public.calendar-event", "com.apple.ical.ics"], folder: "Library/Calendar/Received"),
        AirDropSystemHandler(
            name: "Contacts", app: "com.apple.MobileAddressBook", title: "Contacts", types: ["public.vcard"],
            folder: "Library/AddressBook/Received"),
        AirDropSystemHandler(
            name: "Photos", app: "com.apple.mobileslideshow", title: "Photos", types: [.image, .movie],
            folder: "Media/DCIM/100APPLE"),
        AirDropSystemHandler(
            name: "PDFs", app: "com.apple.iBooks", title: "Books", types: [.pdf], folder: "Media/Books/Received"),
        AirDropSystemHandler(
            name: "iBooksItems", app: "com.apple.iBooks", title: "Books", types: ["org.idpf.epub-container"],
            folder: "Media/Books/Received"),
    ]

    /// The Files app (`defaultOpenActionBundleID` of the iOS 17+ flow).
    public static let filesApp = "com.apple.DocumentsApp"
    /// Safari, where WebLinks opens a web link.
    public static let safari = "com.apple.mobilesafari"

    /// The system apps that take links of a scheme before any third-party app (sharingd's link
    /// handlers Phone, Maps and AppStore, tried before GenericLinks); the other link handlers
    /// (iCloud, iWork, Podcasts, News, …) recognise Apple's own web links and are not modelled.
    public static let links: [(name: String, app: String, schemes: [String])] = [
        ("Phone", "com.apple.mobilephone", ["tel", "facetime", "facetime-audio"]),
        ("Maps", "com.apple.Maps", ["maps"]),
        ("AppStore", "com.apple.AppStore", ["itms-apps", "itms-appss"]),
    ]

    /// Whether the handler takes a file of `type`.
    public func takes(_ type: UniformTypeIdentifier, registry: TypeRegistry) -> Bool {
        types.contains { registry.conforms(type, to: $0) }
    }
}

/// The App Store's document-type lookup the "Get App" action of an unsupported AirDrop opens
/// (`itms-apps://…/docTypeLookup?uti=<type>`, `?scheme=<scheme>` for a link).
public enum AirDropGetApp {
    /// The lookup for files of `type` (the sender's declared identifier).
    public static func url(forType type: String) -> String {
        base + "?uti=" + (type.addingPercentEncoding(withAllowedCharacters: allowed) ?? type)
    }

    /// The lookup for links of `scheme`.
    public static func url(forScheme scheme: String) -> String {
        base + "?scheme=" + (scheme.addingPercentEncoding(withAllowedCharacters: allowed) ?? scheme)
    }

    static let base = "itms-apps://itunes.apple.com/WebObjects/MZStore.woa/wa/docTypeLookup"
    static let allowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#?")
        return set
    }()
}

/// What the person's device shows for an AirDrop transfer of files, and who takes it: the
/// handler order (a system handler first, then GenericFiles with the apps every file has in
/// common, then UnsupportedType).
public struct AirDropFileRouting: Sendable {
    /// The handler that takes the transfer.
    public var handler: AirDropHandlerChoice
    /// The system handler, when one takes it.
    public var system: AirDropSystemHandler?
    /// For GenericFiles: the apps that open every file, best first.
    public var apps: [LaunchHandler]
    /// For UnsupportedType: the Get App lookup (nil when the files have apps, but no app in common).
    public var getApp: String?
    /// For UnsupportedType: the sender's declared type of the first file no app opens.
    public var requiredType: String?

    /// Routes `files` (each with the type the receiver gives it and the sender's declared type);
    /// `folder` is the name of the folder sent (its entries are `files`), if any.
    public static func route(
        _ files: [(name: String, type: UniformTypeIdentifier, declared: String)], folder: String?,
        bundles: InstalledBundles
    ) -> AirDropFileRouting {
        var declined: [String] = []
        let registry = bundles.registry
        if folder == nil {
            for system in AirDropSystemHandler.files {
                if files.allSatisfy({ system.takes($0.type, registry: registry) }) {
                    let types = Set(files.map(\.type.rawValue)).sorted().joined(separator: ", ")
                    let reason =
                        "\(types) conforms to \(system.types.map(\.rawValue).joined(separator: " or ")): the "
                        + "\(system.name) handler (\(system.title)) comes before GenericFiles, so no "
                        + "third-party app is asked"
                    return AirDropFileRouting(
                        handler: AirDropHandlerChoice(
                            name: system.name, app: system.app, reason: reason, declined: declined),
                        system: system, apps: [], getApp: nil, requiredType: nil)
                }
                declined.append(system.name)
            }
        } else {
            declined = AirDropSystemHandler.files.map(\.name)
        }
        // GenericFiles: the apps for every file (a folder counts as one item of type public.folder,
        // which the Files app opens), intersected.
        var common: [LaunchHandler]?
        var withoutApps: (name: String, declared: String)?
        let items: [(name: String, type: UniformTypeIdentifier, declared: String)] =
            folder.map { [($0, "public.folder", "public.folder")] } ?? files
        for item in items {
            var apps = bundles.handlers(forType: item.type, name: item.name).handlers
            if registry.conforms(item.type, to: .directory), !apps.contains(where: { $0.bundleIdentifier == filesApp })
            {
                apps.append(
                    LaunchHandler(
                        bundleIdentifier: filesApp, rank: "System",
                        reason: "the Files app opens folders"))
            }
            if apps.isEmpty, withoutApps == nil { withoutApps = (item.name, item.declared) }
            let identifiers = Set(apps.map(\.bundleIdentifier))
            common = common.map { $0.filter { identifiers.contains($0.bundleIdentifier) } } ?? apps
        }
        let apps = common ?? []
        if !apps.isEmpty {
            let reason =
                items.count == 1
                ? "no system handler takes \(items[0].type); GenericFiles offers the apps that open it"
                : "no system handler takes all \(items.count) files; GenericFiles offers the apps that open every one "
                    + "of them (the intersection of each file's apps)"
            return AirDropFileRouting(
                handler: AirDropHandlerChoice(
                    name: "GenericFiles", app: apps[0].bundleIdentifier, reason: reason, declined: declined),
                system: nil, apps: apps, getApp: nil, requiredType: nil)
        }
        declined.append("GenericFiles")
        let reason: String
        let getApp: String?
        if let withoutApps {
            reason =
                "no installed app opens \(withoutApps.name) (declared \(withoutApps.declared)): the file requires an app"
            getApp = AirDropGetApp.url(forType: withoutApps.declared)
        } else {
            reason = "each file has apps, but no app opens all \(items.count) of them: the files require an app"
            getApp = nil
        }
        return AirDropFileRouting(
            handler: AirDropHandlerChoice(name: "UnsupportedType", app: nil, reason: reason, declined: declined),
            system: nil, apps: [], getApp: getApp, requiredType: withoutApps?.declared)
    }

    static var filesApp: String { AirDropSystemHandler.filesApp }

    /// The legacy flow's automatic open: exactly one app, and it is Apple's (not TapToRadar).
    public var legacyAutomatic: Bool {
        apps.count == 1 && apps[0].bundleIdentifier.hasPrefix("com.apple.")
            && apps[0].bundleIdentifier != "com.apple.TapToRadar"
    }
}

/// Who takes an AirDropped link: a system app for its scheme, else GenericLinks (the first app
/// registering a custom scheme, opened directly), else WebLinks (`http`/`https` in Safari), else
/// UnsupportedType.
public struct AirDropLinkRouting: Sendable {
    /// The handler that takes it.
    public var handler: AirDropHandlerChoice
    /// The third-party app that receives the URL (GenericLinks), if any.
    public var app: String?
    /// The apps registering the scheme.
    public var apps: [LaunchHandler]
    /// For UnsupportedType: the Get App lookup for the scheme.
    public var getApp: String?

    /// Routes `url` (which has a scheme).
    public static func route(_ url: URL, bundles: InstalledBundles) -> AirDropLinkRouting {
        let scheme = url.scheme?.lowercased() ?? ""
        var declined = AirDropSystemHandler.files.map(\.name) + ["GenericFiles"]
        for link in AirDropSystemHandler.links {
            if link.schemes.contains(scheme) {
                return AirDropLinkRouting(
                    handler: AirDropHandlerChoice(
                        name: link.name, app: link.app,
                        reason: "\(scheme): links go to the \(link.name) handler before any third-party app",
                        declined: declined),
                    app: nil, apps: [], getApp: nil)
            }
            declined.append(link.name)
        }
        if scheme == "http" || scheme == "https" {
            declined.append("GenericLinks")
            return AirDropLinkRouting(
                handler: AirDropHandlerChoice(
                    name: "WebLinks", app: AirDropSystemHandler.safari,
                    reason:
                        "a web link: sharingd opens the universal-link app for its domain when one claims it, else "
                        + "Safari; exthost does not model associated domains, so it opens in Safari",
                    declined: declined),
                app: nil, apps: [], getApp: nil)
        }
        let decision = bundles.handlers(forURL: url)
        if let first = decision.handlers.first {
            let reason =
                decision.handlers.count == 1
                ? "\(first.bundleIdentifier) registers the scheme \(scheme) (CFBundleURLTypes): GenericLinks opens it "
                    + "directly"
                : "\(decision.handlers.count) apps register \(scheme): GenericLinks takes the first "
                    + "(\(first.bundleIdentifier)) and opens it directly"
            return AirDropLinkRouting(
                handler: AirDropHandlerChoice(
                    name: "GenericLinks", app: first.bundleIdentifier, reason: reason, declined: declined),
                app: first.bundleIdentifier, apps: decision.handlers, getApp: nil)
        }
        declined += ["GenericLinks", "WebLinks"]
        return AirDropLinkRouting(
            handler: AirDropHandlerChoice(
                name: "UnsupportedType", app: nil,
                reason: "no installed app registers the scheme \(scheme): the link requires an app",
                declined: declined),
            app: nil, apps: [], getApp: AirDropGetApp.url(forScheme: scheme))
    }
}
