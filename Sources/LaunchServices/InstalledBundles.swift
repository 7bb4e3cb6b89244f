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

        /// Whether a document type of the app is `type` or one it conforms to (`LSHandlerRank`
        /// `None` never opens a type).
        public func claims(_ type: UniformTypeIdentifier, registry: TypeRegistry) -> Bool {
            documentClaims.contains { $0.rank != "None" && registry.conforms(type, to: $0.type) }
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

    /// The apps, by bundle path.
    public var apps: [App]
    /// The extensions, by bundle path.
    public var extensions: [Extension]
    /// The system's types and those every installed bundle declares (`UTExportedTypeDeclarations`,
    /// `UTImportedTypeDeclarations`), as the device's type database holds them.
    public var registry: TypeRegistry
    /// The `Info.plist` files ``registry`` reads declarations from.
    public var declarationFiles: [URL]

    /// What `root` has installed. An unreadable `Info.plist` leaves its bundle out.
    public init(root: DeviceRoot) {
        var apps: [App] = []
        var extensions: [Extension] = []
        var declarations: [URL] = []
        var currentApp: String?
        for url in root.bundleURLs() {
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
        self.registry = TypeRegistry.declared(in: declarations)
        self.declarationFiles = declarations
    }
}
