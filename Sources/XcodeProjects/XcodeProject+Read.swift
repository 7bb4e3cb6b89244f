public import Foundation
import LocatedDocuments

extension XcodeProject {
    /// Product types Xcode knows that exthost leaves out (frameworks, tests, watch apps, …).
    static let knownOtherProductTypes: Set<String> = [
        "com.apple.product-type.framework", "com.apple.product-type.framework.static",
        "com.apple.product-type.library.static", "com.apple.product-type.library.dynamic",
        "com.apple.product-type.bundle", "com.apple.product-type.bundle.unit-test",
        "com.apple.product-type.bundle.ui-testing", "com.apple.product-type.tool",
        "com.apple.product-type.application.watchapp", "com.apple.product-type.application.watchapp2",
        "com.apple.product-type.application.watchapp2-container", "com.apple.product-type.watchkit-extension",
        "com.apple.product-type.watchkit2-extension", "com.apple.product-type.app-extension.messages",
        "com.apple.product-type.app-extension.messages-sticker-pack", "com.apple.product-type.extensionkit-extension",
        "com.apple.product-type.application.messages", "com.apple.product-type.application.on-demand-install-capable",
        "com.apple.product-type.xpc-service", "com.apple.product-type.instruments-package",
        "com.apple.product-type.kernel-extension", "com.apple.product-type.system-extension",
        "com.apple.product-type.driver-extension", "com.apple.product-type.metal-library",
        "com.apple.product-type.tv-app-extension", "com.apple.product-type.app-clip",
    ]

    /// Reads the project at `url` (an `.xcodeproj`) with the build settings of `configuration`.
    /// - Throws: ``XcodeProjectError``: input, located in `project.pbxproj` (syntax, a missing
    ///   object, an unknown product type, no such configuration); failed when it cannot be read.
    public static func read(_ url: URL, configuration: String = "Debug") throws(XcodeProjectError) -> XcodeProject {
        let file = url.appendingPathComponent("project.pbxproj")
        guard let data = try? Data(contentsOf: file) else {
            throw .input("\(file.path): cannot read the project (no project.pbxproj)")
        }
        let root: OldStylePlist
        do {
            root = try OldStylePlist.parse(data, file: file.path)
        } catch {
            throw .input(error.message, at: error.location)
        }
        var reader = ProjectReader(file: file, root: root, projectURL: url, configuration: configuration)
        return try reader.read()
    }
}

/// Walks the object graph of a parsed `project.pbxproj`.
struct ProjectReader {
    let file: URL
    let root: OldStylePlist
    let projectURL: URL
    let configuration: String
    var objects: [String: OldStylePlist] = [:]
    var parents: [String: String] = [:]
    var notes: [String] = []
    var sourceRoot: URL

    init(file: URL, root: OldStylePlist, projectURL: URL, configuration: String) {
        self.file = file
        self.root = root
        self.projectURL = projectURL
        self.configuration = configuration
        self.sourceRoot = projectURL.deletingLastPathComponent().standardizedFileURL
    }

    func fail(_ message: String, at value: OldStylePlist?) -> XcodeProjectError {
        .input(message, at: (value?.location ?? root.location).in(file.path))
    }

    /// The object `id` names, which must be a dictionary with an `isa`.
    func object(_ reference: OldStylePlist?, _ what: String, near: OldStylePlist?) throws(XcodeProjectError)
        -> (id: String, value: OldStylePlist, isa: String)
    {
        guard let id = reference?.string else {
            throw fail(
                "\(what): expected an object identifier, found \(reference?.kindName ?? "nothing")",
                at: reference ?? near)
        }
        guard let value = objects[id] else { throw fail("\(what): no object '\(id)' in the project", at: reference) }
        guard let isa = value["isa"]?.string else { throw fail("the object '\(id)' has no isa", at: value) }
        return (id, value, isa)
    }

