import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import Payloads
import Testing
import UniformTypes

@testable import ExtHostCommands
@testable import ItemProviders

/// What real extensions' logic relies on behaves as on a device, each driven through `exthost
/// share` in a real sandboxed extension process (`exthost-probe-extension`, written only against
/// Apple's names): `Bundle.main`, the names of temporary copies, file URLs handed over, link
/// detection, what runs after `completeRequest`, and what manifests can say. One test at a time:
/// together they start about seventy extension processes, which starved other suites' hosts of CPU
/// when they ran side by side.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct FidelityTests {
    static let products = SiblingExecutable.directory ?? ""
    static let probe = URL(fileURLWithPath: products + "/exthost-probe-extension")
    static let group = "group.com.example.carddrop"

    static func device(_ name: String) throws -> (root: URL, rule: URL, appex: URL) {
        let (root, rule) = try AppleAPITests.device()
        _ = name
        return (root, rule, root.appendingPathComponent("Bundles/CardDrop.app/PlugIns/Share.appex"))
    }

    /// `exthost share … --extension-executable probe --extension-argument ARG… --json` as CardDrop's
    /// extension (unless `asExtension` is nil): the exit code, the report, the probe's lines.
    static func share(
        _ items: [String], root: URL, rule: URL, asExtension appex: URL?, arguments: [String], more: [String] = [],
        installed: Bool = false
    ) async throws -> (ExitCode, ShareReport, [String]) {
        var command = ["share"] + items + ["--rule", rule.path]
        if !installed { command += ["--extension-executable", probe.path] }
        if let appex { command += ["--extension", appex.path] }
        for argument in arguments { command += ["--extension-argument", argument] }
        let (code, out, err) = await TestSupport.run(command + more + ["--json"], root: root)
        let report = try TestSupport.decode(ShareReport.self, out, note: err)
        let lines = report.log.split(separator: "\n").map(String.init).filter { $0.hasPrefix("PROBE ") }
        return (code, report, lines)
    }

    // MARK: - Bundle.main

    /// An app holding the probe as its extension's program (`CFBundleExecutable` is its file name),
    /// with a key of its own in the extension's Info.plist.
    static func writeProbeApp(in folder: URL) throws -> URL {
        let app = folder.appendingPathComponent("ProbeHost.app")
        let appex = app.appendingPathComponent("PlugIns/ProbeShare.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        let rule =
            "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
            + "UTI-CONFORMS-TO \"public.item\").@count >= 1).@count >= 1"
        let plists: [(URL, [String: Any])] = [
            (
                app.appendingPathComponent("Info.plist"),
                ["CFBundleIdentifier": "com.example.probehost", "CFBundlePackageType": "APPL"]
            ),
            (
                appex.appendingPathComponent("Info.plist"),
                [
                    "CFBundleIdentifier": "com.example.probehost.share", "CFBundlePackageType": "XPC!",
                    "CFBundleExecutable": "exthost-probe-extension", "ProbeMode": "bundle",
                    "NSExtension": [
                        "NSExtensionPointIdentifier": "com.apple.share-services",
                        "NSExtensionAttributes": ["NSExtensionActivationRule": rule],
                    ] as [String: Any],
                ]
            ),
            (
                appex.appendingPathComponent("Share.entitlements"),
                [BundleIdentity.applicationGroupsKey: ["group.com.example.probehost"]]
            ),
        ]
        for (url, plist) in plists {
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: url)
        }
        return app
    }

    /// `Bundle.main` is the extension's bundle whichever way its program runs: installed in the
    /// bundle, or a freshly built program given with --extension-executable, which stands in for
    /// the installed extension whose program it replaces (on iOS code reads its App Group or host
    /// scheme from its Info.plist through Bundle.main).
    @Test func bundleMainIsTheExtensionsBundleInstalledOrStandingIn() async throws {
        let (root, rule, _) = try Self.device("bundle")
        defer { try? FileManager.default.removeItem(at: root) }
        let app = try Self.writeProbeApp(in: root)
        let (installed, _, installError) = await TestSupport.run(
            ["install", app.path, "--products", Self.products], root: root)
        #expect(installed == .success, "\(installError)")
        let note = root.appendingPathComponent("note.txt")
        try Data("a note\n".utf8).write(to: note)
        let appex = root.appendingPathComponent("Bundles/ProbeHost.app/PlugIns/ProbeShare.appex")

        // The installed copy of the program, started as the device starts it (no arguments: it reads
        // its mode from its Info.plist through Bundle.main).
        let (code, report, lines) = try await Self.share(
            [note.path], root: root, rule: rule, asExtension: appex, arguments: [], installed: true)
        #expect(code == .success, "\(report.log)")
        #expect(
            lines == [
                "PROBE bundle id=com.example.probehost.share path=\(appex.path) info=com.example.probehost.share "
                    + "executable=exthost-probe-extension"
            ], "\(report.log)")
        #expect(report.extension?.standIn == nil)
        // The same program given as a freshly built one: it replaces the installed extension's.
        let (standInCode, standIn, standInLines) = try await Self.share(
            [note.path], root: root, rule: rule, asExtension: nil, arguments: ["bundle"])
        #expect(standInCode == .success, "\(standIn.log)")
        let line = try #require(standInLines.first { $0.hasPrefix("PROBE bundle") })
        #expect(line.contains("id=com.example.probehost.share"), "\(line)")
        #expect(line.contains("info=com.example.probehost.share"), "\(line)")
        #expect(line.contains("path=\(appex.path)"), "\(line)")
        #expect(line.contains("executable=exthost-probe-extension"), "\(line)")
        #expect(standIn.extension?.bundleIdentifier == "com.example.probehost.share")
        #expect(standIn.extension?.bundle == appex.path)
        #expect(standIn.extension?.standIn?.contains("replaces the program of the installed extension") == true)
        #expect(standIn.group == "group.com.example.probehost")
    }

    /// A program no installed extension names runs as exthost's generic extension, and the report
    /// says so (its Info.plist has none of the program's keys).
    @Test func aProgramNoInstalledExtensionNamesStandsInForTheGenericOneAndTheReportSaysSo() async throws {
        let root = try TestSupport.scratchRoot("fidelity-generic")
        defer { try? FileManager.default.removeItem(at: root) }
        let rule = root.appendingPathComponent("any.plist")
        try Data(AppleAPITests.anyRule.utf8).write(to: rule)
        let (code, report, lines) = try await Self.share(
            ["--payload", "notes-text"], root: root, rule: rule, asExtension: nil, arguments: ["bundle"])
        #expect(code == .success, "\(report.log)")
        let line = try #require(lines.first)
        #expect(line.contains("id=\(GenericApp.extensionIdentifier)"), "\(line)")
        let standIn = try #require(report.extension?.standIn)
        #expect(standIn.contains("no installed extension has CFBundleExecutable exthost-probe-extension"), "\(standIn)")
        #expect(standIn.contains("generic extension"), "\(standIn)")
        #expect(report.group == GenericApp.group)
    }

    /// An app's process sees its `.app` as Bundle.main too.
    @Test func bundleMainIsTheAppsBundle() async throws {
        let root = try TestSupport.scratchRoot("fidelity-app-bundle")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: nil)
        let (code, out, err) = await TestSupport.run(["app", "run", "com.example.probe", "--json"], root: root)
        let report = try TestSupport.decode(AppRunReport.self, out, note: err)
        #expect(code == .success, "\(report.output)")
        #expect(report.output.contains("bundle=com.example.probe info=Probe"), "\(report.output)")
    }

    // MARK: - Names of temporary copies

    /// The name `loadFileRepresentation` hands the first representation of `attachment` under: a
    /// file keeps its own name (as a device hands `…/IMG_1320.PNG` over); data is named from the
    /// suggested name plus the type's preferred extension.
    static func expectedName(_ attachment: PayloadAttachmentDescription) throws -> String {
        let first = try #require(attachment.representations.first { $0.visibility == .all })
        if first.kind.isFileBacked { return URL(fileURLWithPath: first.origin).lastPathComponent }
        return FileMaterializer.fileName(
            attachment.suggestedName, typeIdentifier: first.typeIdentifier, registry: .system)
    }

    @Test func everyPresetsAttachmentsLoadedAsFilesKeepTheirSourceNames() async throws {
        let (root, rule, appex) = try Self.device("names")
        defer { try? FileManager.default.removeItem(at: root) }
        var checked = 0
        var files = 0
        for preset in PresetCatalog.presets {
            let payload = try Payload.preset(named: preset.name)
            let attachments = payload.descriptions.flatMap(\.attachments)
            let (code, report, lines) = try await Self.share(
                ["--payload", preset.name], root: root, rule: rule, asExtension: appex, arguments: ["file-names"])
            #expect(code == .success, "\(preset.name): \(report.log)")
            let names = lines.filter { $0.hasPrefix("PROBE name ") }
            #expect(names.count == attachments.count, "\(preset.name): \(lines)")
            for (line, attachment) in zip(names, attachments) {
                let expected = try Self.expectedName(attachment)
                #expect(line.hasSuffix(" \(expected)"), "\(preset.name): \(line), expected \(expected)")
                if attachment.representations.first?.kind.isFileBacked == true { files += 1 }
                checked += 1
            }
        }
        #expect(checked >= 32 && files >= 10, "\(checked) attachments, \(files) files")
    }

    /// A file keeps its name whatever its type (`public.url` too, which has no filename extension);
    /// data gets the suggested name and the type's extension; a name in another case is kept as is.
    @Test func filesKeepTheirOwnNamesAndDataIsNamedFromSuggestedName() async throws {
        let (root, rule, appex) = try Self.device("own-names")
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: items.appendingPathComponent("IMG_1320.PNG"))
        try Data("[InternetShortcut]\nURL=https://example.com\n".utf8).write(
            to: items.appendingPathComponent("Example Link.webloc"))
        try Data("%PDF-1.4\n".utf8).write(to: items.appendingPathComponent("q3.pdf"))
        try Data(
            """
            { "items": [ { "attachments": [
              { "file": "IMG_1320.PNG" },
              { "representations": [ { "type": "public.url", "kind": "file", "file": "Example Link.webloc" } ] },
              { "suggestedName": "Report", "representations": [ { "type": "com.adobe.pdf", "kind": "data", "file": "q3.pdf" } ] },
              { "suggestedName": "Quarterly.pdf", "representations": [ { "type": "com.adobe.pdf", "kind": "file", "file": "q3.pdf" } ] }
            ] } ] }
            """.utf8
        ).write(to: items.appendingPathComponent("share.json"))
        let (code, report, lines) = try await Self.share(
            [items.path], root: root, rule: rule, asExtension: appex, arguments: ["file-names"])
        #expect(code == .success, "\(report.log)")
        #expect(
            lines == [
                "PROBE name 0 IMG_1320.PNG", "PROBE name 1 Example Link.webloc", "PROBE name 2 Report.pdf",
                "PROBE name 3 q3.pdf",
            ], "\(report.log)")
    }

    // MARK: - File URLs

    /// A file URL handed over as an object (Notes' scanned PDF, Settings' analytics file, a
    /// manifest's `file://` URL) is readable by the extension — read-only, as the device's sandbox
    /// extension grants it — and the report lists the host paths granted.
    @Test func aFileURLItemIsReadableAndTheReportListsTheGrant() async throws {
        let (root, rule, appex) = try Self.device("file-url")
        defer { try? FileManager.default.removeItem(at: root) }
        for preset in ["notes-scanned-pdf", "settings-analytics-ips"] {
            let (code, report, lines) = try await Self.share(
                ["--payload", preset], root: root, rule: rule, asExtension: appex, arguments: ["file-url"])
            #expect(code == .success, "\(preset): \(report.log)")
            let line = try #require(lines.first { $0.hasPrefix("PROBE file-url 0") }, "\(preset): \(report.log)")
            #expect(line.contains("readable=true") && line.contains("copy=ok"), "\(preset): \(line)")
            #expect(!line.contains("read=failed"), "\(preset): \(line)")
            #expect(report.grantedReadOnly.count == 1, "\(preset): \(report.grantedReadOnly)")
        }
        // A manifest's file:// URL outside the items folder.
        let outside = root.appendingPathComponent("outside-report.txt")
        try Data("twelve bytes".utf8).write(to: outside)
        let items = root.appendingPathComponent("url-items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data(
            """
            { "items": [ { "attachments": [ { "representations": [
              { "type": "public.file-url", "url": "\(outside.absoluteString)" } ] } ] } ] }
            """.utf8
        ).write(to: items.appendingPathComponent("share.json"))
        let (code, report, lines) = try await Self.share(
            [items.path], root: root, rule: rule, asExtension: appex, arguments: ["file-url"])
        #expect(code == .success, "\(report.log)")
        #expect(lines == ["PROBE file-url 0 readable=true read=12 copy=ok"], "\(report.log)")
        #expect(report.grantedReadOnly == [outside.standardizedFileURL.path])
        // Granted read-only: the extension cannot change it.
        #expect(try String(contentsOf: outside, encoding: .utf8) == "twelve bytes")
    }

    // MARK: - Link detection

    /// `NSDataDetector(types: NSTextCheckingResult.CheckingType.link.rawValue)` as iOS code writes
    /// it finds links, and `resultType == .link` holds for them; phone numbers, addresses and dates
    /// are found when asked for.
    @Test func aDataDetectorSpeltAsAppleSpellsItFindsLinksAndMore() async throws {
        let (root, rule, appex) = try Self.device("links")
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("text-items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        let text =
            "Read https://example.com/a?b=1 and www.swift.org, or mail jo@example.org. Call +1 (555) 123-4567. "
            + "Visit 1 Infinite Loop, Cupertino, CA 95014 on 2025-04-01T09:00:00Z."
        let json = try JSONSerialization.data(withJSONObject: [
            "items": [["attachments": [["representations": [["type": "public.plain-text", "text": text]]]]]]
        ])
        try json.write(to: items.appendingPathComponent("share.json"))
        let (code, report, lines) = try await Self.share(
            [items.path], root: root, rule: rule, asExtension: appex, arguments: ["links"])
        #expect(code == .success, "\(report.log)")
        #expect(
            lines == [
                "PROBE found link https://example.com/a?b=1 isLink=true",
                "PROBE found link http://www.swift.org isLink=true",
                "PROBE found link mailto:jo@example.org isLink=true",
                "PROBE found phoneNumber +1 (555) 123-4567 isLink=false",
                "PROBE found address Cupertino isLink=false",
                "PROBE found date 2025-04-01T09:00:00Z [2025-04-01T09:00:00Z] isLink=false",
            ], "\(report.log)")
    }

    // MARK: - The end of a request

    /// The marker files the probe wrote into the group.
    static func markers(_ report: ShareReport) -> Set<String> {
        guard let container = report.container else { return [] }
        return Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: container)) ?? []).filter {
                !$0.hasPrefix(".") && $0 != "Library"
            })
    }

    /// Loads a completion cut off never write into the group afterwards: checked over many runs of
    /// two shapes (completion handlers, and child tasks awaiting loads, completed as soon as the
    /// first is back), with loads finishing in orders drawn from a seed. Every attachment is either
    /// cut off (and nothing of it lands, however long one waits) or was delivered before the end
    /// (and its write lands).
    @Test func loadsCutOffByTheEndNeverWriteIntoTheGroup() async throws {
        var cut = 0
        for run in 0..<12 {
            for mode in ["end-writes", "end-await"] {
                let (root, rule, appex) = try Self.device("end")
                defer { try? FileManager.default.removeItem(at: root) }
                let seed = ["--shuffle-loads", "\(run + 1)"]
                let (code, report, _) = try await Self.share(
                    ["--payload", "photos-multiple-photos"], root: root, rule: rule, asExtension: appex,
                    arguments: [mode, Self.group], more: mode == "end-await" ? seed : [])
                #expect(code == .success, "\(mode) \(run): \(report.log)")
                let end = try #require(report.requestEnd, "\(mode) \(run)")
                #expect(end.endedBy == "completeRequest")
                let cutOff = Set(end.cutOff.compactMap(\.attachment))
                // Settle: give anything that escaped the gate time to land before looking.
                try await Task.sleep(for: .milliseconds(100))
                let written = Self.markers(report)
                for attachment in cutOff {
                    #expect(!written.contains("late-\(attachment)"), "\(mode) \(run): \(written) \(end)")
                    #expect(report.attachments[attachment].error?.hasPrefix("cut off by completeRequest") == true)
                }
                for attachment in 0..<3 where !cutOff.contains(attachment) {
                    #expect(written.contains("late-\(attachment)"), "\(mode) \(run): \(written) \(end)")
                }
                if !cutOff.isEmpty {
                    #expect(report.mistakes.contains { $0.hasPrefix("completeRequest was called while") })
                }
                cut += cutOff.count
            }
        }
        // Most loads are still in flight when the request completes (a loaded machine may deliver
        // one before the call): enough were cut off for the check to mean something.
        #expect(cut >= 12, "\(cut) loads cut off")
    }

    /// What a device lets run after `completeRequest` runs: the rest of the function that called
    /// it, main-queue work queued before it, its completion handler (with `expired == false`), and
    /// the rest of a load's completion handler that called it; the report says what ran.
    @Test func whatADeviceLetsRunAfterCompleteRequestRuns() async throws {
        let (root, rule, appex) = try Self.device("after")
        defer { try? FileManager.default.removeItem(at: root) }
        let (code, report, lines) = try await Self.share(
            ["--payload", "photos-multiple-photos"], root: root, rule: rule, asExtension: appex,
            arguments: ["end-after", Self.group])
        #expect(code == .success, "\(report.log)")
        #expect(Self.markers(report) == ["queued-before", "completion-handler", "sync-after"])
        #expect(lines.contains("PROBE expired=false"))
        let ran = report.requestEnd?.ran.map(\.what) ?? []
        #expect(ran.contains("completeRequest's completion handler"), "\(ran)")
        #expect(ran.contains("the work queued on the main queue before completeRequest"), "\(ran)")
        #expect(report.requestEnd?.cutOff.isEmpty == true && report.requestEnd?.stillRunning.isEmpty == true)

        let (handlerRoot, _, handlerAppex) = try Self.device("after-handler")
        defer { try? FileManager.default.removeItem(at: handlerRoot) }
        let (handlerCode, inHandler, _) = try await Self.share(
            ["--payload", "photos-multiple-photos"], root: handlerRoot, rule: rule, asExtension: handlerAppex,
            arguments: ["end-in-handler", Self.group])
        #expect(handlerCode == .success, "\(inHandler.log)")
        #expect(Self.markers(inHandler).contains("in-handler-after"), "\(inHandler.log)")
        #expect(
            inHandler.requestEnd?.ran.contains { $0.attachment == 0 } == true,
            "\(String(describing: inHandler.requestEnd))")
    }

    // MARK: - Manifests

    /// What real hosts send can be written down: a property list (Safari's JavaScript-preprocessing
    /// results dictionary), an item without attachments, an empty item list; and the extension
    /// receives them as iOS hands them over.
    @Test func manifestsSayWhatRealHostsSend() async throws {
        let (root, _, appex) = try Self.device("manifests")
        defer { try? FileManager.default.removeItem(at: root) }
        let everything = root.appendingPathComponent("everything.plist")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><string>extensionItems.@count &gt;= 0</string></plist>
            """.utf8
        ).write(to: everything)
        let safari = root.appendingPathComponent("safari")
        try FileManager.default.createDirectory(at: safari, withIntermediateDirectories: true)
        try Data(
            """
            { "webpage": true, "items": [
              { "contentText": "A page", "attachments": [
                { "representations": [ { "type": "com.apple.property-list", "javaScriptPreprocessingResults":
                  { "URL": "https://example.com/a", "title": "A page", "images": ["a.png"], "count": 2, "ok": true } } ] },
                { "representations": [ { "type": "public.url", "url": "https://example.com/a" } ] } ] },
              { "title": "Only a title" } ] }
            """.utf8
        ).write(to: safari.appendingPathComponent("share.json"))
        let (code, report, lines) = try await Self.share(
            [safari.path], root: root, rule: everything, asExtension: appex, arguments: ["inputs", "--verbose"])
        #expect(code == .success, "\(report.log)")
        #expect(
            lines == [
                "PROBE arguments inputs --verbose", "PROBE items 2", "PROBE item 0 attachments=2 title=nil text=A page",
                "PROBE item 1 attachments=0 title=Only a title text=nil",
                #"PROBE plist {"NSExtensionJavaScriptPreprocessingResultsKey":{"count":2,"images":["a.png"],"ok":true,"title":"A page","URL":"https:\/\/example.com\/a"}}"#,
            ], "\(report.log)")

        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data(#"{ "items": [] }"#.utf8).write(to: empty.appendingPathComponent("share.json"))
        let (emptyCode, emptyReport, emptyLines) = try await Self.share(
            [empty.path], root: root, rule: everything, asExtension: appex, arguments: ["inputs"])
        #expect(emptyCode == .success, "\(emptyReport.log)")
        #expect(emptyLines.contains("PROBE items 0"))
    }

    /// `exthost share --activity-items FILE`: the sharing app's activity items, built as the share
    /// sheet hands them to the extension (a URL as `NSURL`, text as `NSString`).
    @Test func shareTakesTheSheetsActivityItems() async throws {
        let (root, rule, appex) = try Self.device("activity-items")
        defer { try? FileManager.default.removeItem(at: root) }
        let manifest = root.appendingPathComponent("Bundles/DemoSheet/article.json")
        let (code, report, lines) = try await Self.share(
            ["--activity-items", manifest.path], root: root, rule: rule, asExtension: appex, arguments: [])
        #expect(code == .success, "\(report.log)")
        #expect(lines == ["PROBE 0 public.url url", "PROBE 1 public.plain-text string"], "\(report.log)")
        #expect(report.payload.contains("activity items for com.example.carddrop.Share"), "\(report.payload)")
    }

    // MARK: - Bad input

    /// A property-list value a property list cannot hold is a located error, exit 2, and nothing
    /// is written to the device.
    @Test func aManifestValueThatIsNotAPropertyListIsALocatedError() async throws {
        let (root, rule, appex) = try Self.device("bad-plist")
        defer { try? FileManager.default.removeItem(at: root) }
        let items = root.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data(
            """
            { "items": [ { "attachments": [ { "representations": [
              { "type": "com.apple.property-list", "propertyList": { "a": [1, null] } } ] } ] } ] }
            """.utf8
        ).write(to: items.appendingPathComponent("share.json"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
        let (code, _, err) = await TestSupport.run(
            ["share", items.path, "--rule", rule.path, "--extension", appex.path], root: root)
        #expect(code == .usage)
        #expect(err.contains("share.json:2:67: null is not a property-list value"), "\(err)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted() == before)
    }

    /// An entitlement naming a malformed App Group is refused at install with the file, line and
    /// column; exit 2; nothing is installed.
    @Test func installRefusesAMalformedAppGroupIdentifier() async throws {
        let root = try TestSupport.scratchRoot("bad-group")
        defer { try? FileManager.default.removeItem(at: root) }
        let app = root.appendingPathComponent("Bad.app")
        try FileManager.default.copyItem(at: root.appendingPathComponent("Bundles/CardDrop.app"), to: app)
        let entitlements = app.appendingPathComponent("PlugIns/Share.appex/Share.entitlements")
        let text = try String(contentsOf: entitlements, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "group.com.example.carddrop", with: "com.example.carddrop").utf8)
            .write(to: entitlements)
        let device = root.appendingPathComponent("device")
        let (code, _, err) = await TestSupport.run(["install", app.path], root: device)
        #expect(code == .usage)
        #expect(err.contains("\(entitlements.path):7:11: 'com.example.carddrop'"), "\(err)")
        #expect(err.contains("is not an iOS App Group identifier"), "\(err)")
        let installed =
            (try? FileManager.default.contentsOfDirectory(atPath: device.appendingPathComponent("Bundles").path)) ?? []
        #expect(installed.filter { !$0.hasPrefix(".") }.isEmpty, "\(installed)")
        #expect(!FileManager.default.fileExists(atPath: device.appendingPathComponent("Shared").path))
    }
}
