import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import LaunchServices
import Testing

@testable import ExtHostCommands

/// `exthost open`: a file no app claims, a custom scheme, a copy into the Inbox and an in-place original.
@Suite
struct OpenCommandTests {
    @Test func aFileNoAppClaimsRequiresAnApp() async throws {
        let root = try TestSupport.scratchRoot("launch")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("x.zzz")
        try Data("?".utf8).write(to: file)
        let (code, out, _) = await TestSupport.run(["open", file.path], root: root)
        #expect(code == .no)
        #expect(out.contains("requires an app"), "\(out)")
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

        var keys = TestSupport.claiming(["com.adobe.pdf"], rank: "Owner")
        keys["LSSupportsOpeningDocumentsInPlace"] = true
        try TestSupport.installApp("InPlace", "com.example.inplace", on: root, keys)
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
        var keys = TestSupport.claiming(["public.data", "com.example.nobody"], rank: "Sometimes")
        keys["CFBundleURLTypes"] = [["CFBundleURLSchemes": ["carddrop"]]]
        try TestSupport.installApp("Greedy", "com.example.greedy", on: root, keys)
        try TestSupport.installApp(
            "Other", "com.example.other", on: root, ["CFBundleURLTypes": [["CFBundleURLSchemes": ["CardDrop"]]]])
        let app = root.appendingPathComponent("Bundles/Greedy.app")
        let (code, out, _) = await TestSupport.run(["app", "lint", app.path, "--json"], root: root)
        #expect(code == .failure)
        let report = try JSONDecoder().decode(AppLintCommand.Report.self, from: Data(out.utf8))
        let codes = report.diagnostics.compactMap(\.code?.rawValue)
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
