import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import ShareSheet
import Testing

@testable import ExtHostCommands

/// Which app opens a file or URL, one test per routing rule (evidence: the reference on ways into
/// the app, section A), through `InstalledBundles` and `exthost open`.
@Suite
struct LaunchServicesTests {
    /// Installs an app bundle `name.app` with the given Info.plist keys on `root`.
    static func app(_ name: String, _ identifier: String, on root: URL, _ keys: [String: Any]) throws {
        let bundle = root.appendingPathComponent("Bundles/\(name).app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: Any] = ["CFBundleIdentifier": identifier, "CFBundleName": name]
        info.merge(keys) { $1 }
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
    }

    static func claiming(_ types: Any, rank: String? = nil) -> [String: Any] {
        var entry: [String: Any] = ["CFBundleTypeName": "Doc", "LSItemContentTypes": types]
        if let rank { entry["LSHandlerRank"] = rank }
        return ["CFBundleDocumentTypes": [entry]]
    }

    static func decide(_ name: String, on root: URL) -> LaunchDecision {
        InstalledBundles(root: DeviceRoot(url: root)).handlers(forFile: URL(fileURLWithPath: "/nowhere/\(name)"))
    }

    @Test func theAppThatExportsTheTypeComesFirst() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.app(
            "AViewer", "com.example.aviewer", on: root, Self.claiming(["com.example.carddrop.card"], rank: "Owner"))
        let decision = Self.decide("alice.card", on: root)
        #expect(decision.typeIdentifier == "com.example.carddrop.card")
        #expect(decision.handlers.map(\.bundleIdentifier) == ["com.example.carddrop", "com.example.aviewer"])
        #expect(decision.chosen == "com.example.carddrop")
    }

    @Test func handlerRankOrdersTheOthersAndNoneNeverOpens() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.app("Annotate", "com.example.annotate", on: root, Self.claiming(["com.adobe.pdf"]))  // Default
        try Self.app("Dropper", "com.example.dropper", on: root, Self.claiming(["com.adobe.pdf"], rank: "None"))
        let decision = Self.decide("menu.pdf", on: root)
        #expect(decision.handlers.map(\.bundleIdentifier) == ["com.example.annotate", "com.example.reader"])
        #expect(decision.handlers.map(\.rank) == ["Default", "Alternate"])
    }

    @Test func anExactClaimBeatsABroadOneOfTheSameRankAndABroadClaimIsInEveryList() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.app("AAllFiles", "com.example.allfiles", on: root, Self.claiming(["public.data"], rank: "Alternate"))
        let pdf = Self.decide("menu.pdf", on: root)
        #expect(pdf.handlers.map(\.bundleIdentifier) == ["com.example.reader", "com.example.allfiles"])
        let text = Self.decide("note.txt", on: root)
        #expect(text.chosen == "com.example.allfiles")
        // An extension nobody declares is a dyn. type: only a public.data claim takes it.
        let unknown = Self.decide("x.zzz", on: root)
        #expect(unknown.typeIdentifier?.hasPrefix("dyn.") == true)
        #expect(unknown.handlers.map(\.bundleIdentifier) == ["com.example.allfiles"])
    }

    @Test func aFileNoAppClaimsRequiresAnApp() async throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("x.zzz")
        try Data("?".utf8).write(to: file)
        let (code, out, _) = await TestSupport.run(["open", file.path], root: root)
        #expect(code == .no)
        #expect(out.contains("requires an app"), "\(out)")
    }

    @Test func aSingleStringForLSItemContentTypesIsAccepted() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.app("Notes2", "com.example.notes2", on: root, Self.claiming("public.plain-text", rank: "Owner"))
        #expect(Self.decide("note.txt", on: root).chosen == "com.example.notes2")
    }

    @Test func customSchemesGoToTheirAppAndWebLinksToSafari() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let scheme: [String: Any] = [
            "CFBundleURLTypes": [["CFBundleURLName": "x", "CFBundleURLSchemes": ["cardswap"]]]
        ]
        try Self.app("Alpha", "com.example.alpha", on: root, scheme)
        let bundles = InstalledBundles(root: DeviceRoot(url: root))
        let one = bundles.handlers(forURL: try #require(URL(string: "cardswap://card/alice")))
        #expect(one.chosen == "com.example.alpha" && one.reason.hasPrefix("the only app"))
        try Self.app("Beta", "com.example.beta", on: root, scheme)
        let two = InstalledBundles(root: DeviceRoot(url: root)).handlers(
            forURL: try #require(URL(string: "CardSwap://card/alice")))
        #expect(two.handlers.count == 2 && two.reason.contains("undefined"), "\(two.reason)")
        let web = bundles.handlers(forURL: try #require(URL(string: "https://example.com")))
        #expect(web.chosen == "com.apple.mobilesafari")
        #expect(bundles.handlers(forURL: try #require(URL(string: "nobody://x"))).chosen == nil)
    }

    @Test func aCustomSchemeURLReachesTheAppThatRegistersIt() async throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, out, err) = await TestSupport.run(["open", "carddrop://card/alice", "--json"], root: root)
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(OpenCommand.Report.self, from: Data(out.utf8))
        #expect(report.decision.chosen == "com.example.carddrop")
        let delivery = try #require(report.delivery)
        #expect(delivery.url == "carddrop://card/alice")
        #expect(delivery.method == "willConnectTo")
        let output = delivery.app?.run?.output ?? ""
        #expect(output.contains("opened carddrop://card/alice"), "\(output)")
    }

    @Test func aSecondCopyOfTheSameNameIsNumberedInTheInbox() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let pdf = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems/menu.pdf")
        let bundles = InstalledBundles(root: DeviceRoot(url: root))
        let first = try bundles.deliver(file: pdf, to: "com.example.reader", on: DeviceRoot(url: root))
        let second = try bundles.deliver(file: pdf, to: "com.example.reader", on: DeviceRoot(url: root))
        #expect(URL(string: first.url)?.lastPathComponent == "menu.pdf")
        #expect(URL(string: second.url)?.lastPathComponent == "menu-1.pdf")
        #expect(!first.openInPlace && first.inbox == second.inbox)
    }

    @Test func aCopyLandsInTheInboxAndAnInPlaceAppGetsTheOriginal() async throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let pdf = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems/menu.pdf")
        let (code, out, err) = await TestSupport.run(["open", pdf.path, "--json"], root: root)
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(OpenCommand.Report.self, from: Data(out.utf8))
        let delivery = try #require(report.delivery)
        #expect(!delivery.openInPlace)
        let copy = try #require(URL(string: delivery.url))
        #expect(copy.path.contains("/Documents/Inbox/menu.pdf"))
        // Reader has no program: the built-in app ran cold, without scenes, and moved the copy out of
        // its Inbox into Documents/Received, as Apple advises.
        let app = try #require(delivery.app)
        #expect(delivery.method == "application-open")
        #expect(app.start == "cold")
        #expect(app.delivery.method == .applicationOpen)
        let kept = copy.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Received/menu.pdf")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: pdf))
        #expect(!FileManager.default.fileExists(atPath: copy.path))

        var keys = Self.claiming(["com.adobe.pdf"], rank: "Owner")
        keys["LSSupportsOpeningDocumentsInPlace"] = true
        try Self.app("InPlace", "com.example.inplace", on: root, keys)
        let (_, inPlace, _) = await TestSupport.run(["open", pdf.path, "--json"], root: root)
        let second = try JSONDecoder().decode(OpenCommand.Report.self, from: Data(inPlace.utf8))
        #expect(second.decision.chosen == "com.example.inplace")
        let original = try #require(second.delivery)
        #expect(original.openInPlace)
        #expect(URL(string: original.url)?.path == pdf.standardizedFileURL.path)
    }
}

