import ExtHostTestSupport
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost install` records the install order and team; `types for-extension --installed` and
/// `open --dry-run` say which install won a filename extension two apps declare different types
/// for; `uninstall` gives it back (the reference on ways into the app, §A.1: "After the second app
/// is installed, every `.innocent` file is typed with the second app's UTI"; deleting it restores
/// the first).
@Suite
struct InstallOrderCommandTests {
    /// `name.app` in `folder` exporting `type` for `.innocent`, of team `team`.
    static func app(_ name: String, _ identifier: String, type: String, team: String, in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("\(name).app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let info: [String: Any] = [
            "CFBundleIdentifier": identifier, "CFBundleName": name, "LSSupportsOpeningDocumentsInPlace": false,
            "UTExportedTypeDeclarations": [
                [
                    "UTTypeIdentifier": type, "UTTypeConformsTo": ["public.data", "public.content"],
                    "UTTypeTagSpecification": ["public.filename-extension": ["innocent"]],
                ]
            ],
            "CFBundleDocumentTypes": [
                ["CFBundleTypeName": "Doc", "LSHandlerRank": "Owner", "LSItemContentTypes": [type]]
            ],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
        try PropertyListSerialization.data(
            fromPropertyList: ["application-identifier": "\(team).\(identifier)"], format: .xml, options: 0
        ).write(to: bundle.appendingPathComponent("\(name).entitlements"))
        return bundle
    }

    static func object(_ out: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(out)")
    }

    @Test func theLaterInstallWinsAndTheCommandsSayWhy() async throws {
        let folder = try TestSupport.scratchRoot("order")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent("device")
        let first = try Self.app(
            "Zeta", "com.example.zeta", type: "com.example.zeta.doc", team: "ABCDE12345", in: folder)
        let second = try Self.app(
            "Alpha", "com.example.alpha", type: "com.example.alpha.doc", team: "ZYXWV98765", in: folder)
        let (one, oneOut, oneErr) = await TestSupport.run(["install", first.path, "--json"], root: root)
        #expect(one == .success, "\(oneErr)")
        let installed = try Self.object(oneOut)
        #expect(installed["sequence"] as? Int == 1 && installed["teamIdentifier"] as? String == "ABCDE12345")
        let (two, twoOut, _) = await TestSupport.run(["install", second.path], root: root)
        #expect(two == .success)
        #expect(twoOut.contains("install #2, team ZYXWV98765"), "\(twoOut)")

        let (code, out, err) = await TestSupport.run(
            ["types", "for-extension", ".innocent", "--installed", "--json"], root: root)
        #expect(code == .success, "\(err)")
        let choice = try Self.object(out)
        #expect(choice["typeIdentifier"] as? String == "com.example.alpha.doc")
        #expect((choice["reason"] as? String)?.contains("later install") == true, "\(out)")
        let candidates = try #require(choice["candidates"] as? [[String: Any]])
        #expect(candidates.compactMap { $0["installOrder"] as? String } == ["install #2", "install #1"])

        let file = folder.appendingPathComponent("note.innocent")
        try Data("x".utf8).write(to: file)
        let (dry, dryOut, _) = await TestSupport.run(["open", file.path, "--dry-run"], root: root)
        #expect(dry == .success)
        #expect(dryOut.contains("(com.example.alpha.doc)"), "\(dryOut)")
        #expect(dryOut.contains("type: com.example.alpha (install #2) was installed after"), "\(dryOut)")
        #expect(dryOut.contains("chosen: com.example.alpha"), "\(dryOut)")

        let (gone, _, goneErr) = await TestSupport.run(["uninstall", "com.example.alpha"], root: root)
        #expect(gone == .success, "\(goneErr)")
        let (_, back, _) = await TestSupport.run(["types", "for-extension", "innocent", "--installed"], root: root)
        #expect(back.hasPrefix("com.example.zeta.doc\n"), "\(back)")
        #expect(back.contains("only com.example.zeta declares .innocent"), "\(back)")

        let (usage, _, usageErr) = await TestSupport.run(
            ["types", "for-extension", "innocent", "--installed", "--all"], root: root)
        #expect(usage == .usage, "\(usageErr)")
    }
}
