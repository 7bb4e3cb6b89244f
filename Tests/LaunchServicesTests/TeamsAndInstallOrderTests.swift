import AppGroups
import ExtHostTestSupport
import Foundation
import LaunchServices
import Testing

/// Teams (`sourceApplication` only within a team) and install order (the later install takes a
/// filename extension two apps declare different types for; uninstalling gives it back), through
/// `DeviceRoot.install` and `InstalledBundles`. Evidence: the reference on ways into the app,
/// §A.1 (frankshaka/uti-race-demo) and §A.4 (`UIApplication.OpenURLOptionsKey.sourceApplication`).
@Suite
struct TeamsAndInstallOrderTests {
    /// An app bundle `name.app` in `folder` (outside the device), with `entitlements` when given.
    static func app(
        _ name: String, _ identifier: String, in folder: URL, _ keys: [String: Any] = [:],
        entitlements: [String: Any]? = nil
    ) throws -> URL {
        let bundle = folder.appendingPathComponent("\(name).app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: Any] = ["CFBundleIdentifier": identifier, "CFBundleName": name]
        info.merge(keys) { $1 }
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
        if let entitlements {
            try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
                .write(to: bundle.appendingPathComponent("\(name).entitlements"))
        }
        return bundle
    }

    /// Info.plist keys exporting `type` with the filename extension `ext` and claiming it.
    static func exporting(_ type: String, extension ext: String) -> [String: Any] {
        [
            "UTExportedTypeDeclarations": [
                [
                    "UTTypeIdentifier": type, "UTTypeConformsTo": ["public.data", "public.content"],
                    "UTTypeTagSpecification": ["public.filename-extension": [ext]],
                ]
            ],
            "CFBundleDocumentTypes": [
                ["CFBundleTypeName": "Doc", "LSHandlerRank": "Owner", "LSItemContentTypes": [type]]
            ],
            "LSSupportsOpeningDocumentsInPlace": false,
        ]
    }

    static func team(_ id: String, _ bundle: String) -> [String: Any] { ["application-identifier": "\(id).\(bundle)"] }

    @Test func installRecordsTheTeamAndAGrowingSequenceAndUninstallRemovesTheRecord() throws {
        let scratch = try TestSupport.scratchRoot("teams")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let root = DeviceRoot(url: scratch.appendingPathComponent("device"))
        let first = try root.install(
            appAt: try Self.app(
                "One", "com.example.one", in: scratch, entitlements: Self.team("ABCDE12345", "com.example.one")))
        let second = try root.install(
            appAt: try Self.app(
                "Two", "com.example.two", in: scratch,
                entitlements: ["com.apple.developer.team-identifier": "ZYXWV98765"]))
        #expect(first.sequence == 1 && first.teamIdentifier == "ABCDE12345")
        #expect(second.sequence == 2 && second.teamIdentifier == "ZYXWV98765")
        // Installing again (an update) registers again: a new number.
        let again = try root.install(appAt: scratch.appendingPathComponent("One.app"))
        #expect(again.sequence == 3 && again.replaced)
        var records = try root.installRecords()
        #expect(records.records.map(\.bundleIdentifier) == ["com.example.two", "com.example.one"])
        #expect(records.nextSequence == 4)
        try root.uninstall(bundleIdentifier: "com.example.one")
        records = try root.installRecords()
        #expect(records.records.map(\.bundleIdentifier) == ["com.example.two"])
        #expect(records.nextSequence == 4, "a number is never reused")
        // The file is a property list in the device root, read back by a new reader.
        let file = root.url.appendingPathComponent(InstallRecords.fileName)
        let decoded = try PropertyListDecoder().decode(InstallRecords.self, from: Data(contentsOf: file))
        #expect(decoded == records)
    }

    @Test func aBadApplicationIdentifierIsRefusedWithItsFileAndNothingIsInstalled() throws {
        let scratch = try TestSupport.scratchRoot("teams")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let root = DeviceRoot(url: scratch.appendingPathComponent("device"))
        let bad = try Self.app(
            "Bad", "com.example.bad", in: scratch, entitlements: ["application-identifier": "nodot"])
        #expect {
            try root.install(appAt: bad)
        } throws: { error in
            "\(error)".contains("Bad.entitlements") && "\(error)".contains("<team ID>.<bundle identifier>")
        }
        #expect(!FileManager.default.fileExists(atPath: root.bundlesURL.appendingPathComponent("Bad.app").path))
        #expect(try root.installRecords().records.isEmpty)
        // An unexpanded $(AppIdentifierPrefix) leaves the team unknown, as an unsigned build.
        let unsigned = try Self.app(
            "Unsigned", "com.example.unsigned", in: scratch,
            entitlements: ["application-identifier": "$(AppIdentifierPrefix)com.example.unsigned"])
        #expect(try root.install(appAt: unsigned).teamIdentifier == nil)
        let signed = try root.install(appAt: unsigned, defines: ["AppIdentifierPrefix": "QWERT12345."])
        #expect(signed.teamIdentifier == "QWERT12345")
        // A project without DEVELOPMENT_TEAM expands the prefix to ".": no team, not an error.
        #expect(try root.install(appAt: unsigned, defines: ["AppIdentifierPrefix": "."]).teamIdentifier == nil)
    }

