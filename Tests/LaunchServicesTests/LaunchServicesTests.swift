import ActivationRules
import AppGroups
import ExtHostTestSupport
import Foundation
import LaunchServices
import Testing

/// Which app opens a file or URL, one test per routing rule (evidence: the reference on ways into
/// the app, section A), through `InstalledBundles`.
@Suite
struct LaunchServicesTests {
    static func decide(_ name: String, on root: URL) -> LaunchDecision {
        InstalledBundles(root: DeviceRoot(url: root)).handlers(forFile: URL(fileURLWithPath: "/nowhere/\(name)"))
    }

    @Test func theAppThatExportsTheTypeComesFirst() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installApp(
            "AViewer", "com.example.aviewer", on: root,
            TestSupport.claiming(["com.example.carddrop.card"], rank: "Owner"))
        let decision = Self.decide("alice.card", on: root)
        #expect(decision.typeIdentifier == "com.example.carddrop.card")
        #expect(decision.handlers.map(\.bundleIdentifier) == ["com.example.carddrop", "com.example.aviewer"])
        #expect(decision.chosen == "com.example.carddrop")
    }

    @Test func handlerRankOrdersTheOthersAndNoneNeverOpens() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installApp(
            "Annotate", "com.example.annotate", on: root, TestSupport.claiming(["com.adobe.pdf"]))  // Default
        try TestSupport.installApp(
            "Dropper", "com.example.dropper", on: root, TestSupport.claiming(["com.adobe.pdf"], rank: "None"))
        let decision = Self.decide("menu.pdf", on: root)
        #expect(decision.handlers.map(\.bundleIdentifier) == ["com.example.annotate", "com.example.reader"])
        #expect(decision.handlers.map(\.rank) == ["Default", "Alternate"])
    }

    @Test func anExactClaimBeatsABroadOneOfTheSameRankAndABroadClaimIsInEveryList() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installApp(
            "AAllFiles", "com.example.allfiles", on: root, TestSupport.claiming(["public.data"], rank: "Alternate"))
        let pdf = Self.decide("menu.pdf", on: root)
        #expect(pdf.handlers.map(\.bundleIdentifier) == ["com.example.reader", "com.example.allfiles"])
        let text = Self.decide("note.txt", on: root)
        #expect(text.chosen == "com.example.allfiles")
        // An extension nobody declares is a dyn. type: only a public.data claim takes it.
        let unknown = Self.decide("x.zzz", on: root)
        #expect(unknown.typeIdentifier?.hasPrefix("dyn.") == true)
        #expect(unknown.handlers.map(\.bundleIdentifier) == ["com.example.allfiles"])
    }

    @Test func aClaimantOfRankNoneIsNamedWhenNoAppOpensTheFile() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installApp(
            "Dropper", "com.example.dropper", on: root,
            TestSupport.claiming(["public.comma-separated-values-text"], rank: "None"))
        let decision = Self.decide("table.csv", on: root)
        #expect(decision.chosen == nil && decision.handlers.isEmpty)
        #expect(
            decision.reason.hasPrefix(
                "com.example.dropper claims public.comma-separated-values-text only with "
                    + "LSHandlerRank None, which never opens it"), "\(decision.reason)")
        #expect(!decision.reason.contains("no installed app claims"))
    }

    @Test func aSingleStringForLSItemContentTypesIsAccepted() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installApp(
            "Notes2", "com.example.notes2", on: root, TestSupport.claiming("public.plain-text", rank: "Owner"))
        #expect(Self.decide("note.txt", on: root).chosen == "com.example.notes2")
    }

    @Test func customSchemesGoToTheirAppAndWebLinksToSafari() throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let scheme: [String: Any] = [
            "CFBundleURLTypes": [["CFBundleURLName": "x", "CFBundleURLSchemes": ["cardswap"]]]
        ]
        try TestSupport.installApp("Alpha", "com.example.alpha", on: root, scheme)
        let bundles = InstalledBundles(root: DeviceRoot(url: root))
        let one = bundles.handlers(forURL: try #require(URL(string: "cardswap://card/alice")))
        #expect(one.chosen == "com.example.alpha" && one.reason.hasPrefix("the only app"))
        try TestSupport.installApp("Beta", "com.example.beta", on: root, scheme)
        let two = InstalledBundles(root: DeviceRoot(url: root)).handlers(
            forURL: try #require(URL(string: "CardSwap://card/alice")))
        #expect(two.handlers.count == 2 && two.reason.contains("undefined"), "\(two.reason)")
        let web = bundles.handlers(forURL: try #require(URL(string: "https://example.com")))
        #expect(web.chosen == "com.apple.mobilesafari")
        #expect(bundles.handlers(forURL: try #require(URL(string: "nobody://x"))).chosen == nil)
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
}

/// The Info.plist checks of the ways into an app (`exthost app lint` renders them).
@Suite
struct InfoPlistLintTests {
    @Test func documentTypesWithoutInPlaceOrBrowserAreRejectedAndBroadClaimsWarned() throws {
        let root = try TestSupport.scratchRoot("lint")
        defer { try? FileManager.default.removeItem(at: root) }
        var keys = TestSupport.claiming(["public.data", "com.example.nobody"], rank: "Sometimes")
        keys["CFBundleURLTypes"] = [["CFBundleURLSchemes": ["carddrop"]]]
        try TestSupport.installApp("Greedy", "com.example.greedy", on: root, keys)
        let installed = InstalledBundles(root: DeviceRoot(url: root))
        let findings = InfoPlistLint.lint(
            appAt: root.appendingPathComponent("Bundles/Greedy.app"), installed: installed)
        let codes = findings.map(\.code)
        for expected in ["ITMS-90737", "handler-rank", "broad-claim", "undeclared-type", "shared-scheme"] {
            #expect(codes.contains(RuleDiagnostic.Code(expected)), "\(expected) in \(codes)")
        }
        #expect(findings.allSatisfy { $0.line != nil }, "each finding names its line in the Info.plist")
        let reader = InfoPlistLint.lint(appAt: root.appendingPathComponent("Bundles/Reader.app"), installed: installed)
        #expect(reader.isEmpty, "\(reader)")
        let missing = InfoPlistLint.lint(appAt: root.appendingPathComponent("Bundles/None.app"), installed: installed)
        #expect(missing.map(\.code) == ["unreadable"])
    }
}