/// `exthost app lint`: what App Store validation rejects and what puts an app where it should not be.
@Suite
struct AppLintTests {
    @Test func documentTypesWithoutInPlaceOrBrowserAreRejectedAndBroadClaimsWarned() async throws {
        let root = try TestSupport.scratchRoot("lint")
        defer { try? FileManager.default.removeItem(at: root) }
        var keys = LaunchServicesTests.claiming(["public.data", "com.example.nobody"], rank: "Sometimes")
        keys["CFBundleURLTypes"] = [["CFBundleURLSchemes": ["carddrop"]]]
        try LaunchServicesTests.app("Greedy", "com.example.greedy", on: root, keys)
        try LaunchServicesTests.app(
            "Other", "com.example.other", on: root, ["CFBundleURLTypes": [["CFBundleURLSchemes": ["CardDrop"]]]])
        let app = root.appendingPathComponent("Bundles/Greedy.app")
        let (code, out, _) = await TestSupport.run(["app", "lint", app.path, "--json"], root: root)
        #expect(code == .failure)
        let report = try JSONDecoder().decode(AppLintCommand.Report.self, from: Data(out.utf8))
        let codes = report.diagnostics.map(\.code)
        for expected in ["ITMS-90737", "handler-rank", "broad-claim", "undeclared-type", "shared-scheme"] {
            #expect(codes.contains(expected), "\(expected) in \(codes)")
        }
        let first = try #require(report.diagnostics.first)
        #expect(first.line != nil, "a finding names its line in the Info.plist")

        let (clean, text, _) = await TestSupport.run(
            ["app", "lint", root.appendingPathComponent("Bundles/Reader.app").path], root: root)
        #expect(clean == .success)
        #expect(text.contains("no findings"))
    }
}
