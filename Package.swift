// swift-tools-version: 6.0
// exthost — the iOS share pipeline on Linux. One module per concept; dependencies only point down.
// Each module is one entry below; add a module only when it has real content.
import PackageDescription

let package = Package(
    name: "exthost",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "exthost", targets: ["exthost"]),
        .library(name: "ExtHostCommands", targets: ["ExtHostCommands"]),
        // Extension code written as for iOS: `import UniformTypeIdentifiers` (or MobileCoreServices) gives
        // NSItemProvider, NSExtensionContext, NSExtensionMain, UTType, FileManager.containerURL, group defaults.
        // `import UIKit` and `import Social` for view-controller extensions (headless: views are state, nothing is drawn);
        // `import Intents` (what `exthost import` lets an extension import) for INIntent and its kin.
        .library(
            name: "ExtHostExtension",
            targets: [
                "ExtensionFoundation", "UniformTypeIdentifiers", "MobileCoreServices", "UIKit", "Social", "Intents",
            ]),
        // App code: the same Apple names, plus the group's inbox of committed entries (AppGroups) and the
        // app runtime UIKit finds by name (AppRuntime: the life cycle, the share sheet of an app that shares).
        .library(
            name: "ExtHostApp",
            targets: [
                "ExtensionFoundation", "UniformTypeIdentifiers", "MobileCoreServices", "AppGroups", "UIKit",
                "LinkPresentation",
                "Intents", "AppIntents", "_Testing_UIKit", "AppRuntime",
            ]),
        // Tests: a fresh device, install, share through the real sandboxed pipeline, run the app, read the group.
        .library(name: "ExtHostTesting", targets: ["ExtHostTesting"]),
        // An extension built as a dynamic library, as a user's is (tests load it through the launcher).
        .library(name: "ExtHostFixtureAppex", type: .dynamic, targets: ["ExtHostFixtureAppex"]),
        // The sandbox launcher; a test target that shares depends on it so it is built beside the tests.
        .executable(name: "exthost-sandbox-exec", targets: ["exthost-sandbox-exec"]),
        // The built-in extensions (save-to-group, uppercase action) as a small program of their own: it
        // starts faster than re-executing `exthost`; without it `exthost` runs them itself.
        .executable(name: "exthost-builtin-extension", targets: ["exthost-builtin-extension"]),
        // The built-in app (for an app bundle without a program of its own), also a program of its own.
        .executable(name: "exthost-builtin-app", targets: ["exthost-builtin-app"]),
    ],
    targets: [
        // MARK: - C
        .target(name: "CSystemShims"),
        .target(name: "CSandbox"),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .executableTarget(name: "exthost-sandbox-exec", dependencies: ["CSandbox"]),
        // SHA-256 from libcrypto (libssl-dev); a C target, not a system library, so the deprecated
        // low-level calls compile in one file without warnings reaching Swift.
        .target(
            name: "CDigest", cSettings: [.define("OPENSSL_SUPPRESS_DEPRECATED")],
            linkerSettings: [.linkedLibrary("crypto")]),
        // PNG through libpng's simplified API and JPEG through TurboJPEG: both report errors by return value,
        // so no setjmp/longjmp crosses into Swift.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),

        // MARK: - Pure domain
        // The shapes every module reports in: the one error struct (code, message, cause), the one
        // diagnostic, and the JSON object whose keys are data.
        .target(name: "Reporting"),
        // Documents read into values that know their line and column: JSON, XML and binary property
        // lists, old-style property lists (project.pbxproj), through one entry point.
        .target(name: "LocatedDocuments"),
        .target(name: "UniformTypes", dependencies: ["Reporting"]),
        .target(name: "Predicates"),
        .target(name: "ActivationRules", dependencies: ["UniformTypes", "Predicates", "Reporting", "LocatedDocuments"]),
        // What a headless screen shows (view trees as text, JSON and an HTML page) and the scripted user's steps.
        .target(name: "HeadlessScreens"),
        // Decoding and encoding PNG and JPEG images (UIImage).
        .target(name: "ImageCodecs", dependencies: ["CPNG", "CTurboJPEG"]),

        // MARK: - Kernel-facing
        .target(name: "HostSystem", dependencies: ["CSystemShims", "CSandbox"]),
        .target(name: "Archives", dependencies: ["CArchive", "HostSystem"]),

        // MARK: - Host ↔ extension wire contract
        .target(name: "ExtensionIPC", dependencies: ["HostSystem", "HeadlessScreens", "Reporting"]),

        // MARK: - Containers
        .target(name: "AppGroups", dependencies: ["HostSystem", "Archives", "CDigest", "Reporting"]),

        // MARK: - Item providers (NSItemProvider / NSExtensionItem model)
        .target(
            name: "ItemProviders",
            dependencies: ["UniformTypes", "HostSystem", "Archives", "ExtensionIPC", "Reporting"]),
        .systemLibrary(name: "CMagic", pkgConfig: "libmagic", providers: [.apt(["libmagic-dev"])]),
        .target(
            name: "Payloads",
            dependencies: [
                "ItemProviders", "UniformTypes", "ActivationRules", "Predicates", "Archives", "CMagic", "HostSystem",
                "LocatedDocuments",
            ]),

        // MARK: - The share: host and extension sides
        .target(
            name: "ExtensionHost",
            dependencies: [
                "HostSystem", "ExtensionIPC", "AppGroups", "ItemProviders", "ActivationRules", "Payloads",
                "UniformTypes", "HeadlessScreens",
            ]),
        .target(
            name: "ExtensionRuntime",
            dependencies: ["HostSystem", "ExtensionIPC", "AppGroups", "ItemProviders", "CSystemShims"]),

        .target(
            name: "Shortcuts",
            dependencies: [
                "AppGroups", "ExtensionHost", "ExtensionIPC", "UniformTypes", "Payloads", "LocatedDocuments",
            ]),
        // What the device's Launch Services decide (which app opens a file or URL, the hand-over into
        // its Inbox), AirDrop's receiving side, and the Info.plist checks of the ways into an app.
        .target(
            name: "LaunchServices",
            dependencies: [
                "ActivationRules", "AppGroups", "ExtensionHost", "ExtensionIPC", "HostSystem", "Reporting", "UniformTypes",
            ]),
        // What the share sheet shows, as values (UIKit returns them without linking the sheet).
        .target(name: "SheetReports", dependencies: ["ActivationRules"]),
        .target(
            name: "ShareSheet",
            dependencies: [
                "Shortcuts", "ActivationRules", "AppGroups", "Payloads", "ItemProviders", "UniformTypes",
                "ExtensionHost",
                "ExtensionIPC", "HostSystem", "LaunchServices", "SheetReports", "HeadlessScreens",
            ]),

        // MARK: - Apple's names, for a user's own extension and app
        .target(
            name: "ExtensionFoundation",
            dependencies: [
                "ItemProviders", "UniformTypes", "ExtensionRuntime", "ExtensionIPC", "AppGroups", "HostSystem",
                "ImageCodecs",
            ]),
        .target(
            name: "UniformTypeIdentifiers", dependencies: ["ExtensionFoundation", "UniformTypes", "ItemProviders"]),
        .target(name: "MobileCoreServices", dependencies: ["UniformTypeIdentifiers", "UniformTypes"]),
        .target(name: "LinkPresentation", dependencies: ["ExtensionFoundation"]),
        .target(name: "Intents", dependencies: ["ExtensionFoundation"]),
        // Apple's AppIntents for apps: AppIntent, @Parameter, IntentFile, IntentResult (performed by AppRuntime).
        .target(name: "AppIntents", dependencies: ["UniformTypeIdentifiers"]),
        .target(name: "_Testing_UIKit"),
        // One UIKit for apps and extensions: light (no host side); it finds the app runtime by name.
        .target(
            name: "UIKit",
            dependencies: [
                "_Testing_UIKit", "ExtensionFoundation", "LinkPresentation", "SheetReports", "HeadlessScreens",
                "ItemProviders",
                "AppGroups", "ExtensionIPC", "ExtensionRuntime", "LocatedDocuments",
            ]),
        // The app process's runtime under UIKit: the launch sequence, delivery to the app and scene
        // delegates, the app's channel, and the share sheet of an app that shares (ExtHostApp only).
        .target(
            name: "AppRuntime",
            dependencies: [
                "UIKit", "ShareSheet", "SheetReports", "Payloads", "AppGroups", "ExtensionHost", "ExtensionIPC",
                "HostSystem",
                "ItemProviders", "Intents", "LinkPresentation", "AppIntents", "UniformTypeIdentifiers",
            ]),
        // Apple's Social framework for share extensions: SLComposeServiceViewController.
        .target(name: "Social", dependencies: ["UIKit", "ExtensionFoundation", "ExtensionIPC", "HeadlessScreens"]),

        // The app exthost runs for an app bundle without a program (exthost __app).
        .target(name: "BuiltInApp", dependencies: ["UIKit", "Intents"]),

        .target(
            name: "ExtHostTesting",
            dependencies: ["ExtensionHost", "AppGroups", "HostSystem", "ExtensionIPC", "LaunchServices"]),

        // Xcode projects: project.pbxproj (old-style plists), targets, build settings, the Objective-C-runtime
        // adaptations, and the Swift package `exthost import` generates from them.
        .target(name: "XcodeProjects", dependencies: ["AppGroups", "HostSystem", "LocatedDocuments"]),

        // MARK: - Command line
        .target(
            name: "ExtHostCommands",
            dependencies: [
                "HostSystem", "UniformTypes", "ActivationRules", "AppGroups", "Archives", "ExtensionIPC",
                "ItemProviders", "Payloads", "ExtensionHost", "ExtensionRuntime", "ShareSheet", "Shortcuts",
                "LaunchServices", "SheetReports", "HeadlessScreens", "XcodeProjects", "Reporting",
            ]),
        .executableTarget(
            name: "exthost",
            dependencies: ["ExtHostCommands", "ExtensionHost", "HostSystem"]),

        // MARK: - Test helpers
        .executableTarget(name: "exthost-test-child", dependencies: ["HostSystem", "ExtensionIPC"]),

        .executableTarget(
            name: "exthost-example-extension",
            dependencies: ["ExtensionRuntime", "ItemProviders", "AppGroups", "ExtensionIPC", "HostSystem"]),
        .executableTarget(name: "exthost-probe-extension", dependencies: ["UniformTypeIdentifiers", "UIKit"]),
        .executableTarget(
            name: "exthost-probe-app",
            dependencies: ["UIKit", "Intents", "AppRuntime", "AppIntents", "UniformTypeIdentifiers"]),
        .executableTarget(name: "exthost-uikit-only", dependencies: ["UIKit"]),
        // Swift 5 language mode, as most iOS code is: the shapes of issue 24 must compile there.
        .target(
            name: "ExtHostFixtureAppex", dependencies: ["UniformTypeIdentifiers", "MobileCoreServices", "UIKit", "Social"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "exthost-defaults-writer", dependencies: ["UniformTypeIdentifiers"]),
        .target(name: "CEscapeProbes"),
        .executableTarget(
            name: "exthost-hostile-extension", dependencies: ["CEscapeProbes", "HostSystem", "ExtensionIPC"]),
        // An app's program that tries every escape from its sandbox (C, like the hostile extension; tests only).
        .executableTarget(name: "exthost-hostile-app", dependencies: ["CEscapeProbes"]),

        // MARK: - Benchmarks (run by Scripts/bench-*, release builds)
        .executableTarget(
            name: "bench-rules", dependencies: ["ActivationRules", "Predicates", "UniformTypes", "HostSystem"]),
        .executableTarget(name: "bench-items", dependencies: ["ItemProviders", "HostSystem"]),
        .executableTarget(name: "bench-testdevice", dependencies: ["ExtHostTesting"]),
        .executableTarget(name: "exthost-builtin-extension", dependencies: ["ExtensionRuntime", "HostSystem"]),
        // AppRuntime is linked for UIKit to find by name.
        .executableTarget(name: "exthost-builtin-app", dependencies: ["BuiltInApp", "AppRuntime", "HostSystem"]),

        // MARK: - Tests (one target per library module; ExtHostTestSupport holds what they share)
        .target(name: "ExtHostTestSupport", dependencies: ["HostSystem"], path: "Tests/ExtHostTestSupport"),
        .testTarget(
            name: "HostSystemTests",
            dependencies: [
                "HostSystem", "ExtensionIPC", "ExtHostTestSupport", "exthost-sandbox-exec", "exthost-test-child",
            ]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting"]),
        .testTarget(name: "LocatedDocumentsTests", dependencies: ["LocatedDocuments"]),
        .testTarget(name: "UniformTypesTests", dependencies: ["UniformTypes"]),
        .testTarget(name: "PredicatesTests", dependencies: ["Predicates"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ActivationRulesTests", dependencies: ["ActivationRules", "Predicates", "UniformTypes"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "ArchivesTests", dependencies: ["Archives"], exclude: ["Fixtures"]),
        .testTarget(name: "ExtensionIPCTests", dependencies: ["ExtensionIPC", "HostSystem"]),
        .testTarget(name: "AppGroupsTests", dependencies: ["AppGroups", "HostSystem", "Archives"]),
        .testTarget(
            name: "ItemProvidersTests",
            dependencies: ["ItemProviders", "HostSystem", "UniformTypes", "Archives", "ExtensionIPC"]),
        .testTarget(
            name: "PayloadsTests",
            dependencies: ["Payloads", "ItemProviders", "ActivationRules", "Archives", "Predicates", "UniformTypes"]),
        .testTarget(
            name: "ExtHostCommandsTests",
            dependencies: [
                "ExtHostCommands", "AppGroups", "exthost", "exthost-sandbox-exec", "exthost-example-extension",
                "exthost-hostile-extension", "exthost-hostile-app", "exthost-probe-extension", "exthost-probe-app",
                "ExtensionHost", "HostSystem", "ItemProviders",
                "Payloads", "ShareSheet", "ExtensionIPC", "ActivationRules", "LaunchServices", "Shortcuts",
                "ExtHostTestSupport", "SheetReports", "UniformTypes", "HeadlessScreens", "XcodeProjects", "Reporting",
                "exthost-builtin-app",
            ], exclude: ["BadInputs", "HelpSnapshots"]),
        .testTarget(
            name: "ExtensionHostTests",
            dependencies: [
                "ExtensionHost", "ExtensionIPC", "HostSystem", "AppGroups", "ItemProviders", "exthost-sandbox-exec",
                "exthost-hostile-extension", "exthost-example-extension", "exthost", "exthost-builtin-extension",
                "ExtensionRuntime", "exthost-builtin-app",
            ]),
        .testTarget(
            name: "ExtensionFoundationTests",
            dependencies: [
                "UniformTypeIdentifiers", "ExtensionFoundation", "AppGroups", "ExtensionIPC",
                "HostSystem", "exthost-defaults-writer",
            ]),
        .testTarget(name: "ExtensionRuntimeTests", dependencies: ["ExtensionRuntime", "ExtensionIPC", "HostSystem", "ItemProviders"]),
        .testTarget(name: "UniformTypeIdentifiersTests", dependencies: ["UniformTypeIdentifiers"]),
        .testTarget(name: "MobileCoreServicesTests", dependencies: ["MobileCoreServices"]),
        .testTarget(name: "IntentsTests", dependencies: ["Intents"]),
        .testTarget(name: "AppIntentsTests", dependencies: ["AppIntents", "UniformTypeIdentifiers"]),
        .testTarget(name: "LinkPresentationTests", dependencies: ["LinkPresentation"]),
        .testTarget(name: "SheetReportsTests", dependencies: ["SheetReports"]),
        .testTarget(
            name: "LaunchServicesTests",
            dependencies: ["LaunchServices", "ActivationRules", "AppGroups", "ExtHostTestSupport"]),
        .testTarget(
            name: "ShortcutsTests",
            dependencies: [
                "Shortcuts", "AppGroups", "ExtensionHost", "ExtensionIPC", "HostSystem", "ExtHostTestSupport",
            ], exclude: ["FuzzRegressions"]),
        .testTarget(
            name: "ShareSheetTests",
            dependencies: [
                "ShareSheet", "SheetReports", "LaunchServices", "Payloads", "AppGroups", "HostSystem",
                "ExtHostTestSupport",
                "exthost", "exthost-sandbox-exec", "exthost-probe-extension", "ExtensionHost", "ExtensionIPC",
                "ItemProviders", "exthost-builtin-app",
            ]),
        .testTarget(
            name: "AppRuntimeTests",
            dependencies: [
                "AppRuntime", "UIKit", "LinkPresentation", "AppGroups", "ExtensionHost", "ExtensionIPC", "HostSystem",
                "ExtHostTestSupport", "exthost", "exthost-sandbox-exec", "exthost-probe-app",
                "exthost-builtin-app",
            ]),
        .testTarget(
            name: "BuiltInAppTests",
            dependencies: [
                "AppGroups", "ExtensionHost", "ExtensionIPC", "HostSystem", "ExtHostTestSupport", "exthost",
                "exthost-sandbox-exec", "exthost-builtin-app",
            ]),
        .testTarget(
            name: "ExtHostTestingTests",
            dependencies: [
                "ExtHostTesting", "ExtHostTestSupport", "exthost", "exthost-sandbox-exec", "ExtensionIPC", "HostSystem",
                "AppGroups", "exthost-builtin-extension", "exthost-builtin-app",
            ]),
        .testTarget(name: "HeadlessScreensTests", dependencies: ["HeadlessScreens"]),
        // Fixtures/ holds Xcode projects written for these tests (their Swift files are not compiled here).
        .testTarget(name: "XcodeProjectsTests", dependencies: ["XcodeProjects"], exclude: ["Fixtures"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs"]),
        .testTarget(
            name: "UIKitTests",
            dependencies: [
                "UIKit", "HeadlessScreens", "ExtensionFoundation", "ItemProviders", "HostSystem", "ExtHostTestSupport",
                "exthost-uikit-only",
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "SocialTests",
            dependencies: [
                "Social", "UIKit", "HeadlessScreens", "ExtensionFoundation", "ItemProviders", "ExtensionHost", "ExtensionIPC",
                "HostSystem", "ExtHostTestSupport", "exthost", "exthost-sandbox-exec", "exthost-probe-app",
                "exthost-builtin-app",
            ]),
        // Extension code as most iOS projects write it: Swift 5 language mode, no upcoming features.
        .testTarget(
            name: "UIKitSwift5Tests",
            dependencies: [
                "UIKit", "HeadlessScreens", "ItemProviders", "MobileCoreServices", "ExtensionFoundation", "AppIntents",
                "UniformTypeIdentifiers",
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)

// Settings every Swift target shares; no unsafe flags (the package is a dependency of users' packages).
// The Swift 5 targets (the fixture extension, UIKitSwift5Tests) are compiled as a user's are: without them.
let swift5Targets: Set<String> = ["ExtHostFixtureAppex", "UIKitSwift5Tests"]
for target in package.targets
where target.type != .system && target.name.first != "C" && !swift5Targets.contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
