import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Payloads
import Testing

@testable import ExtHostCommands

/// A share extension written only against Apple's names (`exthost-probe-extension`), through the
/// real pipeline: a separate sandboxed process, objects crossing the boundary, mistakes explained.
@Suite(.timeLimit(.minutes(3)))
struct AppleAPITests {
    static let products = SiblingExecutable.directory ?? ""
    static let probe = URL(fileURLWithPath: products + "/exthost-probe-extension")

    /// A rule every shared thing passes (TRUEPREDICATE is refused as a release rule).
    static let anyRule = """
        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><string>SUBQUERY(extensionItems, $e, \
        SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.item" OR \
        ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.content").@count &gt;= 1).@count &gt;= 1</string></plist>
        """

    /// What `loadItem` gives on a device, read from a preset's evidence (`loads_as`): a web link is
    /// an `NSURL`, a file a file URL, text an `NSString`, a JavaScript result an `NSDictionary`, the
    /// markup editor's screenshot before iOS 26 a `UIImage`. `MKMapItem` has no Linux counterpart:
    /// its archived bytes arrive as `Data`.
    static func expectedKind(_ attachment: PresetInfo.Attachment) -> String {
        let loadsAs = attachment.loadsAs ?? ""
        if loadsAs.hasPrefix("UIImage") { return "image" }
        if loadsAs.contains("NSDictionary") { return "dictionary" }
        if loadsAs.contains("file NSURL") || loadsAs.contains("file://") { return "file-url" }
        if loadsAs.contains("NSURL") { return attachment.types.first == "public.file-url" ? "file-url" : "url" }
        if loadsAs.contains("NSString") { return "string" }
        if loadsAs.contains("NSData") || loadsAs.contains("MKMapItem") || loadsAs.contains("opaque") { return "data" }
        return attachment.kind == "data" ? "data" : "file-url"
    }

    static func device() throws -> (root: URL, rule: URL) {
        let root = try TestSupport.scratchRoot("apple-api")
        let rule = root.appendingPathComponent("any.plist")
        try Data(anyRule.utf8).write(to: rule)
        return (root, rule)
    }

    @Test func everyPresetLoadsAsTheClassADeviceGives() async throws {
        let (root, rule) = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        var checked = 0
        for preset in PresetCatalog.presets {
            let (code, out, err) = await TestSupport.run(
                [
                    "share", "--payload", preset.name, "--rule", rule.path, "--extension-executable", Self.probe.path,
                    "--json",
                ], root: root)
            #expect(code == .success, "\(preset.name): \(err)")
            let report = try JSONDecoder().decode(ShareReport.self, from: Data(out.utf8))
            let lines = report.log.split(separator: "\n").filter { $0.hasPrefix("PROBE ") }
            let attachments = preset.items.flatMap(\.attachments)
            #expect(lines.count == attachments.count, "\(preset.name): \(lines)")
            for (line, attachment) in zip(lines, attachments) {
                let kind = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(
                    kind == Self.expectedKind(attachment),
                    "\(preset.name): \(line) — evidence says \(attachment.loadsAs ?? attachment.kind)")
                checked += 1
            }
        }
        #expect(checked >= 32)
    }

    @MainActor
    func share(_ preset: String, mode: String, limits: ExtensionLimits = ExtensionLimits(), seed: UInt64? = nil)
        async throws -> ShareReport
    {
        let (root, rule) = try Self.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let programs = try #require(InstalledPrograms.nextToExecutable())
        var request = ShareRequest(
            items: .preset(preset), root: .init(url: root),
            extensionBundle: root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex"),
            programs: programs)
        request.ruleFile = rule
        request.extensionExecutable = Self.probe
        request.extensionArguments = [mode]
        request.limits = limits
        request.shuffleLoadsSeed = seed
        return try await ExtensionHost.share(request)
    }

