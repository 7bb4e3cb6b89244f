public import AppGroups
public import Foundation
public import UniformTypes

/// What a device's installed bundles offer the share sheet: its apps with their document types,
/// its extensions with their extension points, and the types all of them declare.
public struct InstalledBundles: Sendable {
    /// An installed app.
    public struct App: Sendable {
        /// `CFBundleIdentifier`.
        public var identifier: String
        /// `CFBundleDisplayName`, else `CFBundleName`, else the bundle's file name.
        public var title: String
        /// The bundle.
        public var url: URL
        /// `LSItemContentTypes` of every `CFBundleDocumentTypes` entry, in order.
        public var documentTypes: [UniformTypeIdentifier]
        /// `LSSupportsOpeningDocumentsInPlace`: files are opened where they are rather than copied
        /// into `Documents/Inbox`.
        public var opensInPlace: Bool
        /// Each claimed type with the `LSHandlerRank` of its document type (default `Default`).
        public var documentClaims: [(type: UniformTypeIdentifier, rank: String)] = []
        /// `CFBundleURLTypes` → `CFBundleURLSchemes`, lower-cased.
        public var urlSchemes: [String] = []
        /// The team its entitlements name (`com.apple.developer.team-identifier`, else the prefix
        /// of `application-identifier`); nil when they name none.
        public var teamIdentifier: String?
        /// When it was installed, relative to the other apps.
        public var installOrder = InstallOrder(position: 0, sequence: nil)

        /// Whether a document type of the app is `type` or one it conforms to (`LSHandlerRank`
        /// `None` never opens a type).
        public func claims(_ type: UniformTypeIdentifier, registry: TypeRegistry) -> Bool {
            documentClaims.contains { $0.rank != "None" && registry.conforms(type, to: $0.type) }
        }
    }

    /// An app's place in the device's install order: the apps `exthost install` recorded by their
    /// install sequence, after every bundle found under `Bundles/` without a record (checked in, or
    /// copied there by hand), which count as installed first, in the order they are discovered
    /// (their folder names, sorted).
    public struct InstallOrder: Codable, Sendable, Hashable, CustomStringConvertible {
        /// 1 for the app installed first on the device.
        public var position: Int
        /// Its number in the install records, nil for a bundle discovered without a record.
        public var sequence: Int?

        /// A place in the order.
        public init(position: Int, sequence: Int?) {
            self.position = position
            self.sequence = sequence
        }

        /// `install #3`, or `found under Bundles/ without an install record (discovery #1)`.
        public var description: String {
            if let sequence { return "install #\(sequence)" }
            return "found under Bundles/ without an install record (discovery #\(position))"
        }
    }

    /// An installed app extension.
    public struct Extension: Sendable, Hashable {
        /// `CFBundleIdentifier`.
        public var identifier: String
        /// `CFBundleDisplayName`, else `CFBundleName`, else the bundle's file name.
        public var title: String
        /// The bundle.
        public var url: URL
        /// `NSExtension` → `NSExtensionPointIdentifier`.
        public var pointIdentifier: String?
        /// The app that contains it.
        public var appIdentifier: String?
    }

    /// The apps in install order (``InstallOrder``).
    public var apps: [App]
    /// The extensions, with their apps in install order.
    public var extensions: [Extension]
    /// The system's types and those every installed bundle declares (`UTExportedTypeDeclarations`,
    /// `UTImportedTypeDeclarations`), as the device's type database holds them.
    public var registry: TypeRegistry
    /// The `Info.plist` files ``registry`` reads declarations from, in the order it registers them
    /// (the latest install first: pass them in this order to type files as the device does).
    public var declarationFiles: [URL]

    /// What `root` has installed, in install order. An unreadable `Info.plist` leaves its bundle
    /// out; unreadable install records count as none (every bundle is then discovered).
    ///
    /// The type declarations are registered with the latest install first, so when two apps
    /// declare different types for one filename extension the later install's type is the one the
    /// extension gives (observed on iOS 11 and later: "After the second app is installed, every
    /// `.innocent` file is typed with the second app's UTI", and deleting it restores the first).
    public init(root: DeviceRoot) {
        var apps: [App] = []
        var extensions: [Extension] = []
        var declarations: [URL] = []
        var currentApp: String?
        let records = (try? root.installRecords()) ?? InstallRecords()
        // Group each app with its extensions, then order the groups: discovered, then recorded.
        var groups: [[URL]] = []
        for url in root.bundleURLs() {
            if url.pathExtension == "app" || groups.isEmpty { groups.append([]) }
            groups[groups.count - 1].append(url)
        }
        let ordered = groups.enumerated().map { index, group -> (group: [URL], key: (Int, Int)) in
            let record = group.first.flatMap { records.record(bundleName: $0.lastPathComponent) }
            return (group, record.map { (1, $0.sequence) } ?? (0, index))
        }.sorted { $0.key < $1.key }
        var position = 0
        for url in ordered.flatMap(\.group) {
            guard let info = InstalledBundle.info(url), let identifier = info["CFBundleIdentifier"] as? String else {
                continue
            }
            declarations.append(url.appendingPathComponent("Info.plist"))
            let title =
                (info["CFBundleDisplayName"] as? String) ?? (info["CFBundleName"] as? String)
                ?? url.deletingPathExtension().lastPathComponent
            if url.pathExtension == "app" {
                currentApp = identifier
                // LSItemContentTypes is an array; a single string is accepted as shipped apps write it.
                let claims = (info["CFBundleDocumentTypes"] as? [[String: Any]] ?? []).flatMap { entry in
                    let types =
                        entry["LSItemContentTypes"] as? [String] ?? (entry["LSItemContentTypes"] as? String).map {
                            [$0]
                        } ?? []
                    let rank = entry["LSHandlerRank"] as? String ?? "Default"
                    return types.map { (type: UniformTypeIdentifier($0), rank: rank) }
                }
                let schemes = (info["CFBundleURLTypes"] as? [[String: Any]] ?? []).flatMap {
                    ($0["CFBundleURLSchemes"] as? [String] ?? []).map { $0.lowercased() }
                }
                var app = App(
                    identifier: identifier, title: title, url: url, documentTypes: claims.map(\.type),
                    opensInPlace: info["LSSupportsOpeningDocumentsInPlace"] as? Bool ?? false)
                app.documentClaims = claims
                app.urlSchemes = schemes
                position += 1
                let record = records.record(bundleName: url.lastPathComponent)
                app.installOrder = InstallOrder(position: position, sequence: record?.sequence)
                app.teamIdentifier = record?.teamIdentifier ?? (try? BundleIdentity.load(bundle: url))?.teamIdentifier
                apps.append(app)
            } else {
                let point = (info["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"] as? String
                extensions.append(
                    Extension(
                        identifier: identifier, title: title, url: url, pointIdentifier: point,
                        appIdentifier: currentApp))
            }
        }
        self.apps = apps
        self.extensions = extensions
        // Latest install first: between two declarations of one tag, the registry takes the first.
        self.declarationFiles = declarations.reversed()
        self.registry = TypeRegistry.declared(in: declarationFiles)
    }
}