    mutating func read() throws(XcodeProjectError) -> XcodeProject {
        guard case .dictionary = root else { throw fail("project.pbxproj must be a dictionary", at: root) }
        guard let objectMembers = root["objects"]?.members else {
            throw fail("project.pbxproj has no 'objects' dictionary", at: root["objects"] ?? root)
        }
        for (id, value) in objectMembers {
            guard case .dictionary = value else { throw fail("the object '\(id)' is not a dictionary", at: value) }
            objects[id] = value
        }
        for (id, value) in objectMembers {
            for child in value["children"]?.array ?? [] {
                if let childID = child.string { parents[childID] = id }
            }
        }
        let project = try object(root["rootObject"], "rootObject", near: root)
        guard project.isa == "PBXProject" else {
            throw fail("rootObject '\(project.id)' is a \(project.isa), not a PBXProject", at: project.value)
        }
        if let dir = project.value["projectDirPath"]?.string, !dir.isEmpty {
            sourceRoot = URL(fileURLWithPath: dir, relativeTo: sourceRoot).standardizedFileURL
        }
        let projectSettings = try settings(of: project.value, owner: "the project")

        var targets: [XcodeProject.Target] = []
        var skipped: [(name: String, productType: String)] = []
        var idsToNames: [String: String] = [:]
        for reference in project.value["targets"]?.array ?? [] {
            let target = try object(reference, "a target of the project", near: project.value)
            idsToNames[target.id] = target.value["name"]?.string ?? target.id
        }
        for reference in project.value["targets"]?.array ?? [] {
            let target = try object(reference, "a target of the project", near: project.value)
            let name = target.value["name"]?.string ?? target.id
            guard target.isa == "PBXNativeTarget" else {
                skipped.append((name, target.isa))
                continue
            }
            let productTypeValue = target.value["productType"]
            let productTypeName = productTypeValue?.string ?? ""
            guard let productType = XcodeProject.ProductType(rawValue: productTypeName) else {
                if XcodeProject.knownOtherProductTypes.contains(productTypeName) {
                    skipped.append((name, productTypeName))
                    continue
                }
                throw fail(
                    "the target '\(name)' has an unknown product type '\(productTypeName)' (exthost imports "
                        + "\(XcodeProject.ProductType.application.rawValue) and \(XcodeProject.ProductType.appExtension.rawValue))",
                    at: productTypeValue ?? target.value)
            }
            let targetSettings = try settings(of: target.value, owner: "the target '\(name)'")
            let defaults = defaultSettings(target: name, productType: productType)
            let levels = BuildSettingLevels(
                levels: targetSettings + projectSettings + [defaults])

            var swift: [URL] = []
            var other: [URL] = []
            var resources: [URL] = []
            for phaseReference in target.value["buildPhases"]?.array ?? [] {
                let phase = try object(phaseReference, "a build phase of '\(name)'", near: target.value)
                switch phase.isa {
                case "PBXSourcesBuildPhase", "PBXResourcesBuildPhase":
                    for fileReference in phase.value["files"]?.array ?? [] {
                        let buildFile = try object(fileReference, "a file of '\(name)'", near: phase.value)
                        guard buildFile.value["fileRef"] != nil else { continue }  // a package product
                        let ref = try object(buildFile.value["fileRef"], "a file of '\(name)'", near: buildFile.value)
                        var files: [URL] = []
                        if ref.isa == "PBXVariantGroup" {
                            for child in ref.value["children"]?.array ?? [] {
                                if let url = try path(of: child.string ?? "") { files.append(url) }
                            }
                        } else if let url = try path(of: ref.id) {
                            files.append(url)
                        }
                        for url in files {
                            classify(
                                url, target: name, sources: phase.isa == "PBXSourcesBuildPhase",
                                swift: &swift, other: &other, resources: &resources)
                        }
                    }
                case "PBXShellScriptBuildPhase":
                    notes.append(
                        "\(name): the script phase '\(phase.value["name"]?.string ?? "Run Script")' is not run")
                default:
                    continue
                }
            }
            for groupReference in target.value["fileSystemSynchronizedGroups"]?.array ?? [] {
                let group = try object(groupReference, "a synchronized folder of '\(name)'", near: target.value)
                guard let folder = try path(of: group.id) else { continue }
                var excluded: Set<String> = []
                for exceptionReference in group.value["exceptions"]?.array ?? [] {
                    let exception = try object(
                        exceptionReference, "an exception of a synchronized folder", near: group.value)
                    guard exception.isa == "PBXFileSystemSynchronizedBuildFileExceptionSet",
                        exception.value["target"]?.string == target.id
                    else { continue }
                    for path in exception.value["membershipExceptions"]?.array ?? [] {
                        if let path = path.string { excluded.insert(path) }
                    }
                }
                for relative in Self.walk(folder) {
                    if excluded.contains(relative) || excluded.contains(where: { relative.hasPrefix($0 + "/") }) {
                        continue
                    }
                    let url = folder.appendingPathComponent(relative)
                    let ext = url.pathExtension
                    if url.lastPathComponent == "Info.plist" || ext == "entitlements" { continue }
                    classify(
                        url, target: name, sources: ["swift", "m", "mm", "c", "cpp"].contains(ext),
                        swift: &swift, other: &other, resources: &resources)
                }
            }
            var dependencies: [String] = []
            for dependencyReference in target.value["dependencies"]?.array ?? [] {
                let dependency = try object(dependencyReference, "a dependency of '\(name)'", near: target.value)
                if let id = dependency.value["target"]?.string, let dependencyName = idsToNames[id] {
                    dependencies.append(dependencyName)
                } else if let dependencyName = dependency.value["name"]?.string {
                    dependencies.append(dependencyName)
                }
            }
            var packageProducts: [XcodeProject.PackageProduct] = []
            for productReference in target.value["packageProductDependencies"]?.array ?? [] {
                let product = try object(productReference, "a package product of '\(name)'", near: target.value)
                guard product.isa == "XCSwiftPackageProductDependency" else { continue }
                guard let productName = product.value["productName"]?.string, !productName.isEmpty else {
                    throw fail("the package product '\(product.id)' of '\(name)' has no productName", at: product.value)
                }
                var package: XcodeProject.PackageReference?
                if product.value["package"] != nil {
                    package = try packageReference(
                        try object(product.value["package"], "the package of '\(productName)'", near: product.value))
                }
                packageProducts.append(
                    .init(productName: productName, package: package, location: product.value.location.in(file.path)))
            }
            var made = XcodeProject.Target(
                name: name, productType: productType, location: target.value.location.in(file.path),
                swiftSources: swift,
                otherSources: other, resources: resources, dependencies: dependencies, settings: levels)
            made.packageProducts = packageProducts
            targets.append(made)
        }
        var localPackages: [URL] = []
        for reference in project.value["packageReferences"]?.array ?? [] {
            let package = try object(reference, "a Swift package of the project", near: project.value)
            if case .local(let url) = try packageReference(package) { localPackages.append(url) }
        }
        for (id, value) in objectMembers.sorted(by: { $0.key < $1.key })
        where value["isa"]?.string == "PBXFileReference" {
            guard let folder = try? path(of: id),
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                !localPackages.contains(folder)
            else { continue }
            localPackages.append(folder)
        }
        var read = XcodeProject(
            url: projectURL, sourceRoot: sourceRoot, configuration: configuration, targets: targets,
            skippedTargets: skipped, notes: notes)
        read.localPackageFolders = localPackages
        return read
    }