    @Test func sourceApplicationIsGivenOnlyWithinATeam() throws {
        let scratch = try TestSupport.scratchRoot("teams")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let root = DeviceRoot(url: scratch.appendingPathComponent("device"))
        for (name, id, team) in [
            ("Receiver", "com.example.receiver", "ABCDE12345"), ("Sibling", "com.example.sibling", "ABCDE12345"),
            ("Stranger", "com.other.stranger", "ZYXWV98765"),
        ] {
            try root.install(appAt: try Self.app(name, id, in: scratch, entitlements: Self.team(team, id)))
        }
        try root.install(appAt: try Self.app("Teamless", "com.example.teamless", in: scratch))
        let bundles = InstalledBundles(root: root)
        let same = bundles.sourceApplication(from: "com.example.sibling", to: "com.example.receiver")
        #expect(same.value == "com.example.sibling", "\(same.reason)")
        #expect(same.reason.contains("ABCDE12345"))
        let other = bundles.sourceApplication(from: "com.other.stranger", to: "com.example.receiver")
        #expect(other.value == nil && other.reason.contains("different team"), "\(other.reason)")
        let absent = bundles.sourceApplication(from: "com.example.gone", to: "com.example.receiver")
        #expect(absent.value == nil && absent.reason.contains("not installed"), "\(absent.reason)")
        let teamless = bundles.sourceApplication(from: "com.example.teamless", to: "com.example.receiver")
        #expect(teamless.value == nil && teamless.reason.contains("no team ID"), "\(teamless.reason)")
        #expect(bundles.sourceApplication(from: nil, to: "com.example.receiver").value == nil)
    }

    @Test func theLaterInstallTakesAnExtensionAndUninstallingItGivesItBack() throws {
        let scratch = try TestSupport.scratchRoot("teams")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let root = DeviceRoot(url: scratch.appendingPathComponent("device"))
        // Folder names sort against install order: "Zeta" is installed first, "Alpha" second.
        let zeta = try Self.app(
            "Zeta", "com.example.zeta", in: scratch, Self.exporting("com.example.zeta.innocent", extension: "innocent"))
        let alpha = try Self.app(
            "Alpha", "com.example.alpha", in: scratch,
            Self.exporting("com.example.alpha.innocent", extension: "innocent"))
        try root.install(appAt: zeta)
        var decision = InstalledBundles(root: root).handlers(forFile: URL(fileURLWithPath: "/x/a.innocent"))
        #expect(decision.typeIdentifier == "com.example.zeta.innocent")
        #expect(decision.chosen == "com.example.zeta")

        try root.install(appAt: alpha)
        decision = InstalledBundles(root: root).handlers(forFile: URL(fileURLWithPath: "/x/a.innocent"))
        #expect(decision.typeIdentifier == "com.example.alpha.innocent")
        #expect(decision.chosen == "com.example.alpha")
        let choice = try #require(decision.typeChoice)
        #expect(choice.candidates.map(\.bundleIdentifier) == ["com.example.alpha", "com.example.zeta"])
        #expect(choice.candidates.map(\.installOrder) == ["install #2", "install #1"])
        #expect(choice.reason.contains("later install"), "\(choice.reason)")

        try root.uninstall(bundleIdentifier: "com.example.alpha")
        decision = InstalledBundles(root: root).handlers(forFile: URL(fileURLWithPath: "/x/a.innocent"))
        #expect(decision.typeIdentifier == "com.example.zeta.innocent")
        #expect(decision.typeChoice?.reason.contains("only com.example.zeta") == true)
    }

    @Test func bundlesWithoutARecordCountAsInstalledFirstInDiscoveryOrder() throws {
        let scratch = try TestSupport.scratchRoot("teams")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Placed by hand (no record): discovered in folder-name order, so Beta after Aardvark.
        try TestSupport.installApp(
            "Beta", "com.example.beta", on: scratch, Self.exporting("com.example.beta.innocent", extension: "innocent"))
        try TestSupport.installApp(
            "Aardvark", "com.example.aardvark", on: scratch,
            Self.exporting("com.example.aardvark.innocent", extension: "innocent"))
        let root = DeviceRoot(url: scratch)
        var bundles = InstalledBundles(root: root)
        let beta = try #require(bundles.app("com.example.beta"))
        let aardvark = try #require(bundles.app("com.example.aardvark"))
        #expect(aardvark.installOrder.sequence == nil && beta.installOrder.sequence == nil)
        #expect(aardvark.installOrder.position < beta.installOrder.position)
        #expect(beta.installOrder.description.contains("without an install record"))
        #expect(bundles.typeChoice(forFilenameExtension: "innocent").typeIdentifier == "com.example.beta.innocent")

        // An app installed with exthost comes after every discovered one, whatever its folder name.
        try root.install(
            appAt: try Self.app(
                "AAA", "com.example.aaa", in: scratch.appendingPathComponent("src", isDirectory: true),
                Self.exporting("com.example.aaa.innocent", extension: "innocent")))
        bundles = InstalledBundles(root: root)
        #expect(bundles.apps.last?.identifier == "com.example.aaa")
        #expect(bundles.app("com.example.aaa")?.installOrder.description == "install #1")
        let choice = bundles.typeChoice(forFilenameExtension: "INNOCENT")
        #expect(choice.typeIdentifier == "com.example.aaa.innocent")
        #expect(choice.candidates.first?.installOrder == "install #1")
        // A public type beats every app's declaration of its extension.
        #expect(bundles.typeChoice(forFilenameExtension: "pdf").typeIdentifier == "com.adobe.pdf")
    }
}
