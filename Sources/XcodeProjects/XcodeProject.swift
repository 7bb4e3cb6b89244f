public import Foundation

/// An Xcode project read from its `project.pbxproj`: the application targets and their app
/// extensions, with their Swift sources, resources and build settings of one configuration.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder.
    public var url: URL
    /// `$(SRCROOT)`: the folder holding the `.xcodeproj` (or the project's `projectDirPath` in it).
    public var sourceRoot: URL
    /// The configuration read (default `Debug`).
    public var configuration: String
    /// Every target of the project the import knows (applications and app extensions), in project order.
    public var targets: [Target]
    /// Other targets (frameworks, tests, …), left out: name and product type.
    public var skippedTargets: [(name: String, productType: String)]
    /// Notes about what was read but cannot come along (asset catalogs, xcconfig files, …).
    public var notes: [String]
    /// The local Swift packages the project references (`packageReferences`, and folders holding a
    /// `Package.swift` among its files, as Xcode before 15 adds a local package).
    public var localPackageFolders: [URL] = []

    /// A product type exthost builds.
    public enum ProductType: String, Sendable, Codable {
        case application = "com.apple.product-type.application"
        case appExtension = "com.apple.product-type.app-extension"
    }

    /// One application or app-extension target.
    public struct Target: Sendable {
        public var name: String
        public var productType: ProductType
        /// Where the target is declared in `project.pbxproj`.
        public var location: SourceLocation
        /// The Swift files the target compiles (absolute, standardized), in the order found.
        public var swiftSources: [URL]
        /// Objective-C and other sources the target compiles, which exthost cannot.
        public var otherSources: [URL]
        /// Storyboards and other resources copied into the bundle (asset catalogs are left out).
        public var resources: [URL]
        /// The names of the targets this one depends on (an app's embedded extensions).
        public var dependencies: [String]
        /// The build settings, levelled: this target's, the project's, Xcode's defaults.
        public var settings: BuildSettingLevels
        /// The Swift package products the target links (`packageProductDependencies`).
        public var packageProducts: [PackageProduct] = []

        /// A setting's expanded value.
        public func setting(_ name: String) throws(XcodeProjectError) -> String { try settings.value(name) }
    }

    /// A Swift package the project references: a local one (`XCLocalSwiftPackageReference`, a folder
    /// beside the project) or one from the network (`XCRemoteSwiftPackageReference`).
    public enum PackageReference: Sendable, Equatable {
        /// The package's folder (`relativePath`, from the `.xcodeproj`'s folder).
        case local(URL)
        /// The repository URL.
        case remote(String)
    }

    /// A product of a Swift package a target links (`XCSwiftPackageProductDependency`).
    public struct PackageProduct: Sendable, Equatable {
        public var productName: String
        /// The package, when the project says which (nil for a product whose package it does not name).
        public var package: PackageReference?
        /// Where the dependency is declared in `project.pbxproj`.
        public var location: SourceLocation
    }

    /// The application targets.
    public var applications: [Target] { targets.filter { $0.productType == .application } }
    /// The app-extension targets.
    public var extensions: [Target] { targets.filter { $0.productType == .appExtension } }

    /// The target named `name`.
    public func target(named name: String) -> Target? { targets.first { $0.name == name } }
}

extension XcodeProject {
    /// Finds the project `path` names: an `.xcodeproj`, an `.xcworkspace` (its first project that is
    /// not `Pods`), or a folder holding either (directly, or in its `ios/` folder as Expo, React
    /// Native, Flutter and Capacitor lay out an app).
    /// - Throws: ``XcodeProjectError`` (input) when there is none, or several to choose from.
    public static func locate(_ path: URL) throws(XcodeProjectError) -> URL {
        let url = path.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .input("\(url.path): no such file or folder")
        }
        if url.pathExtension == "xcodeproj" { return url }
        if url.pathExtension == "xcworkspace" { return try projectOfWorkspace(url) }
        guard isDirectory.boolValue else {
            throw .input("\(url.path): not an .xcodeproj, an .xcworkspace or a folder holding one")
        }
        for folder in [url, url.appendingPathComponent("ios"), url.appendingPathComponent("ios/App")] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            let workspaces = names.filter { $0.hasSuffix(".xcworkspace") }
            let projects = names.filter { $0.hasSuffix(".xcodeproj") && $0 != "Pods.xcodeproj" }
            if projects.count == 1 { return folder.appendingPathComponent(projects[0]) }
            if projects.count > 1 {
                throw .input(
                    "\(folder.path) holds several projects (\(projects.joined(separator: ", "))); name one")
            }
            if workspaces.count == 1 { return try projectOfWorkspace(folder.appendingPathComponent(workspaces[0])) }
        }
        throw .input("\(url.path) holds no .xcodeproj or .xcworkspace (looked in it and in its ios/ folder)")
    }

    /// The first project a workspace's `contents.xcworkspacedata` names that is not CocoaPods' `Pods`.
    static func projectOfWorkspace(_ workspace: URL) throws(XcodeProjectError) -> URL {
        let contents = workspace.appendingPathComponent("contents.xcworkspacedata")
        guard let data = try? Data(contentsOf: contents) else {
            throw .input("\(contents.path): cannot read the workspace's contents")
        }
        let text = String(decoding: data, as: UTF8.self)
        var found: [URL] = []
        for part in text.components(separatedBy: "location = \"").dropFirst()
            + text.components(
                separatedBy: "location=\""
            ).dropFirst()
        {
            guard let end = part.firstIndex(of: "\"") else { continue }
            let location = String(part[..<end])
            guard let colon = location.firstIndex(of: ":") else { continue }
            let kind = location[..<colon]
            let relative = String(location[location.index(after: colon)...])
            guard relative.hasSuffix(".xcodeproj"), !relative.hasSuffix("Pods.xcodeproj") else { continue }
            let base = workspace.deletingLastPathComponent()
            switch kind {
            case "absolute": found.append(URL(fileURLWithPath: relative))
            case "group", "container", "self": found.append(base.appendingPathComponent(relative).standardizedFileURL)
            default: continue
            }
        }
        guard let first = found.first else {
            throw .input("\(contents.path): the workspace names no project (other than Pods)")
        }
        return first
    }
}
