// swift-tools-version: 6.0
// Xcode's Share Extension template (SLComposeServiceViewController, MainInterface.storyboard) and
// its app, written as for iOS in Swift 5 language mode, run on Linux by exthost.
import PackageDescription

let package = Package(
    name: "MyApp",
    products: [
        // The extension's code, built as a dynamic library (libMyShare.so) that exthost's extension
        // process loads, as iOS loads an .appex's: MyApp.app/PlugIns/MyShare.appex names it
        // (CFBundleExecutable MyShare) and its storyboard (NSExtensionMainStoryboard).
        .library(name: "MyShare", type: .dynamic, targets: ["MyShare"])
    ],
    dependencies: [
        // exthost's checkout: $EXTHOST_PATH when set (the CI job in .github/workflows/exthost.yml), else this one.
        .package(name: "exthost", path: Context.environment["EXTHOST_PATH"] ?? "@EXTHOST_PATH@")
    ],
    targets: [
        .target(name: "MyShare", dependencies: [.product(name: "ExtHostExtension", package: "exthost")]),
        // The app: reads what the extension posted into the App Group.
        .executableTarget(name: "MyApp", dependencies: [.product(name: "ExtHostApp", package: "exthost")]),
    ],
    swiftLanguageModes: [.v5]
)
