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
    static func device() async throws -> URL {
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
            		<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>
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
}
