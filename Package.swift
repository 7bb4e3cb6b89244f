// swift-tools-version: 6.0
// exthost — the iOS share pipeline on Linux. Module plan: ../shared/DESIGN.md §2.
// Each module is one entry below; add a module only when it has real content.
import PackageDescription

let package = Package(
    name: "exthost",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "exthost", targets: ["exthost"]),
        .library(name: "ExtHostCommands", targets: ["ExtHostCommands"]),
    ],
    targets: [
        // MARK: - C
        .target(name: "CSystemShims"),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),

        // MARK: - Kernel-facing
        .target(name: "HostSystem", dependencies: ["CSystemShims"]),
        .target(name: "Archives", dependencies: ["CArchive"]),

        // MARK: - Pure domain
        .target(name: "UniformTypes"),

        // MARK: - Pure domain
        .target(name: "Predicates"),

        // MARK: - Domain
        .target(name: "AppGroups", dependencies: ["HostSystem", "Archives"]),

        // MARK: - Command line
        .target(name: "ExtHostCommands", dependencies: ["HostSystem", "UniformTypes", "AppGroups", "Archives"]),
        .executableTarget(name: "exthost", dependencies: ["ExtHostCommands"]),

        // MARK: - Tests
        .testTarget(name: "HostSystemTests", dependencies: ["HostSystem"]),
        .testTarget(name: "UniformTypesTests", dependencies: ["UniformTypes"]),
        .testTarget(name: "ArchivesTests", dependencies: ["Archives"], exclude: ["Fixtures"]),
        .testTarget(name: "AppGroupsTests", dependencies: ["AppGroups", "HostSystem", "Archives"]),
        .testTarget(name: "ExtHostCommandsTests", dependencies: ["ExtHostCommands", "AppGroups"]),
        .testTarget(name: "PredicatesTests", dependencies: ["Predicates"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)

// Settings every Swift target shares (STYLE.md, "Package.swift settings").
for target in package.targets where target.type != .system && target.name.first != "C" {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
