import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HeadlessScreens
import HostSystem
import Testing

@testable import ExtHostCommands

/// An extension built as a dynamic library (the `ExtHostFixtureAppex` product, Swift 5 language
/// mode), installed as `lib<CFBundleExecutable>.so` and loaded by the sandbox launcher into the
/// extension process, with its principal object made from its Info.plist as iOS makes it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LibraryExtensionTests {
    static let products = SiblingExecutable.directory ?? ""
    static let group = "group.com.example.Fix"

    /// A device with `Fix.app` installed: its extension's code is the fixture library, and its
    /// `NSExtension` dictionary is `extensionKeys` (XML); `extra` adds keys to the extension's
    /// Info.plist. The app is `exthost-probe-app`, registering the URL scheme `fixapp`. The device
    /// runs `iosVersion` when given (a named device), else the current iOS.
    static func device(
        _ extensionKeys: String, extra: String = "", iosVersion: String? = nil, files: [String: String] = [:]
    ) async throws -> (
        root: URL, items: URL
    ) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("appex-\(UUID().uuidString)")
        let app = root.appendingPathComponent("src/Fix.app")
        let appex = app.appendingPathComponent("PlugIns/Fix.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        let entitlements = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>com.apple.security.application-groups</key>\
            <array><string>\(group)</string></array></dict></plist>
            """
        try Data(entitlements.utf8).write(to: app.appendingPathComponent("Fix.entitlements"))
        try Data(entitlements.utf8).write(to: appex.appendingPathComponent("Fix.entitlements"))
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.Fix</string>\
            <key>CFBundlePackageType</key><string>APPL</string>\
            <key>CFBundleExecutable</key><string>exthost-probe-app</string>\
            <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array><string>fixapp</string>\
            </array></dict></array>\
            <key>UIApplicationSceneManifest</key><dict><key>UISceneConfigurations</key><dict>\
            <key>UIWindowSceneSessionRoleApplication</key><array><dict>\
            <key>UISceneDelegateClassName</key><string>$(PRODUCT_MODULE_NAME).FullSceneDelegate</string>\
            </dict></array></dict></dict></dict></plist>
            """.utf8
        ).write(to: app.appendingPathComponent("Info.plist"))
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            	<key>CFBundleIdentifier</key>
            	<string>com.example.Fix.Extension</string>
            	<key>CFBundleExecutable</key>
            	<string>ExtHostFixtureAppex</string>
            	<key>CFBundlePackageType</key>
            	<string>XPC!</string>
            	<key>AppGroupId</key>
            	<string>\(group)</string>
            \(extra)
            	<key>NSExtension</key>
            	<dict>
            		<key>NSExtensionPointIdentifier</key>
            		<string>com.apple.share-services</string>
            \(extensionKeys)
            		<key>NSExtensionAttributes</key>
            		<dict>
            			<key>NSExtensionActivationRule</key>
            			<dict>
            				<key>NSExtensionActivationSupportsFileWithMaxCount</key>
            				<integer>10</integer>
            				<key>NSExtensionActivationSupportsText</key>
            				<true/>
            			</dict>
            		</dict>
            	</dict>
            </dict>
            </plist>
            """.utf8
        ).write(to: appex.appendingPathComponent("Info.plist"))
        for (path, text) in files {
            let file = appex.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let items = root.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data("first\n".utf8).write(to: items.appendingPathComponent("a.txt"))
        try Data("second\n".utf8).write(to: items.appendingPathComponent("b.txt"))
        var device = root.appendingPathComponent("device")
        if let iosVersion {
            let devices = DeviceSet(directory: root.appendingPathComponent("devices"))
            try devices.create(named: "phone", iosVersion: iosVersion)
            device = devices.root(named: "phone").url
        }
        let (code, _, error) = await TestSupport.run(
            ["install", app.path, "--products", products], root: device)
        #expect(code == .success, "\(error)")
        return (device, items)
    }

    /// The group's shared defaults on `root`.
    static func groupDefaults(_ root: URL) throws -> [String: DefaultsValue] {
        let device = DeviceRoot(url: root)
        let identity = try BundleIdentity.load(
            bundle: root.appendingPathComponent("Bundles/Fix.app/PlugIns/Fix.appex"))
        return try SharedDefaults.suite(named: group, as: identity, root: device).dictionary()
    }

    @Test func aRequestHandlerLibraryRunsFromItsPrincipalClass() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(
            """
            		<key>NSExtensionPrincipalClass</key>
            		<string>$(PRODUCT_MODULE_NAME).ActionRequestHandler</string>
            """)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, out, error) = await TestSupport.run(["share", items.path, "--json"], root: root)
        #expect(code == .success, "\(error)")
        let report = try TestSupport.decode(ShareReport.self, out, note: error)
        #expect(report.extension?.executable.hasSuffix("/Fix.appex/libExtHostFixtureAppex.so") == true)
        #expect(report.extension?.sandbox.enforced == true || SandboxPolicy.kernelLandlockABI == 0)
        #expect(
            report.principal
                == PrincipalDescription(
                    className: "ExtHostFixtureAppex.ActionRequestHandler", source: .principalClass,
                    kind: .requestHandler, initializer: "init()"))
        #expect(report.log.contains("FIXTURE beginRequest main-thread=true"), "\(report.log)")
        #expect(report.log.contains("FIXTURE loaded a.txt,b.txt"), "\(report.log)")
    }

    struct BadPrincipal: Sendable, CustomTestStringConvertible {
        var name: String
        var keys: String
        var message: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        BadPrincipal(
            name: "no such class",
            keys: "\t\t<key>NSExtensionPrincipalClass</key>\n\t\t<string>$(PRODUCT_MODULE_NAME).Missing</string>",
            message: "'$(PRODUCT_MODULE_NAME).Missing' names no class in the extension (looked for "
                + "'ExtHostFixtureAppex.Missing')"),
        BadPrincipal(
            name: "neither a view controller nor a handler",
            keys: "\t\t<key>NSExtensionPrincipalClass</key>\n\t\t<string>NotAPrincipal</string>",
            message: "the principal class 'ExtHostFixtureAppex.NotAPrincipal' (NotAPrincipal) is neither a "
                + "UIViewController subclass nor an NSObject adopting NSExtensionRequestHandling"),
        BadPrincipal(
            name: "no principal at all", keys: "",
            message: "NSExtension names neither NSExtensionPrincipalClass nor NSExtensionMainStoryboard"),
    ])
    func aBundleThatCannotRunIsBadInputAndWritesNothing(_ bad: BadPrincipal) async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(bad.keys)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, _, error) = await TestSupport.run(["share", items.path], root: root)
        #expect(code == .usage)
        let info = root.appendingPathComponent("Bundles/Fix.app/PlugIns/Fix.appex/Info.plist")
        // The line of the value at fault: the principal class's name, or the NSExtension dictionary.
        let lines = try String(contentsOf: info, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let key = bad.keys.isEmpty ? "<key>NSExtension</key>" : "<key>NSExtensionPrincipalClass</key>"
        let line = try #require(lines.firstIndex { $0.contains(key) }) + 2
        #expect(error.contains("error: \(info.path):\(line): \(bad.message)"), "\(error)")
        #expect(try Self.groupDefaults(root).isEmpty)
    }

    // MARK: - The hand-over to the app

    static let principalKeys = """
        		<key>NSExtensionPrincipalClass</key>
        		<string>$(PRODUCT_MODULE_NAME).ActionRequestHandler</string>
        """

    static func mode(_ name: String) -> String { "\t<key>FixtureMode</key>\n\t<string>\(name)</string>" }

    /// Shares `items` on `root` and decodes the report.
    static func share(_ items: URL, root: URL) async throws -> ShareReport {
        let (code, out, error) = await TestSupport.run(["share", items.path, "--json"], root: root)
        #expect(code == .success, "\(error)")
        return try TestSupport.decode(ShareReport.self, out, note: error)
    }

    @Test func uiApplicationOpenLaunchesTheAppColdWithWhatTheExtensionWrote() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(Self.principalKeys, extra: Self.mode("open"), iosVersion: "18.2")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent().deletingLastPathComponent()) }
        let report = try await Self.share(items, root: root)
        #expect(report.log.contains("FIXTURE open success=true main-thread=true"), "\(report.log)")
        let handOff = try #require(report.handOff.first, "\(report.log)")
        #expect(handOff.requested == "UIApplication.open(_:options:completionHandler:)")
        #expect(handOff.url == "fixapp://shared/items?count=2" && handOff.iosVersion == "18.2")
        #expect(handOff.opened && handOff.received && handOff.app == "com.example.Fix")
        #expect(handOff.start == "cold" && handOff.delivery?.method == .willConnectTo)
        // The app read the group defaults the extension wrote with UserDefaults(suiteName: String?).
        #expect(
            handOff.appOutput?.contains(
                "PROBE-APP willConnectTo fixapp://shared/items?count=2 defaults group.com.example.Fix names=a.txt,b.txt"
            )
                == true, "\(handOff.appOutput ?? "")")
        #expect(
            report.messages.contains {
                $0.contains("copied the 2 key(s) the extension changed there (names, writtenBy)")
            })
    }

    @Test func uiApplicationOpenReachesTheRunningAppWarm() async throws {
        guard !Self.products.isEmpty, let launcher = InstalledPrograms.nextToExecutable()?.launcher else {
            throw Skip("no /proc/self/exe")
        }
        let (root, items) = try await Self.device(Self.principalKeys, extra: Self.mode("open"), iosVersion: "18.0")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent().deletingLastPathComponent()) }
        let device = DeviceRoot(url: root)
        var options = AppLaunchOptions()
        options.keepRunning = true
        let shared = Locked<ShareReport?>(nil)
        let app = try await ExtensionHost.runApp("com.example.Fix", on: device, launcher: launcher, options: options) {
            running in
            guard let listener = try? AppLaunchServer.listen(running, on: device) else { return }
            let serving = Task { await listener.serve() }
            let report = try? await Self.share(items, root: root)
            shared.withLock { $0 = report }
            listener.stop()
            await serving.value
        }
        let report = try #require(shared.withLock { $0 })
        let handOff = try #require(report.handOff.first, "\(report.log)")
        #expect(handOff.opened && handOff.received && handOff.start == "warm")
        #expect(handOff.delivery?.method == .openURLContexts)
        #expect(
            app.output.contains(
                "PROBE-APP openURLContexts fixapp://shared/items?count=2 defaults group.com.example.Fix names=a.txt,b.txt"
            ), "\(app.output)")
    }

    struct SelectorCase: Sendable, CustomTestStringConvertible {
        var ios: String
        var opens: Bool
        var testDescription: String { "iOS \(ios)" }
    }

    @Test(arguments: [SelectorCase(ios: "17.4", opens: true), SelectorCase(ios: "18.0", opens: false)])
    func theOpenURLSelectorOpensTheAppOnlyBeforeIOS18(_ version: SelectorCase) async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(
            Self.principalKeys, extra: Self.mode("selector"), iosVersion: version.ios)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent().deletingLastPathComponent()) }
        let report = try await Self.share(items, root: root)
        #expect(report.log.contains("FIXTURE openURL: sent, returned \(version.opens)"), "\(report.log)")
        let handOff = try #require(report.handOff.first, "\(report.log)")
        #expect(handOff.requested == "openURL:" && handOff.iosVersion == version.ios)
        #expect(handOff.opened == version.opens && handOff.received == version.opens)
        if version.opens {
            #expect(handOff.start == "cold" && handOff.delivery?.method == .willConnectTo)
        } else {
            #expect(handOff.app == nil && handOff.delivery == nil)
            #expect(handOff.ios.contains("ignores openURL: from an extension: nothing opens"))
        }
    }

    @Test func extensionContextOpenInAShareExtensionOpensNothing() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(Self.principalKeys, extra: Self.mode("context"))
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let report = try await Self.share(items, root: root)
        #expect(report.log.contains("FIXTURE context.open success=false"), "\(report.log)")
        let handOff = try #require(report.handOff.first)
        #expect(handOff.requested == "NSExtensionContext.open(_:completionHandler:)")
        #expect(!handOff.opened && !handOff.received && handOff.app == nil)
        #expect(handOff.ios.contains("honoured only for Today and iMessage extensions"))
    }

    // MARK: - View controllers

    static func principal(_ name: String) -> String {
        "\t\t<key>NSExtensionPrincipalClass</key>\n\t\t<string>$(PRODUCT_MODULE_NAME).\(name)</string>"
    }

    @Test func aPlainViewControllerRunsItsLifeCycleAndTheScriptedUserTapsDone() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(Self.principal("PlainViewController"))
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, out, error) = await TestSupport.run(["share", items.path, "--ui", "tap Done", "--json"], root: root)
        #expect(code == .success, "\(error)")
        let report = try TestSupport.decode(ShareReport.self, out, note: error)
        #expect(report.principal?.kind == .viewController && report.principal?.initializer == "init(coder:)")
        #expect(report.log.contains("FIXTURE PlainViewController.viewDidLoad main-thread=true"), "\(report.log)")
        let ui = try #require(report.userInterface)
        #expect(
            ui.lifeCycle.map(\.call) == [
                "beginRequest(with:)", "loadView()", "viewDidLoad()", "viewWillAppear(false)",
                "viewIsAppearing(false)", "viewDidAppear(false)", "viewWillDisappear(true)", "viewDidDisappear(true)",
            ])
        #expect(ui.initialScreenText?.contains(#"label "Hello from the extension""#) == true)
        #expect(ui.initialScreen?.allNodes.contains { $0.identifier == "done" && $0.text == "Done" } == true)
        #expect(ui.steps.map(\.outcome) == [.performed] && !ui.defaultScript && ui.scriptSteps == 1)
        #expect(ui.steps.first?.screenText.contains("the extension's sheet has closed") == true)
        #expect(ui.diagnostics.isEmpty, "\(ui.diagnostics)")
    }

    @Test func withoutAScriptAViewControllerIsLeftAloneAndTheNeverEndingRequestIsReported() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(Self.principal("PlainViewController"))
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, out, error) = await TestSupport.run(
            ["share", items.path, "--timeout", "3", "--json"], root: root)
        #expect(code == .failure, "\(error)")
        let report = try TestSupport.decode(ShareReport.self, out, note: error)
        #expect(report.extension?.outcome == "killed-timeout")
        let ui = try #require(report.userInterface)
        #expect(ui.defaultScript && ui.scriptSteps == 0 && ui.steps.isEmpty)
        #expect(ui.lifeCycle.last?.call == "viewDidAppear(false)")
    }

    @Test func aStepNamingNoControlIsBadInputAtItsLineAndNothingIsWritten() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(Self.principal("PlainViewController"))
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let script = root.deletingLastPathComponent().appendingPathComponent("steps.txt")
        try Data("# the user\nwait 0.1\n  tap Send\n".utf8).write(to: script)
        let (code, _, error) = await TestSupport.run(["share", items.path, "--ui", script.path], root: root)
        #expect(code == .usage)
        #expect(error.contains("\(script.path):3:3:"), "\(error)")
        #expect(error.contains("Send"), "\(error)")
        #expect(try Self.groupDefaults(root).isEmpty)
        // A script that cannot be read is refused before anything runs.
        let (parseCode, _, parseError) = await TestSupport.run(
            ["share", items.path, "--ui", "tap Done; jump"], root: root)
        #expect(parseCode == .usage)
        #expect(parseError.contains("line 1, column 11") || parseError.contains("1:11"), "\(parseError)")
    }

    @Test func aViewControllerOpensItsAppThroughTheResponderChain() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(Self.principal("OpeningViewController"), iosVersion: "18.1")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent().deletingLastPathComponent()) }
        let report = try await Self.share(items, root: root)
        #expect(report.log.contains("FIXTURE OpeningViewController opened=true"), "\(report.log)")
        let handOff = try #require(report.handOff.first)
        #expect(handOff.requested == "UIApplication.open(_:options:completionHandler:)")
        #expect(handOff.received && handOff.start == "cold")
        #expect(
            handOff.appOutput?.contains("defaults group.com.example.Fix names=a.txt,b.txt") == true,
            "\(handOff.appOutput ?? "")")
    }

    // MARK: - Storyboards

    static let storyboardKeys = """
        		<key>NSExtensionMainStoryboard</key>
        		<string>MainInterface</string>
        """

    /// A storyboard as Xcode writes one: the initial scene is `initial` (a view controller of class
    /// `customClass`), with a stack of a label, a text view and a Post button connected to its
    /// outlets and its `post:` action; `scenes` adds scenes.
    static func storyboard(
        initial: String? = "vc-1", customClass: String = "StoryboardViewController", scenes: String = ""
    ) -> String {
        let initialAttribute = initial.map { " initialViewController=\"\($0)\"" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" \
            toolsVersion="21701" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES"\
            \(initialAttribute)>
                <dependencies>
                    <plugIn identifier="com.apple.InterfaceBuilder.IBCocoaTouchPlugin" version="21679"/>
                </dependencies>
                <scenes>
                    <!--Share View Controller-->
                    <scene sceneID="scene-1">
                        <objects>
                            <viewController id="vc-1" title="Share" customClass="\(customClass)" \
            customModuleProvider="target" sceneMemberID="viewController">
                                <view key="view" contentMode="scaleToFill" id="view-1">
                                    <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                                    <subviews>
                                        <stackView opaque="NO" axis="vertical" spacing="12" \
            translatesAutoresizingMaskIntoConstraints="NO" id="stack-1">
                                            <rect key="frame" x="20" y="100" width="353" height="200"/>
                                            <subviews>
                                                <label text="Share to Fix &amp; more" textAlignment="center" \
            id="label-1">
                                                    <rect key="frame" x="0.0" y="0.0" width="353" height="21"/>
                                                    <fontDescription key="fontDescription" type="boldSystem" \
            pointSize="17"/>
                                                    <color key="textColor" systemColor="labelColor"/>
                                                </label>
                                                <textView editable="NO" id="text-1">
                                                    <rect key="frame" x="0.0" y="33" width="353" height="120"/>
                                                    <string key="text">Notes go here.</string>
                                                </textView>
                                                <button buttonType="system" id="button-1">
                                                    <rect key="frame" x="0.0" y="165" width="353" height="35"/>
                                                    <state key="normal" title="Post"/>
                                                    <accessibility key="accessibilityConfiguration" identifier="post"/>
                                                    <connections>
                                                        <action selector="post:" destination="vc-1" \
            eventType="touchUpInside" id="action-1"/>
                                                    </connections>
                                                </button>
                                            </subviews>
                                        </stackView>
                                    </subviews>
                                    <viewLayoutGuide key="safeArea" id="safe-1"/>
                                    <color key="backgroundColor" systemColor="systemBackgroundColor"/>
                                    <constraints>
                                        <constraint firstItem="stack-1" firstAttribute="leading" \
            secondItem="safe-1" secondAttribute="leading" constant="20" id="c-1"/>
                                        <constraint firstItem="stack-1" firstAttribute="top" \
            secondItem="safe-1" secondAttribute="top" constant="40" id="c-2"/>
                                    </constraints>
                                </view>
                                <connections>
                                    <outlet property="messageLabel" destination="label-1" id="outlet-1"/>
                                    <outlet property="postButton" destination="button-1" id="outlet-2"/>
                                </connections>
                            </viewController>
                            <placeholder placeholderIdentifier="IBFirstResponder" id="first-1" \
            sceneMemberID="firstResponder"/>
                        </objects>
                    </scene>
            \(scenes)
                </scenes>
                <resources>
                    <systemColor name="systemBackgroundColor">
                        <color white="1" alpha="1" colorSpace="custom" customColorSpace="genericGamma22GrayColorSpace"/>
                    </systemColor>
                </resources>
            </document>
            """
    }

    @Test func aStoryboardMakesItsInitialViewControllerWithOutletsViewsAndActions() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(
            Self.storyboardKeys, files: ["Base.lproj/MainInterface.storyboard": Self.storyboard()])
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, out, error) = await TestSupport.run(["share", items.path, "--ui", "tap Post", "--json"], root: root)
        #expect(code == .success, "\(error)")
        let report = try TestSupport.decode(ShareReport.self, out, note: error)
        #expect(
            report.principal
                == PrincipalDescription(
                    className: "ExtHostFixtureAppex.StoryboardViewController", source: .mainStoryboard,
                    kind: .viewController, storyboard: "Base.lproj/MainInterface.storyboard",
                    initializer: "init(coder:)"))
        // init?(coder:) gets the storyboard's attributes; outlets are set when the view loads.
        #expect(report.log.contains("init(coder:) title=Share outlets-before-load=true"), "\(report.log)")
        #expect(
            report.log.contains("viewDidLoad label=Share to Fix & more button=Post in-view=true"), "\(report.log)")
        #expect(report.log.contains("FIXTURE post: from-button=true main-thread=true"), "\(report.log)")
        let ui = try #require(report.userInterface)
        let screen = try #require(ui.initialScreen)
        #expect(screen.allNodes.contains { $0.text == "Share to Fix & more" }, "\(ui.initialScreenText ?? "")")
        #expect(screen.allNodes.contains { $0.text == "Notes go here." }, "\(ui.initialScreenText ?? "")")
        #expect(screen.allNodes.contains { $0.identifier == "post" && $0.text == "Post" })
        #expect(ui.steps.map(\.outcome) == [.performed])
        #expect(ui.diagnostics.isEmpty, "\(ui.diagnostics)")
        #expect(try Self.groupDefaults(root)["names"] == .array([.string("posted")]))
    }

    @Test func aNavigationControllerIsFollowedToItsRootViewController() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let navigation = """
                    <scene sceneID="scene-2">
                        <objects>
                            <navigationController id="nav-1" sceneMemberID="viewController">
                                <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar-1">
                                    <rect key="frame" x="0.0" y="59" width="393" height="44"/>
                                </navigationBar>
                                <connections>
                                    <segue destination="vc-1" kind="relationship" relationship="rootViewController" \
            id="segue-1"/>
                                </connections>
                            </navigationController>
                        </objects>
                    </scene>
            """
        let (root, items) = try await Self.device(
            Self.storyboardKeys,
            files: ["MainInterface.storyboard": Self.storyboard(initial: "nav-1", scenes: navigation)])
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, out, error) = await TestSupport.run(
            ["share", items.path, "--ui", "tap #post", "--json"], root: root)
        #expect(code == .success, "\(error)")
        let report = try TestSupport.decode(ShareReport.self, out, note: error)
        #expect(report.principal?.className == "ExtHostFixtureAppex.StoryboardViewController")
        #expect(report.principal?.storyboard == "MainInterface.storyboard")
        #expect(report.log.contains("viewDidLoad label=Share to Fix & more button=Post"), "\(report.log)")
        #expect(report.log.contains("FIXTURE post: from-button=true"), "\(report.log)")
    }

    struct BadStoryboard: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String?
        /// The text of the line the error names, and the message.
        var lineContaining: String
        var message: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        BadStoryboard(
            name: "not XML", text: "{\n  \"scenes\": []\n}\n", lineContaining: "{",
            message: "the storyboard is not well-formed XML: not XML: expected '<' to start an element"),
        BadStoryboard(
            name: "no such class", text: Self.storyboard(customClass: "MissingViewController"),
            lineContaining: "<viewController id=\"vc-1\"",
            message: "customClass 'MissingViewController' names no class (looked for "
                + "'ExtHostFixtureAppex.MissingViewController')"),
        BadStoryboard(
            name: "no initial view controller", text: Self.storyboard(initial: nil), lineContaining: "<document ",
            message: "the storyboard has no initial view controller"),
        BadStoryboard(
            name: "a request handler as the view controller",
            text: Self.storyboard(customClass: "ActionRequestHandler"), lineContaining: "<viewController id=\"vc-1\"",
            message: "customClass 'ExtHostFixtureAppex.ActionRequestHandler' of <viewController> is not a "
                + "UIKit.UIViewController subclass (it is a request handler"),
        BadStoryboard(
            name: "no storyboard in the bundle", text: nil, lineContaining: "<key>NSExtensionMainStoryboard</key>",
            message: "NSExtensionMainStoryboard names 'MainInterface', but the extension has no "
                + "'MainInterface.storyboard'"),
    ])
    func aStoryboardThatCannotRunIsBadInputAtItsLineAndWritesNothing(_ bad: BadStoryboard) async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(
            Self.storyboardKeys, files: bad.text.map { ["Base.lproj/MainInterface.storyboard": $0] } ?? [:])
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let (code, _, error) = await TestSupport.run(["share", items.path, "--ui", "tap Post"], root: root)
        #expect(code == .usage, "\(error)")
        let appex = root.appendingPathComponent("Bundles/Fix.app/PlugIns/Fix.appex")
        let file = appex.appendingPathComponent(bad.text == nil ? "Info.plist" : "Base.lproj/MainInterface.storyboard")
        let lines = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(bad.lineContaining) })
        // The Info.plist's line is the value's (the line after the key).
        let line = index + (bad.text == nil ? 2 : 1)
        #expect(error.contains("error: \(file.path):\(line)"), "\(error)")
        #expect(error.contains(bad.message), "\(error)")
        #expect(try Self.groupDefaults(root).isEmpty)
    }

    /// `MainInterface.storyboard` as Xcode's Share Extension template writes it.
    static let xcodeShareStoryboard = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="13122.16" \
        targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" \
        useSafeAreas="YES" colorMatched="YES" initialViewController="j1y-V4-xli">
            <dependencies>
                <plugIn identifier="com.apple.InterfaceBuilder.IBCocoaTouchPlugin" version="13104.12"/>
                <capability name="Safe area layout guides" minToolsVersion="9.0"/>
                <capability name="documents saved in the Xcode 8 format" minToolsVersion="8.0"/>
            </dependencies>
            <scenes>
                <!--Share View Controller-->
                <scene sceneID="ceB-am-kn3">
                    <objects>
                        <viewController id="j1y-V4-xli" customClass="ShareViewController" customModuleProvider="target" \
        sceneMemberID="viewController">
                            <view key="view" opaque="NO" contentMode="scaleToFill" id="wbc-yd-nQP">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                                <color key="backgroundColor" red="0.0" green="0.0" blue="0.0" alpha="0.0" \
        colorSpace="custom" customColorSpace="sRGB"/>
                                <viewLayoutGuide key="safeArea" id="1Xd-am-t49"/>
                            </view>
                        </viewController>
                        <placeholder placeholderIdentifier="IBFirstResponder" id="CEy-Cv-SGf" userLabel="First Responder" \
        sceneMemberID="firstResponder"/>
                    </objects>
                    <point key="canvasLocation" x="-12" y="67"/>
                </scene>
            </scenes>
        </document>
        """

    @Test func xcodesShareTemplateRunsFromItsStoryboardAndTheDefaultPostCompletes() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(
            Self.storyboardKeys, files: ["Base.lproj/MainInterface.storyboard": Self.xcodeShareStoryboard])
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        // The built exthost, as a user runs it.
        let run = try await TestSupport.runProgram(
            TestSupport.program("exthost"), ["share", items.path, "--json", "--root", root.path])
        #expect(run.status == .exited(0), "\(run.errors)")
        let report = try TestSupport.decode(ShareReport.self, run.output, note: run.errors)
        #expect(
            report.principal
                == PrincipalDescription(
                    className: "ExtHostFixtureAppex.ShareViewController", source: .mainStoryboard,
                    kind: .viewController, storyboard: "Base.lproj/MainInterface.storyboard",
                    initializer: "init(coder:)"))
        let ui = try #require(report.userInterface)
        #expect(ui.defaultScript && ui.steps.map(\.step.description) == ["tap Post"])
        #expect(ui.lifeCycle.last?.call == "didSelectPost()", "\(ui.lifeCycle)")
        #expect(ui.initialScreen?.allNodes.contains { $0.role == .navigationBar } == true)
        #expect(report.extension?.outcome == "completed")
        #expect(report.log.contains("FIXTURE ShareViewController.didSelectPost"), "\(report.log)")
    }

    @Test func theBuiltExthostExitsTwoForAStoryboardThatIsNotXML() async throws {
        guard !Self.products.isEmpty else { throw Skip("no /proc/self/exe") }
        let (root, items) = try await Self.device(
            Self.storyboardKeys, files: ["MainInterface.storyboard": "MainInterface.storyboardc\n"])
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let run = try await TestSupport.runProgram(
            TestSupport.program("exthost"), ["share", items.path, "--root", root.path])
        #expect(run.status == .exited(2), "\(run.errors)")
        let file = root.appendingPathComponent("Bundles/Fix.app/PlugIns/Fix.appex/MainInterface.storyboard")
        #expect(
            run.errors.contains(
                "\(file.path):1:1: the storyboard is not well-formed XML: not XML: expected '<' to start an element"),
            "\(run.errors)")
        #expect(try Self.groupDefaults(root).isEmpty)
    }
}