    @Test func completingWhileLoadsAreInFlightNamesTheAbandonedLoads() async throws {
        let report = try await share("photos-multiple-photos", mode: "early")
        #expect(report.completed)
        let mistake = try #require(report.mistakes.first { $0.hasPrefix("completeRequest was called while") })
        #expect(mistake.contains("loadDataRepresentation of attachment 1 (public.jpeg)"), "\(mistake)")
        #expect(mistake.contains("3 load(s)"), "\(mistake)")
    }

    /// An action extension's `completeRequest(returningItems:)` reaches the host with the contents
    /// of the returned attachments, as the sharing app's completion handler gets them.
    @Test func anActionExtensionsReturnedItemsReachTheHost() async throws {
        let report = try await share("notes-text", mode: "action")
        #expect(report.completed)
        let item = try #require(report.returnedItems?.first)
        #expect(item.title == "Uppercased")
        let attachment = try #require(item.attachments.first)
        #expect(attachment.typeIdentifier == "public.plain-text")
        let text = String(decoding: try #require(attachment.data), as: UTF8.self)
        #expect(!text.isEmpty && text == text.uppercased(), "\(text)")
    }

    @Test func aSecondCompletionIsReportedAndHasNoEffect() async throws {
        let report = try await share("notes-text", mode: "twice")
        #expect(report.completed)
        #expect(report.mistakes.contains { $0.hasPrefix("completeRequest(returningItems:) called after") })
    }

    @Test func aRequestThatNeverEndsIsKilledAtItsTimeLimitAndSaysSo() async throws {
        var limits = ExtensionLimits()
        limits.timeout = .seconds(2)
        let report = try await share("notes-text", mode: "never", limits: limits)
        #expect(report.extension?.outcome == "killed-timeout")
        #expect(report.mistakes.contains { $0.hasPrefix("the request never ended") })
    }

    @Test func anInMemoryScreenshotIsNotAURLAndTheReportSaysWhy() async throws {
        let report = try await share("screenshot-editor-ios11-18", mode: "url-cast")
        #expect(report.completed)
        #expect(!report.log.contains("kept"), "the cast to URL fails, as on a device")
        #expect(report.mistakes.contains { $0.contains("in-memory image (UIImage)") }, "\(report.mistakes)")
        let later = try await share("screenshot-editor-ios26", mode: "url-cast")
        #expect(!later.mistakes.contains { $0.contains("in-memory image") }, "iOS 26 shares PNG data instead")
    }

    /// Code that completes from the last attachment's handler works while loads finish in the order
    /// they started and loses the others when they do not — as on a phone. `--shuffle-loads` finds it.
    @Test func shuffledCompletionOrderExposesCodeThatAssumesTheStartOrder() async throws {
        // Seeds whose drawn delays make the last load finish first (delays: 0–40 ms, in start order).
        var lost = false
        for seed in Self.seedsWhereTheLastLoadIsFastest(count: 3, loads: 3) {
            let report = try await share("photos-multiple-photos", mode: "last-finisher", seed: seed)
            let line = report.log.split(separator: "\n").first { $0.hasPrefix("PROBE completed with") } ?? ""
            if !line.hasSuffix("3 of 3") {
                lost = true
                #expect(report.mistakes.contains { $0.hasPrefix("completeRequest was called while") })
            }
        }
        #expect(lost, "no shuffled order made the last load finish before the others")
    }

    /// Seeds for which the last of `loads` delays is at least 25 ms shorter than every other.
    static func seedsWhereTheLastLoadIsFastest(count: Int, loads: Int) -> [UInt64] {
        var seeds: [UInt64] = []
        var seed: UInt64 = 1
        while seeds.count < count {
            let delays = CompletionOrder(seed: seed).delays(count: loads)
            if let last = delays.last, delays.dropLast().allSatisfy({ $0 >= last + .milliseconds(25) }) {
                seeds.append(seed)
            }
            seed += 1
        }
        return seeds
    }
}

/// An in-place original read by an Apple-API extension with Foundation and C's `fopen`: refused by
/// the kernel (EPERM, what a device reports) until it starts the URL's security scope; between start
/// and stop it reads and writes the original; `--lenient` behaves like the simulator.
@Suite(.timeLimit(.minutes(2)))
struct InPlaceScopeTests {
    func share(mode: String, lenient: Bool = false) async throws -> (report: ShareReport, original: URL, root: URL) {
        let (root, rule) = try AppleAPITests.device()
        let items = root.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        let original = items.appendingPathComponent("Doc.pdf")
        try Data("%PDF-1.4 the original\n".utf8).write(to: original)
        try Data(
            #"{"items": [{"attachments": [{"representations": [{"type": "com.adobe.pdf", "kind": "in-place", "file": "Doc.pdf"}]}]}]}"#
                .utf8
        ).write(to: items.appendingPathComponent("share.json"))
        let (code, out, err) = await TestSupport.run(
            [
                "share", items.path, "--rule", rule.path, "--extension-executable", AppleAPITests.probe.path,
                "--extension-argument", mode, "--json",
            ] + (lenient ? ["--lenient"] : []), root: root)
        #expect(code == .success, "\(err)")
        return (try JSONDecoder().decode(ShareReport.self, from: Data(out.utf8)), original, root)
    }