    /// A package reference object: local (its folder, from the `.xcodeproj`'s folder) or remote.
    func packageReference(_ reference: (id: String, value: OldStylePlist, isa: String)) throws(XcodeProjectError)
        -> XcodeProject.PackageReference
    {
        switch reference.isa {
        case "XCLocalSwiftPackageReference":
            guard let relative = reference.value["relativePath"]?.string, !relative.isEmpty else {
                throw fail("the local package '\(reference.id)' has no relativePath", at: reference.value)
            }
            return .local(
                URL(fileURLWithPath: relative, relativeTo: projectURL.deletingLastPathComponent()).standardizedFileURL)
        case "XCRemoteSwiftPackageReference":
            return .remote(reference.value["repositoryURL"]?.string ?? reference.id)
        default:
            throw fail(
                "the object '\(reference.id)' is a \(reference.isa), not a Swift package reference", at: reference.value
            )
        }
    }

    mutating func classify(
        _ url: URL, target: String, sources: Bool, swift: inout [URL], other: inout [URL], resources: inout [URL]
    ) {
        let ext = url.pathExtension
        if ext == "swift" {
            if !swift.contains(url) { swift.append(url) }
        } else if sources {
            if ["m", "mm", "c", "cpp", "cc", "h"].contains(ext), !other.contains(url) { other.append(url) }
        } else if ext == "xcassets" {
            notes.append(
                "\(target): the asset catalog \(url.lastPathComponent) is left out (asset catalogs are not compiled)")
        } else if !resources.contains(url) {
            resources.append(url)
        }
    }

