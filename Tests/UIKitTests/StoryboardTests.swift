import ExtensionFoundation
import Foundation
import HeadlessScreens
import Testing

@testable import UIKit

/// Storyboards read from their XML: the located XML reader, and view controllers made from a
/// storyboard with UIKit's classes (the extension's own classes are covered end to end in
/// ExtHostCommandsTests.LibraryExtensionTests).
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct StoryboardTests {
    // MARK: - The XML reader

    @Test func elementsKeepTheirLineAndColumnAndTextIsDecoded() throws {
        let root = try LocatedXML.parse(
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- a comment -->
                <a x="1" y='two &amp; three'>
                    <b>caf\u{E9} &lt;&#x41;&#66;&gt;</b><c/>
                    <d><![CDATA[<raw>]]></d>
                </a>
                """.utf8))
        #expect(root.name == "a" && root.line == 3 && root.column == 1)
        #expect(root["x"] == "1" && root["y"] == "two & three")
        #expect(root.children.map(\.name) == ["b", "c", "d"])
        let b = root.children[0]
        #expect(b.line == 4 && b.column == 5 && b.text == "caf\u{E9} <AB>")
        // Columns count characters, not bytes: <c/> follows "é" (two bytes).
        #expect(root.children[1].line == 4 && root.children[1].column == 36)
        #expect(root.children[2].text == "<raw>")
    }

    struct BadXML: Sendable, CustomTestStringConvertible {
        var text: String
        var message: String
        var line: Int
        var column: Int
        var testDescription: String { message }
    }

    @Test(arguments: [
        BadXML(text: "", message: "the file is empty: expected an XML document", line: 1, column: 1),
        BadXML(text: "  {\"a\": 1}", message: "not XML: expected '<' to start an element", line: 1, column: 3),
        BadXML(text: "<a>\n  <b></a>", message: "</a> does not close <b> (opened at 2:3)", line: 2, column: 6),
        BadXML(text: "<a>\n<b>\n", message: "the file ends inside <b> (opened at 2:1)", line: 3, column: 1),
        BadXML(text: "<a x='1' x='2'/>", message: "attribute 'x' is written twice in <a>", line: 1, column: 10),
        BadXML(text: "<a>&nbsp;</a>", message: "unknown entity '&nbsp;'", line: 1, column: 4),
        BadXML(text: "<a b=c/>", message: "expected a quoted value for attribute 'b'", line: 1, column: 6),
        BadXML(text: "<a/><b/>", message: "content after the root element <a> ends", line: 1, column: 5),
        BadXML(text: "<a><!-- open", message: "comment is not closed ('-->')", line: 1, column: 4),
    ])
    func malformedXMLIsRefusedAtItsPlace(_ bad: BadXML) {
        #expect(throws: LocatedXML.SyntaxError(message: bad.message, line: bad.line, column: bad.column)) {
            try LocatedXML.parse(Array(bad.text.utf8))
        }
    }

    @Test func deepNestingIsRefusedNotTrapped() {
        let text = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(throws: LocatedXML.SyntaxError.self) { try LocatedXML.parse(Array(text.utf8)) }
    }

    // MARK: - Storyboards

    static func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sb-\(UUID().uuidString).storyboard")
        try Data(text.utf8).write(to: url)
        return url
    }

    static let uikitOnly = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="vc">
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <viewController id="vc" title="Pick" sceneMemberID="viewController">
                            <view key="view" id="root">
                                <rect key="frame" x="0.0" y="0.0" width="390" height="844"/>
                                <subviews>
                                    <label text="Hello" textAlignment="center" numberOfLines="2" hidden="YES" \
        alpha="0.5" tag="7" id="label">
                                        <rect key="frame" x="10" y="20" width="300" height="40"/>
                                        <fontDescription key="fontDescription" type="boldSystem" pointSize="20"/>
                                        <color key="textColor" red="1" green="0.0" blue="0.0" alpha="1" \
        colorSpace="custom" customColorSpace="sRGB"/>
                                    </label>
                                    <imageView image="missing-photo" id="image">
                                        <rect key="frame" x="0" y="70" width="100" height="100"/>
                                    </imageView>
                                    <tableView style="grouped" rowHeight="60" id="table">
                                        <rect key="frame" x="0" y="180" width="390" height="400"/>
                                        <prototypes>
                                            <tableViewCell reuseIdentifier="Row" id="cell"/>
                                        </prototypes>
                                        <connections>
                                            <outlet property="dataSource" destination="vc" id="o1"/>
                                        </connections>
                                    </tableView>
                                    <textField text="typed" placeholder="Name" enabled="NO" id="field">
                                        <rect key="frame" x="0" y="600" width="390" height="34"/>
                                    </textField>
                                    <button buttonType="system" id="button">
                                        <buttonConfiguration key="configuration" style="filled" title="Go"/>
                                    </button>
                                </subviews>
                                <constraints>
                                    <constraint firstItem="label" firstAttribute="width" secondItem="label" \
        secondAttribute="height" multiplier="15:2" id="ratio"/>
                                    <constraint firstAttribute="trailingMargin" secondItem="label" \
        secondAttribute="trailing" id="margin"/>
                                </constraints>
                            </view>
                            <navigationItem key="navigationItem" title="Choose" id="item">
                                <barButtonItem key="rightBarButtonItem" systemItem="done" id="done"/>
                            </navigationItem>
                            <connections>
                                <outlet property="nothingByThisName" destination="label" id="o2"/>
                            </connections>
                        </viewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """

    @Test func uikitViewsAreMadeWithTheirStoryboardStateWhenTheViewLoads() throws {
        let url = try Self.write(Self.uikitOnly)
        defer { try? FileManager.default.removeItem(at: url) }
        let storyboard = try StoryboardFile(contentsOf: url, module: "NoSuchModule", bundle: nil)
        let controller = try storyboard.instantiate(try storyboard.initialViewControllerElement())
        // Diagnostics are the process's: leave none behind for other suites' screens (this test never
        // suspends, so none sees them meanwhile).
        defer { UIKitDiagnostics.forget { $0.object === controller } }
        #expect(type(of: controller) == UIViewController.self)
        #expect(controller.title == "Pick" && controller.navigationItem.title == "Choose")
        #expect(controller.navigationItem.rightBarButtonItem?.systemItem == .done)
        #expect(!controller.isViewLoaded)

        let view = try #require(controller.view)
        #expect(view.frame == CGRect(x: 0, y: 0, width: 390, height: 844))
        #expect(view.subviews.count == 5)
        let label = try #require(view.subviews[0] as? UILabel)
        #expect(label.text == "Hello" && label.textAlignment == .center && label.numberOfLines == 2)
        #expect(label.isHidden && label.alpha == 0.5 && label.tag == 7)
        #expect(label.frame == CGRect(x: 10, y: 20, width: 300, height: 40))
        #expect(label.font == UIFont.boldSystemFont(ofSize: 20))
        #expect(label.textColor == UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(view.subviews[1] is UIImageView)
        let table = try #require(view.subviews[2] as? UITableView)
        #expect(table.style == .grouped && table.rowHeight == 60)
        #expect(table.dequeueReusableCell(withIdentifier: "Row") != nil)
        // UIViewController is not a data source: the outlet is left nil, as key-value coding would.
        #expect(table.dataSource == nil)
        let field = try #require(view.subviews[3] as? UITextField)
        #expect(field.text == "typed" && field.placeholder == "Name" && !field.isEnabled)
        #expect((view.subviews[4] as? UIButton)?.title(for: .normal) == "Go")
        // The aspect ratio is recorded; a margin attribute is not.
        let ratio = try #require(label.constraints.first { $0.identifier == "ratio" })
        #expect(abs(ratio.multiplier - 7.5) < 0.0001 && ratio.firstAttribute == .width)
        #expect(!view.constraints.contains { $0.identifier == "margin" })
        // An outlet the class does not declare is reported, not trapped on.
        let unknown = UIKitDiagnostics.records.filter {
            $0.diagnostic.kind == .unknownOutlet && $0.object === controller
        }
        #expect(unknown.count == 1)
        #expect(unknown.first?.diagnostic.message.contains("outlet 'nothingByThisName'") == true)
        #expect(unknown.first?.diagnostic.message.contains("\(url.path):") == true)
    }

    @Test func aStoryboardWithoutAnInitialViewControllerNamesTheDocumentsLine() throws {
        let url = try Self.write(Self.uikitOnly.replacingOccurrences(of: " initialViewController=\"vc\"", with: ""))
        defer { try? FileManager.default.removeItem(at: url) }
        let storyboard = try StoryboardFile(contentsOf: url, module: "M", bundle: nil)
        #expect {
            try storyboard.initialViewControllerElement()
        } throws: { error in
            let error = error as? ExtensionBundleError
            return error?.line == 2 && error?.column == 1 && error?.file == url.path
                && error?.message.hasPrefix("the storyboard has no initial view controller") == true
        }
    }

    @Test func anElementExthostHasNoClassForIsRefusedBeforeAnythingIsMade() throws {
        let url = try Self.write(
            Self.uikitOnly.replacingOccurrences(
                of: "<imageView image=\"missing-photo\" id=\"image\">", with: "<mapView id=\"image\">"
            )
            .replacingOccurrences(of: "</imageView>", with: "</mapView>"))
        defer { try? FileManager.default.removeItem(at: url) }
        let storyboard = try StoryboardFile(contentsOf: url, module: "M", bundle: nil)
        #expect {
            try storyboard.instantiate(try storyboard.initialViewControllerElement())
        } throws: { error in
            let error = error as? ExtensionBundleError
            return error?.line == 15 && error?.message == "<mapView> cannot be made: exthost's UIKit has no MKMapView"
        }
    }

    @Test func navigationControllersThatAreEachOthersRootsAreRefusedNotFollowedForever() throws {
        let url = try Self.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" initialViewController="a">
                <scenes>
                    <scene sceneID="s1"><objects>
                        <navigationController id="a" sceneMemberID="viewController">
                            <connections>
                                <segue destination="b" kind="relationship" relationship="rootViewController" id="s"/>
                            </connections>
                        </navigationController>
                        <navigationController id="b" sceneMemberID="viewController">
                            <connections>
                                <segue destination="a" kind="relationship" relationship="rootViewController" id="t"/>
                            </connections>
                        </navigationController>
                    </objects></scene>
                </scenes>
            </document>
            """)
        defer { try? FileManager.default.removeItem(at: url) }
        let storyboard = try StoryboardFile(contentsOf: url, module: "M", bundle: nil)
        #expect {
            try storyboard.instantiate(try storyboard.initialViewControllerElement())
        } throws: { error in
            let error = error as? ExtensionBundleError
            return error?.line == 12
                && error?.message.hasPrefix("the rootViewController segue leads back to <navigationController> 'a'")
                    == true
        }
    }

    @Test func aPlistIsNotAStoryboard() throws {
        let url = try Self.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try StoryboardFile(contentsOf: url, module: "M", bundle: nil)
        } throws: { error in
            (error as? ExtensionBundleError)?.description
                == "\(url.path):2:1: not a storyboard: the root element is <plist>, not Interface Builder's <document>"
        }
    }

    // MARK: - UIStoryboard

    /// A bundle folder holding `Info.plist` and `Base.lproj/Main.storyboard` with `storyboard`.
    static func bundle(storyboard: String?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sb-\(UUID().uuidString).appex")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Base.lproj"), withIntermediateDirectories: true)
        let info: [String: Any] = ["CFBundleIdentifier": "com.example.App.Share", "CFBundleExecutable": "Share"]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: folder.appendingPathComponent("Info.plist"))
        if let storyboard {
            try Data(storyboard.utf8).write(to: folder.appendingPathComponent("Base.lproj/Main.storyboard"))
        }
        return folder
    }

    static let scenes = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="nav">
            <scenes>
                <scene sceneID="s1"><objects>
                    <navigationController id="nav" sceneMemberID="viewController">
                        <connections>
                            <segue destination="root" kind="relationship" relationship="rootViewController" id="r"/>
                        </connections>
                    </navigationController>
                </objects></scene>
                <scene sceneID="s2"><objects>
                    <viewController id="root" title="Root" sceneMemberID="viewController"/>
                </objects></scene>
                <scene sceneID="s3"><objects>
                    <viewController storyboardIdentifier="Details" id="details" title="Details" \
        sceneMemberID="viewController">
                        <view key="view" id="v">
                            <subviews>
                                <label text="Shared" id="l"/>
                            </subviews>
                        </view>
                    </viewController>
                </objects></scene>
            </scenes>
        </document>
        """

    @Test func aStoryboardByNameMakesItsInitialViewControllerWithItsRoot() throws {
        let bundle = try Self.bundle(storyboard: Self.scenes)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let storyboard = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        let initial = try #require(storyboard.instantiateInitialViewController() as? UINavigationController)
        #expect(initial.storyboard === storyboard)
        let root = try #require(initial.viewControllers.first)
        #expect(root.title == "Root" && root.storyboard === storyboard)
        #expect(UIViewController().storyboard == nil)
    }

    @Test func aStoryboardIDMakesANewViewControllerEachTime() throws {
        let bundle = try Self.bundle(storyboard: Self.scenes)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let storyboard = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        let first = storyboard.instantiateViewController(withIdentifier: "Details")
        let second = storyboard.instantiateViewController(withIdentifier: "Details")
        #expect(first !== second)
        #expect(first.title == "Details" && first.storyboard === storyboard)
        #expect((first.view.subviews.first as? UILabel)?.text == "Shared")
        // The initial view controller made by a creator given the storyboard's coder.
        var createdFromCoder = false
        let made = storyboard.instantiateInitialViewController { coder in
            createdFromCoder = true
            return UINavigationController(coder: coder)
        }
        #expect(createdFromCoder && made is UINavigationController)
        #expect((made as? UINavigationController)?.viewControllers.first?.title == "Root")
        #expect(!UIKitDiagnostics.records.contains { $0.object === storyboard })
    }

    @Test func anUnknownStoryboardIDIsReportedAsIOSWouldRaiseIt() throws {
        let bundle = try Self.bundle(storyboard: Self.scenes)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let storyboard = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        defer { UIKitDiagnostics.forget { $0.object === storyboard } }
        let made = storyboard.instantiateViewController(withIdentifier: "Nope")
        #expect(type(of: made) == UIViewController.self && made.storyboard == nil)
        let records = UIKitDiagnostics.records.filter { $0.object === storyboard }
        #expect(records.map(\.diagnostic.kind) == [.storyboardRefused])
        #expect(
            records.first?.diagnostic.message.contains(
                "doesn't contain a view controller with identifier 'Nope' (iOS raises NSInvalidArgumentException")
                == true)
    }

    @Test func aMissingOrBrokenStoryboardIsReportedAndMakesNothing() throws {
        let bundle = try Self.bundle(storyboard: nil)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let missing = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        defer { UIKitDiagnostics.forget { $0.object === missing } }
        #expect(missing.instantiateInitialViewController() == nil)
        let message = UIKitDiagnostics.records.first { $0.object === missing }?.diagnostic.message ?? ""
        #expect(message.hasPrefix("Could not find a storyboard named 'Main' in bundle \(bundle.path)"), "\(message)")

        try Data("not xml".utf8).write(to: bundle.appendingPathComponent("Base.lproj/Main.storyboard"))
        let broken = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        defer { UIKitDiagnostics.forget { $0.object === broken } }
        #expect(broken.instantiateInitialViewController() == nil)
        let brokenMessage = UIKitDiagnostics.records.first { $0.object === broken }?.diagnostic.message ?? ""
        #expect(
            brokenMessage.contains("Main.storyboard:1:1: the storyboard is not well-formed XML"), "\(brokenMessage)")
    }

    @Test func aStoryboardWithoutAnInitialViewControllerGivesNil() throws {
        let bundle = try Self.bundle(
            storyboard: Self.scenes.replacingOccurrences(of: " initialViewController=\"nav\"", with: ""))
        defer { try? FileManager.default.removeItem(at: bundle) }
        let storyboard = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        #expect(storyboard.instantiateInitialViewController() == nil)
        // Apple: nil, not an exception; nothing is reported.
        #expect(!UIKitDiagnostics.records.contains { $0.object === storyboard })
        #expect(storyboard.instantiateViewController(withIdentifier: "Details").title == "Details")
    }

    // MARK: - Segues

    static let segues = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="nav">
            <scenes>
                <scene sceneID="s1"><objects>
                    <navigationController id="nav" sceneMemberID="viewController">
                        <connections>
                            <segue destination="src" kind="relationship" relationship="rootViewController" id="r"/>
                        </connections>
                    </navigationController>
                </objects></scene>
                <scene sceneID="s2"><objects>
                    <viewController id="src" customClass="SegueSourceViewController" customModule="UIKitTests" \
        sceneMemberID="viewController">
                        <view key="view" id="v">
                            <rect key="frame" x="0.0" y="0.0" width="390" height="844"/>
                            <subviews>
                                <containerView id="box">
                                    <rect key="frame" x="0.0" y="100" width="390" height="300"/>
                                    <connections>
                                        <segue destination="embedded" kind="embed" identifier="Embed" id="e"/>
                                    </connections>
                                </containerView>
                                <button id="go">
                                    <rect key="frame" x="0.0" y="500" width="100" height="44"/>
                                    <buttonConfiguration key="configuration" style="plain" title="Go"/>
                                    <connections>
                                        <segue destination="details" kind="show" identifier="Details" id="g"/>
                                    </connections>
                                </button>
                            </subviews>
                        </view>
                        <connections>
                            <segue destination="modal" kind="presentation" identifier="Modal" id="m"/>
                        </connections>
                    </viewController>
                    <viewController id="embedded" title="Embedded" sceneMemberID="viewController"/>
                    <viewController id="details" title="Details" sceneMemberID="viewController"/>
                    <viewController id="modal" title="Modal" sceneMemberID="viewController"/>
                </objects></scene>
            </scenes>
        </document>
        """

    @Test func anEmbedSegueMakesAChildWhileTheViewLoadsAfterPrepare() async throws {
        let bundle = try Self.bundle(storyboard: Self.segues)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let storyboard = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        let navigation = try #require(storyboard.instantiateInitialViewController() as? UINavigationController)
        let source = try #require(navigation.viewControllers.first as? SegueSourceViewController)
        _ = await Screen.present(navigation)
        // The child is there before viewDidLoad(), prepared first, its view filling the container.
        #expect(source.childrenAtViewDidLoad == 1)
        #expect(source.prepared.map(\.identifier) == ["Embed"])
        let child = try #require(source.children.first)
        #expect(child.title == "Embedded" && child.storyboard === storyboard)
        #expect(source.prepared.first?.destination === child)
        let container = try #require(source.view.subviews.first)
        #expect(child.view.superview === container && child.view.frame.size == CGSize(width: 390, height: 300))
    }

    @Test func aTappedSegueAndAManualOneRunPrepareThenTheirTransition() async throws {
        let bundle = try Self.bundle(storyboard: Self.segues)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let storyboard = UIStoryboard(name: "Main", bundle: Bundle(url: bundle))
        let navigation = try #require(storyboard.instantiateInitialViewController() as? UINavigationController)
        let source = try #require(navigation.viewControllers.first as? SegueSourceViewController)
        let screen = await Screen.present(navigation)
        defer { UIKitDiagnostics.forget { $0.object === source } }

        // A `show` segue from a button, inside a navigation controller: pushed, with the button as sender.
        source.allowsDetails = false
        _ = try await Screen.run("tap Go", on: screen)
        #expect(navigation.viewControllers.count == 1, "shouldPerformSegue(withIdentifier:sender:) said no")
        source.allowsDetails = true
        let run = try await Screen.run("tap Go", on: screen)
        #expect(run.steps.map(\.outcome) == [.performed], "\(run.steps.map(\.note))")
        #expect(navigation.viewControllers.count == 2)
        let pushed = try #require(navigation.viewControllers.last)
        #expect(pushed.title == "prepared Details")
        #expect(source.prepared.last?.identifier == "Details" && source.prepared.last?.sender is UIButton)

        // A manual `presentation` segue, by identifier: a new destination each time.
        navigation.popViewController(animated: false)
        source.performSegue(withIdentifier: "Modal", sender: "from code")
        let presented = try #require(navigation.presentedViewController)
        #expect(presented.title == "prepared Modal")
        #expect(source.prepared.last?.sender as? String == "from code")

        // An identifier the scene does not declare is reported as iOS would raise it.
        source.performSegue(withIdentifier: "Nope", sender: nil)
        let refused = UIKitDiagnostics.records.filter {
            $0.object === source && $0.diagnostic.kind == .storyboardRefused
        }
        #expect(refused.first?.diagnostic.message.contains("has no segue with identifier 'Nope'") == true)
    }
}

/// A storyboard scene's view controller that records its segues.
final class SegueSourceViewController: UIViewController {
    var prepared: [(identifier: String?, destination: UIViewController, sender: Any?)] = []
    var childrenAtViewDidLoad = -1
    var allowsDetails = true

    override func viewDidLoad() {
        super.viewDidLoad()
        childrenAtViewDidLoad = children.count
    }

    override func prepare(for segue: UIStoryboardSegue, sender: Any?) {
        prepared.append((segue.identifier, segue.destination, sender))
        segue.destination.title = "prepared " + (segue.destination.title ?? "")
        if segue.identifier == "Embed" { segue.destination.title = "Embedded" }
    }

    override func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool {
        identifier != "Details" || allowsDetails
    }
}