    @Test func forgettingToStartTheScopeFailsWithOperationNotPermitted() async throws {
        let (report, _, root) = try await share(mode: "in-place")
        defer { try? FileManager.default.removeItem(at: root) }
        let log = report.log
        #expect(log.contains("PROBE in-place true"), "\(log)")
        #expect(log.contains("PROBE during foundation failed 257"), "\(log)")  // NSFileReadNoPermissionError
        #expect(log.contains("PROBE during fopen errno \(EPERM)"), "\(log)")
        let refusals = report.refusals
        #expect(
            refusals.contains {
                $0.hasPrefix("kernel: open") && $0.contains("without startAccessingSecurityScopedResource")
            })
    }

    @Test func betweenStartAndStopTheOriginalIsReadAndWritten() async throws {
        let (report, original, root) = try await share(mode: "in-place-scoped")
        defer { try? FileManager.default.removeItem(at: root) }
        let log = report.log
        #expect(log.contains("PROBE started true"), "\(log)")
        #expect(log.contains("PROBE during foundation read 22 bytes"), "\(log)")
        #expect(log.contains("PROBE during fopen ok"), "\(log)")
        #expect(log.contains("PROBE wrote"), "\(log)")
        #expect(log.contains("PROBE after-stop fopen errno \(EPERM)"), "\(log)")
        #expect(try String(contentsOf: original, encoding: .utf8) == "%PDF-1.4 the original\nedited in place\n")
    }

    @Test func lenientLetsTheFirstReadThroughAsTheSimulatorDoes() async throws {
        let (report, _, root) = try await share(mode: "in-place", lenient: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let log = report.log
        #expect(log.contains("PROBE during foundation read 22 bytes"), "\(log)")
        #expect(log.contains("PROBE during fopen ok"), "\(log)")
    }
}

extension InPlaceScopeTests {
    /// A kernel without seccomp user notification: the share still runs, the in-place file comes as
    /// a copy guarded by the API only, and the report and a warning say so.
    @Test func withoutKernelScopesTheReportSaysAPIOnly() async throws {
        let (root, rule) = try AppleAPITests.device()
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, out, err) = await TestSupport.run(
            [
                "share", "--payload", "files-app-document", "--rule", rule.path, "--extension-executable",
                AppleAPITests.probe.path, "--extension-argument", "in-place-scoped", "--api-only-scopes", "--json",
            ], root: root)
        #expect(code == .success, "\(err)")
        #expect(err.contains("NOT stopped"))
        let report = try JSONDecoder().decode(ShareReport.self, from: Data(out.utf8))
        #expect(report.extension?.sandbox.scopeEnforcement == "api-only")
        #expect(report.log.contains("PROBE started true"))
    }
}
