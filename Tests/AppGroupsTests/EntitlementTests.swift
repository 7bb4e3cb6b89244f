import AppGroups
import Foundation
import Testing

struct EntitlementTests {
    @Test func aBundleNotListingTheGroupGetsNoContainerAndANamedError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let identity = try scratch.extensionIdentity()
        #expect(identity.bundleIdentifier == "com.example.carddrop.Share")
        #expect(identity.kind == .appExtension)
        let other = try AppGroupIdentifier(validating: "group.com.example.other")
        #expect(scratch.root.containerURL(forSecurityApplicationGroupIdentifier: other.rawValue, as: identity) == nil)
        let error = try #require(throws: AppGroupError.self) {
            try AppGroupStore.open(other, as: identity, root: scratch.root)
        }
        #expect(error.code == .notEntitled)
        #expect(error.message.contains("group.com.example.other"))
        #expect(error.message.contains("com.example.carddrop.Share"))
        #expect(error.message.contains("Share.entitlements"))
        #expect(scratch.root.containers(of: .appGroup).isEmpty)
        #expect(scratch.root.containerURL(forSecurityApplicationGroupIdentifier: Scratch.group, as: identity) != nil)
    }

    @Test func buildSettingsExpandAndAnUnknownOneIsNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bundle = scratch.url.appendingPathComponent("Bundles/Vars.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let info: [String: Any] = ["CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundlePackageType": "XPC!"]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
        let entitlements: [String: Any] = [BundleIdentity.applicationGroupsKey: ["group.${TEAM_GROUP}"]]
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Vars.entitlements"))
        let identity = try BundleIdentity.load(
            bundle: bundle,
            defines: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.vars", "TEAM_GROUP": "com.example.vars"])
        #expect(identity.bundleIdentifier == "com.example.vars")
        #expect(identity.applicationGroups == ["group.com.example.vars"])
        let error = try #require(throws: AppGroupError.self) {
            try BundleIdentity.load(bundle: bundle, defines: ["PRODUCT_BUNDLE_IDENTIFIER": "x"])
        }
        #expect(error.code == .undefinedVariable)
        #expect(error.message.contains("TEAM_GROUP") && error.message.contains("Vars.entitlements"))
    }

    @Test(arguments: ["com.example.carddrop", "group.", "group.a/b", "group.a..b", ""])
    func refusesIdentifiersThatAreNotGroupNames(text: String) {
        #expect(AppGroupIdentifier(rawValue: text) == nil)
    }

    @Test func theContainerHasSimulatorMetadataAndKeepsItsUUID() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let first = try scratch.root.groupContainer(try scratch.groupID(), as: try scratch.extensionIdentity())
        let second = try scratch.root.groupContainer(try scratch.groupID(), as: try scratch.appIdentity())
        #expect(first.uuid == second.uuid)
        #expect(first.url.deletingLastPathComponent().path.hasSuffix("Shared/AppGroup"))
        let metadata = try ContainerMetadata.read(containerAt: first.url)
        #expect(metadata.identifier == Scratch.group && metadata.kind == .appGroup)
        for folder in ["Library/Caches", "Library/Preferences"] {
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(
                    atPath: first.url.appendingPathComponent(folder).path, isDirectory: &isDirectory))
        }
        let plugin = try scratch.root.dataContainer(for: try scratch.extensionIdentity())
        #expect(plugin.url.path.contains("Data/PluginKitPlugin"))
        #expect(FileManager.default.fileExists(atPath: plugin.url.appendingPathComponent("tmp").path))
    }
}