    /// The files under `folder`, relative, sorted; an `.xcassets` or other bundle-like folder
    /// (`.xcassets`, `.lproj` contents are walked) counts as one entry; hidden files are skipped.
    static func walk(_ folder: URL) -> [String] {
        var result: [String] = []
        func visit(_ relative: String) {
            let url = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(child).path, isDirectory: &isDirectory)
                if isDirectory.boolValue,
                    !["xcassets", "xcdatamodeld", "bundle", "storyboardc"].contains(
                        (name as NSString).pathExtension)
                {
                    visit(child)
                } else {
                    result.append(child)
                }
            }
        }
        visit("")
        return result
    }

    /// The absolute path of a file reference or group; nil for files outside the project
    /// (`BUILT_PRODUCTS_DIR`, `SDKROOT`, …).
    func path(of id: String) throws(XcodeProjectError) -> URL? {
        var seen: Set<String> = []
        return try path(of: id, seen: &seen)
    }

    private func path(of id: String, seen: inout Set<String>) throws(XcodeProjectError) -> URL? {
        guard let value = objects[id] else { throw fail("no object '\(id)' in the project", at: root["objects"]) }
        guard seen.insert(id).inserted else { throw fail("the group '\(id)' contains itself", at: value) }
        let path = value["path"]?.string
        switch value["sourceTree"]?.string ?? "<group>" {
        case "<absolute>":
            return path.map { URL(fileURLWithPath: $0).standardizedFileURL }
        case "SOURCE_ROOT":
            return path.map { sourceRoot.appendingPathComponent($0).standardizedFileURL } ?? sourceRoot
        case "<group>":
            let base: URL
            if let parent = parents[id] {
                guard let parentPath = try self.path(of: parent, seen: &seen) else { return nil }
                base = parentPath
            } else {
                base = sourceRoot
            }
            return path.map { base.appendingPathComponent($0).standardizedFileURL } ?? base
        default:
            return nil
        }
    }

    /// The levels of settings of an object with a `buildConfigurationList`: its configuration's
    /// `buildSettings`, then the xcconfig file that configuration is based on.
    mutating func settings(of owner: OldStylePlist, owner ownerName: String) throws(XcodeProjectError)
        -> [[String: BuildSettingLevels.Value]]
    {
        let list = try object(owner["buildConfigurationList"], "the configurations of \(ownerName)", near: owner)
        var names: [String] = []
        for reference in list.value["buildConfigurations"]?.array ?? [] {
            let configuration = try object(reference, "a configuration of \(ownerName)", near: list.value)
            let name = configuration.value["name"]?.string ?? ""
            names.append(name)
            guard name == self.configuration else { continue }
            var settings: [String: BuildSettingLevels.Value] = [:]
            for (key, value) in configuration.value["buildSettings"]?.members ?? [] {
                switch value {
                case .string(let text, let location): settings[key] = .init(text, at: location.in(file.path))
                case .array(let values, let location):
                    settings[key] = .init(
                        values.compactMap(\.string).joined(separator: " "), at: location.in(file.path))
                default: throw fail("the build setting \(key) is \(value.kindName), not a string", at: value)
                }
            }
            var levels = [settings]
            if let base = configuration.value["baseConfigurationReference"]?.string, let url = try path(of: base) {
                levels.append(try XCConfig.read(url, notes: &notes))
            }
            return levels
        }
        throw fail(
            "\(ownerName) has no configuration '\(configuration)' (it has \(names.joined(separator: ", ")))",
            at: list.value)
    }

    /// Xcode's own settings for a target (the lowest level).
    func defaultSettings(target: String, productType: XcodeProject.ProductType) -> [String: BuildSettingLevels.Value] {
        let values: [String: String] = [
            "SRCROOT": sourceRoot.path, "PROJECT_DIR": sourceRoot.path, "SOURCE_ROOT": sourceRoot.path,
            "PROJECT_NAME": projectURL.deletingPathExtension().lastPathComponent,
            "TARGET_NAME": target, "PRODUCT_NAME": "$(TARGET_NAME)",
            "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)",
            // The program exthost builds is named after the module (lib<module>.so for an extension).
            "EXECUTABLE_NAME": "$(PRODUCT_MODULE_NAME)",
            "CONFIGURATION": configuration, "PLATFORM_NAME": "iphoneos", "SDKROOT": "iphoneos",
            "EFFECTIVE_PLATFORM_NAME": "-iphoneos", "DEVELOPMENT_LANGUAGE": "en",
            "AppIdentifierPrefix": "$(DEVELOPMENT_TEAM).", "TeamIdentifierPrefix": "$(DEVELOPMENT_TEAM).",
            "PRODUCT_BUNDLE_PACKAGE_TYPE": productType == .application ? "APPL" : "XPC!",
            "WRAPPER_EXTENSION": productType == .application ? "app" : "appex",
            "FULL_PRODUCT_NAME": "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)",
            "SWIFT_VERSION": "5.0", "MARKETING_VERSION": "1.0", "CURRENT_PROJECT_VERSION": "1",
        ]
        return values.mapValues { BuildSettingLevels.Value($0) }
    }
}

