public import Foundation

/// exthost's generic host app and share extension: what a device gets when a share names no
/// extension and none is installed, so `exthost share --rule rule.plist items/` works in any
/// folder. The app (`io.exthost.Generic`) holds no program; its extension is the built-in
/// save-to-group extension, entitled to `group.io.exthost.generic`.
public enum GenericApp {
    /// The app's bundle identifier.
    public static let bundleIdentifier = "io.exthost.Generic"
    /// The extension's bundle identifier.
    public static let extensionIdentifier = "io.exthost.Generic.Share"
    /// The App Group both are entitled to.
    public static let group = "group.io.exthost.generic"

    /// Installs the generic app on `root` (see ``DeviceRoot/install(appAt:productDirectories:defines:)``).
    /// - Returns: the installed extension bundle.
    /// - Throws: ``AppGroupError`` `.io`.
    public static func install(on root: DeviceRoot) throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exthost-generic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = scratch.appendingPathComponent("Exthost Generic.app")
        let appex = app.appendingPathComponent("PlugIns/Share.appex")
        let rule =
            "SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment, "
            + "ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.item\" OR "
            + "ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.content\").@count >= 1).@count >= 1"
        let entitlements: [String: Any] = [BundleIdentity.applicationGroupsKey: [group]]
        do {
            try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
            try write(
                [
                    "CFBundleIdentifier": bundleIdentifier, "CFBundleName": "Exthost Generic",
                    "CFBundlePackageType": "APPL", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
                ], to: app.appendingPathComponent("Info.plist"))
            try write(entitlements, to: app.appendingPathComponent("Generic.entitlements"))
            try write(
                [
                    "CFBundleIdentifier": extensionIdentifier, "CFBundleName": "Share",
                    "CFBundleDisplayName": "Save to Exthost", "CFBundlePackageType": "XPC!",
                    "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
                    "NSExtension": [
                        "NSExtensionPointIdentifier": "com.apple.share-services",
                        "NSExtensionAttributes": ["NSExtensionActivationRule": rule],
                    ] as [String: Any],
                ], to: appex.appendingPathComponent("Info.plist"))
            try write(entitlements, to: appex.appendingPathComponent("Share.entitlements"))
        } catch {
            throw AppGroupError(.io, "cannot write the generic app", cause: UnderlyingFailure(error))
        }
        let report = try root.install(appAt: app)
        return URL(fileURLWithPath: report.bundlePath).appendingPathComponent("PlugIns/Share.appex")
    }

    private static func write(_ plist: [String: Any], to url: URL) throws {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: url)
    }
}
