// swift-tools-version: 6.0
// A share extension and its app, written as for iOS, run on Linux by exthost.
import PackageDescription

let package = Package(
    name: "MyApp",
    dependencies: [
        // exthost's checkout: $EXTHOST_PATH when set (the CI job in .github/workflows/exthost.yml), else this one.
        .package(name: "exthost", path: Context.environment["EXTHOST_PATH"] ?? "@EXTHOST_PATH@")
    ],
    targets: [
        // The share extension: MyApp.app/PlugIns/MyShare.appex runs this program.
        .executableTarget(name: "MyShare", dependencies: [.product(name: "ExtHostExtension", package: "exthost")]),
        // The app: reads what the extension saved in the App Group.
        .executableTarget(name: "MyApp", dependencies: [.product(name: "ExtHostApp", package: "exthost")]),
        .testTarget(
            name: "MyShareTests",
            dependencies: [
                "MyShare", "MyApp",
                .product(name: "ExtHostTesting", package: "exthost"),
                .product(name: "exthost-sandbox-exec", package: "exthost"),
            ]),
    ]
)