/// `.xcconfig` files: `NAME = value` lines, `//` comments, `#include "file"` (and `#include?`).
enum XCConfig {
    static func read(_ url: URL, notes: inout [String], depth: Int = 0) throws(XcodeProjectError)
        -> [String: BuildSettingLevels.Value]
    {
        guard depth < 16 else { throw .input("\(url.path): #include nested more than 16 deep") }
        guard let data = try? Data(contentsOf: url) else {
            notes.append("the xcconfig file \(url.path) is missing; its settings are left out")
            return [:]
        }
        var settings: [String: BuildSettingLevels.Value] = [:]
        for (index, rawLine) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#include") {
                guard let open = trimmed.firstIndex(of: "\""), let close = trimmed.lastIndex(of: "\""), open < close
                else { continue }
                let included = URL(
                    fileURLWithPath: String(trimmed[trimmed.index(after: open)..<close]),
                    relativeTo: url.deletingLastPathComponent())
                for (key, value) in try read(included, notes: &notes, depth: depth + 1) { settings[key] = value }
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            if key.contains("[") { continue }  // conditional settings ([sdk=…], [config=…]) are left out
            let column = rawLine.prefix { $0 == " " || $0 == "\t" }.count + 1
            settings[key] = .init(
                trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces),
                at: SourceLocation(file: url.path, line: index + 1, column: column))
        }
        return settings
    }
}
