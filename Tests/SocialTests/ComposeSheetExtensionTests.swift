import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HeadlessScreens
import HostSystem
import Testing

/// The compose sheet through the built `exthost`: the fixture extension library's
/// `ShareViewController` (Xcode's template shape, Swift 5 language mode) installed with
/// `NSExtensionPrincipalClass`, shared a Safari page.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ComposeSheetExtensionTests {
    static let products = SiblingExecutable.directory ?? ""

    /// A device with `Compose.app` installed, whose extension is the fixture library with
    /// `ShareViewController` as its principal class.
    static func device(principal: String = "ShareViewController") async throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("compose-\(UUID().uuidString)")
        let app = scratch.appendingPathComponent("src/Compose.app")
        let appex = app.appendingPathComponent("PlugIns/Compose.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.Compose</string>\
            <key>CFBundlePackageType</key><string>APPL</string>\
            <key>CFBundleExecutable</key><string>exthost-probe-app</string></dict></plist>
            """.utf8
        ).write(to: app.appendingPathComponent("Info.plist"))
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            	<key>CFBundleIdentifier</key>
            	<string>com.example.Compose.Share</string>
            	<key>CFBundleExecutable</key>
            	<string>ExtHostFixtureAppex</string>
            	<key>CFBundleDisplayName</key>
            	<string>Compose</string>
            	<key>CFBundlePackageType</key>
            	<string>XPC!</string>
            	<key>NSExtension</key>
            	<dict>
            		<key>NSExtensionPointIdentifier</key>
            		<string>com.apple.share-services</string>
            		<key>NSExtensionPrincipalClass</key>
            		<string>$(PRODUCT_MODULE_NAME).\(principal)</string>
            		<key>NSExtensionAttributes</key>
            		<dict>
            			<key>NSExtensionActivationRule</key>
            			<dict>
            				<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
            				<integer>1</integer>
            			</dict>
            		</dict>
            	</dict>
            </dict>
            </plist>
            """.utf8
        ).write(to: appex.appendingPathComponent("Info.plist"))
        let root = scratch.appendingPathComponent("device")
        let installed = try await exthost(["install", app.path, "--products", products, "--root", root.path])
        #expect(installed.status == .exited(0), "\(installed.errors)")
        return root
    }

    /// Runs the built `exthost` with `arguments`.
    static func exthost(_ arguments: [String]) async throws -> TestSupport.Finished {
        try await TestSupport.runProgram(TestSupport.program("exthost"), arguments)
    }

    /// `exthost share --payload safari-webpage --json` on `root` with `more` arguments: the report.
    static func share(_ root: URL, _ more: [String] = []) async throws -> (TestSupport.Finished, ShareReport) {
        let finished = try await exthost(
            ["share", "--payload", "safari-webpage", "--json", "--root", root.path] + more)
        return (finished, try TestSupport.decode(ShareReport.self, finished.output, note: finished.errors))
    }

    @Test func theTemplateSheetAppearsAndTheDefaultPostCompletesTheRequest() async throws {
        try #require(!Self.products.isEmpty, "the products folder is found through /proc/self/exe")
        let root = try await Self.device()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (finished, report) = try await Self.share(root)
        #expect(finished.status == .exited(0), "\(finished.errors)")
        #expect(report.principal?.className == "ExtHostFixtureAppex.ShareViewController")
        #expect(report.principal?.kind == .viewController)
        #expect(report.extension?.outcome == "completed", "\(report.extension?.outcome ?? "")")
        let ui = try #require(report.userInterface)
        #expect(
            ui.lifeCycle.map(\.description) == [
                "ShareViewController.beginRequest(with:)", "ShareViewController.loadView()",
                "ShareViewController.viewDidLoad()", "ShareViewController.viewWillAppear(false)",
                "ShareViewController.viewIsAppearing(false)", "ShareViewController.viewDidAppear(false)",
                "ShareViewController.presentationAnimationDidFinish()", "ShareViewController.viewWillDisappear(true)",
                "ShareViewController.viewDidDisappear(true)", "ShareViewController.didSelectPost()",
            ])
        #expect(ui.defaultScript && ui.scriptSteps == 1)
        #expect(ui.steps.map(\.step.description) == ["tap Post"])
        #expect(ui.steps.map(\.outcome) == [.performed])
        // The sheet as it appeared: the bar (Cancel, the display name, Post), the page title, the count.
        let initial = try #require(ui.initialScreen)
        let bar = try #require(initial.allNodes.first { $0.role == .navigationBar })
        #expect(bar.text == "Compose")
        #expect(bar.children.compactMap(\.text) == ["Cancel", "Post"])
        let title = "ProCamera + HDR - the next dimension in iOS mobile"
        #expect(initial.allNodes.first { $0.role == .textView }?.text == title)
        #expect(initial.allNodes.contains { $0.text == "\(60 - title.count)" })
        #expect(ui.initialScreenText?.contains("Post") == true, "\(ui.initialScreenText ?? "")")
        #expect(report.log.contains("FIXTURE ShareViewController.didSelectPost text=\(title) main-thread=true"))
        #expect(ui.diagnostics.isEmpty, "\(ui.diagnostics)")
    }

    @Test func typingPastTheLimitDisablesPostAndTheTapIsExplained() async throws {
        try #require(!Self.products.isEmpty, "the products folder is found through /proc/self/exe")
        let root = try await Self.device()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (finished, report) = try await Self.share(
            root, ["--ui", "type \" - shared from the headless share sheet\"; tap Post", "--timeout", "3"])
        #expect(finished.status == .exited(1), "the request never ends: \(finished.errors)")
        #expect(report.extension?.outcome == "killed-timeout", "\(report.extension?.outcome ?? "")")
        let ui = try #require(report.userInterface)
        #expect(!ui.defaultScript)
        #expect(ui.steps.map(\.outcome) == [.performed, .ignored])
        #expect(ui.steps.last?.note.contains("isContentValid() returned false") == true)
        #expect(ui.steps.first?.screen.allNodes.first { $0.text == "Post" }?.enabled == false)
        #expect(ui.steps.first?.screen.allNodes.contains { $0.text == "-29" } == true)
        #expect(ui.diagnostics.map(\.kind) == [.postWhileContentInvalid], "\(ui.diagnostics)")
        #expect(!report.log.contains("didSelectPost"))
    }

    @Test func realWorldShapesRunTheirRowsAndTheirLoadInDidSelectPost() async throws {
        try #require(!Self.products.isEmpty, "the products folder is found through /proc/self/exe")
        let root = try await Self.device(principal: "ComposeShapesViewController")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (finished, report) = try await Self.share(root)
        #expect(finished.status == .exited(0), "\(finished.errors)")
        let ui = try #require(report.userInterface)
        let initial = try #require(ui.initialScreen)
        let rows = initial.allNodes.filter { $0.role == .control }
        #expect(rows.map(\.text) == ["Channel", "Tags", "Audience"])
        #expect(rows.map(\.detail) == ["Pick one", "None", nil])
        #expect(rows.last?.children.contains { $0.role == .activityIndicator && $0.animating == true } == true)
        #expect(initial.allNodes.first { $0.role == .navigationBar }?.text == "Share")
        #expect(initial.allNodes.contains { $0.text == "230" })
        #expect(
            report.log.contains("FIXTURE ComposeShapes url=Optional(https://example.com/safari-webpage/1)"),
            "\(report.log)")
        #expect(report.extension?.outcome == "completed")
        #expect(ui.diagnostics.isEmpty, "\(ui.diagnostics)")
    }

    @Test func aSheetThatCompletesByItselfGetsNoDefaultTap() async throws {
        try #require(!Self.products.isEmpty, "the products folder is found through /proc/self/exe")
        let root = try await Self.device(principal: "SilentComposeViewController")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (finished, report) = try await Self.share(root)
        #expect(finished.status == .exited(0), "no Post was left to tap, and that is no mistake: \(finished.errors)")
        #expect(report.extension?.outcome == "completed")
        let ui = try #require(report.userInterface)
        #expect(ui.defaultScript && ui.steps.isEmpty, "\(ui.steps.map(\.note))")
        #expect(ui.lifeCycle.last?.call == "viewDidDisappear(true)")
        #expect(ui.diagnostics.isEmpty, "\(ui.diagnostics)")
    }

    @Test func cancelCancelsTheRequestAsTheHostSeesIt() async throws {
        try #require(!Self.products.isEmpty, "the products folder is found through /proc/self/exe")
        let root = try await Self.device()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (finished, report) = try await Self.share(root, ["--ui", "tap Cancel"])
        #expect(finished.status == .exited(1), "a cancelled request exits 1: \(finished.errors)")
        #expect(report.extension?.outcome == "cancelled", "\(report.extension?.outcome ?? "")")
        #expect(
            report.extension?.reason.contains("cancelled the request") == true, "\(report.extension?.reason ?? "")")
        let ui = try #require(report.userInterface)
        #expect(ui.lifeCycle.last?.call == "didSelectCancel()")
        #expect(ui.diagnostics.isEmpty, "\(ui.diagnostics)")
        #expect(!report.log.contains("didSelectPost"))
    }

    /// What the measuring script writes for each element of the first screen it measures.
    struct Box: Decodable {
        var role: String
        var text: String
        var top: Double
        var left: Double
        var width: Double
        var height: Double
    }

    /// A script that writes the box the browser laid out for each node of the first screen.
    static let measuring = """
        <pre id="layout"></pre><script>
        const nodes = [...document.querySelectorAll('#screen-0 [data-role]')];
        document.getElementById('layout').textContent = JSON.stringify(nodes.map((el) => {
          const b = el.getBoundingClientRect();
          return { role: el.dataset.role, text: el.dataset.text || '', top: b.top, left: b.left, width: b.width, height: b.height };
        }));
        </script></body>
        """

    /// Runs headless Chromium (Debian's, installed by Scripts/bootstrap) with `arguments`; its output.
    static func chromium(_ arguments: [String], scratch: URL) async throws -> String {
        let browser = try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }, "no chromium: run Scripts/bootstrap (it installs Debian's chromium)")
        let finished = try await TestSupport.runProgram(
            URL(fileURLWithPath: browser),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(scratch.appendingPathComponent("profile").path)", "--window-size=500,1100",
            ] + arguments)
        #expect(finished.status == .exited(0), "chromium: \(finished.errors.suffix(2000))")
        return finished.output
    }

    @Test func theScreensPageShowsTheComposeSheetInChromium() async throws {
        try #require(!Self.products.isEmpty, "the products folder is found through /proc/self/exe")
        let root = try await Self.device()
        let scratch = root.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let page = scratch.appendingPathComponent("screens.html")
        let (finished, _) = try await Self.share(root, ["--html", page.path])
        #expect(finished.status == .exited(0), "\(finished.errors)")

        // A screenshot, as a person would see the page.
        let screenshot = scratch.appendingPathComponent("screens.png")
        _ = try await Self.chromium(["--screenshot=\(screenshot.path)", page.absoluteString], scratch: scratch)
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        let width = png.count > 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 500)

        // What the browser laid out for the sheet as it appeared.
        let html = try String(contentsOf: page, encoding: .utf8)
        let measured = scratch.appendingPathComponent("measured.html")
        try Data(html.replacingOccurrences(of: "</body>", with: Self.measuring).utf8).write(to: measured)
        let dom = try await Self.chromium(["--dump-dom", measured.absoluteString], scratch: scratch)
        let start = try #require(dom.range(of: "<pre id=\"layout\">"))
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
        let boxes = try JSONDecoder().decode([Box].self, from: Data(json.utf8))
        let bar = try #require(boxes.first { $0.role == "navigationBar" })
        let text = try #require(boxes.first { $0.role == "textView" })
        let buttons = boxes.filter { $0.role == "barButton" }
        #expect(bar.text == "Compose")
        #expect(buttons.map(\.text) == ["Cancel", "Post"])
        #expect(text.text == "ProCamera + HDR - the next dimension in iOS mobile")
        #expect(boxes.contains { $0.role == "label" && $0.text == "10" && $0.width > 0 && $0.height > 0 })
        for box in [bar, text] + buttons { #expect(box.width > 0 && box.height > 0, "\(box)") }
        #expect(bar.top < text.top, "the bar is drawn above the text: \(bar) \(text)")
        if let post = buttons.last {
            #expect(post.left > bar.left + bar.width / 2, "Post is on the right of the bar: \(post) \(bar)")
        }
    }
}
