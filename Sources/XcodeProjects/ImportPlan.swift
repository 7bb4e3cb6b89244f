public import Foundation

/// What `exthost import` builds from a project: the application target, the app extensions it
/// embeds, and for each its module, language mode, files (with their adaptations), Info.plist,
/// entitlements and resources. Everything is checked here, before anything is written.
public struct ImportPlan: Sendable {
    /// One target as it will be built.
    public struct Product: Sendable {
        public var target: String
        public var productType: XcodeProject.ProductType
        /// The Swift module (and program) name.
        public var module: String
        /// "4", "4.2", "5" or "6".
        public var languageMode: String
        /// `SWIFT_ACTIVE_COMPILATION_CONDITIONS`.
        public var conditions: [String]
        /// The Swift files, each with the path it gets in the generated target and its adapted
        /// text when it needed adapting.
        public var sources: [Source]
        public var resources: [URL]
        /// The expanded Info.plist (XML).
        public var infoPlist: Data
        /// The expanded entitlements (XML), nil when the target has none.
        public var entitlements: Data?
        public var bundleIdentifier: String
        /// The bundle's folder name (`Notes.app`, `NotesShare.appex`).
        public var bundleName: String
        /// The settings the import used, for the listing.
        public var settingsUsed: [String: String]
        /// The products of the project's local Swift packages the target links.
        public var linkedProducts: [LinkedProduct] = []
        /// Whether the target's program is built; an app whose code cannot be (it imports a
        /// cross-platform framework) is installed without one, and exthost's built-in app stands in.
        public var built = true
    }

    /// A product of a local Swift package that a target links.
    public struct LinkedProduct: Sendable, Equatable {
        public var package: LocalPackage
        public var productName: String
    }

    /// The local Swift packages the built targets link, each once.
    public var localPackages: [LocalPackage] {
        var seen: Set<String> = []
        return ([app] + extensions).filter(\.built).flatMap(\.linkedProducts).map(\.package).filter {
            seen.insert($0.url.path).inserted
        }
    }

    public struct Source: Sendable {
        public var url: URL
        /// The path inside the generated target's folder.
        public var relativePath: String
        public var adaptation: ObjCAdaptation?
    }

    public var project: XcodeProject
    public var app: Product
    public var extensions: [Product]
    /// Every adapted line.
    public var adaptedLines: [AdaptedLine] {
        ([app] + extensions).flatMap { $0.sources.compactMap(\.adaptation).flatMap(\.changes) }
    }

    /// The modules a target may import: Swift's, Foundation's, and those exthost provides.
    public static let availableModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "_Concurrency",
        "UIKit", "Social", "UniformTypeIdentifiers", "MobileCoreServices", "LinkPresentation", "Intents",
    ]

    /// Checks the project and plans its build: the application target named `appName` (or the only
    /// one, or the only one embedding extensions) with its embedded app extensions.
    /// - Throws: ``XcodeProjectError`` (input): no application or extension, Objective-C sources,
    ///   imports of modules exthost cannot build (every one listed with its line), constructs that
    ///   cannot be adapted, a missing Info.plist or entitlements file, settings that expand to themselves.
    public static func make(_ project: XcodeProject, app appName: String? = nil) throws(XcodeProjectError) -> ImportPlan
    {
        let appTarget: XcodeProject.Target
        if let appName {
            guard let found = project.applications.first(where: { $0.name == appName }) else {
                throw .input(
                    "the project has no application target '\(appName)' (it has \(project.applications.map(\.name).joined(separator: ", ")))"
                )
            }
            appTarget = found
        } else {
            let embedding = project.applications.filter { app in
                app.dependencies.contains { name in project.extensions.contains { $0.name == name } }
            }
            guard let first = embedding.first ?? project.applications.first else {
                throw .input(
                    "\(project.url.path): the project has no application target (com.apple.product-type.application)")
            }
            if embedding.count > 1 {
                throw .input(
                    "the project has several apps with extensions (\(embedding.map(\.name).joined(separator: ", "))); choose one with --app NAME"
                )
            }
            appTarget = first
        }
        let extensionTargets = project.extensions.filter { appTarget.dependencies.contains($0.name) }
        guard !extensionTargets.isEmpty else {
            throw .input(
                "the app '\(appTarget.name)' embeds no app extension (com.apple.product-type.app-extension)",
                at: appTarget.location)
        }
        // Imports first: everything that cannot come along is listed at once. An extension must be
        // built; an app whose code cannot be (a Flutter, React Native or Expo app) is installed without
        // its program, and exthost's built-in app receives what the extension hands over.
        let own = Set(([appTarget] + extensionTargets).compactMap { try? $0.moduleName() })
        var missing: [(location: SourceLocation, message: String)] = []
        var appBlockers: [String] = []
        var linked: [String: [LinkedProduct]] = [:]
        for target in [appTarget] + extensionTargets {
            let isApp = target.name == appTarget.name
            // Swift packages: a local one is built with the target if it builds on Linux; a product
            // of a package from the network stays behind (an import of it is refused below).
            var available = own
            var remote: [String: (repository: String, location: SourceLocation)] = [:]
            for product in target.packageProducts {
                let reference =
                    product.package
                    ?? project.localPackageFolders.first { folder in
                        let manifest = (try? Data(contentsOf: folder.appendingPathComponent("Package.swift"))) ?? Data()
                        return String(decoding: manifest, as: UTF8.self).contains("\"\(product.productName)\"")
                    }.map(XcodeProject.PackageReference.local)
                switch reference {
                case .local(let url):
                    do {
                        let package = try LocalPackage.inspect(
                            url, product: product.productName, linkedAt: product.location)
                        available.formUnion(package.modules + [product.productName])
                        linked[target.name, default: []].append(
                            LinkedProduct(package: package, productName: product.productName))
                    } catch {
                        if !isApp { throw error }
                        appBlockers.append(error.description)
                    }
                case .remote(let repository):
                    remote[product.productName] = (repository, product.location)
                case nil:
                    remote[product.productName] = ("a package the project does not name", product.location)
                }
            }
            if let objc = target.otherSources.first {
                let message =
                    "the target '\(target.name)' compiles \(target.otherSources.count) Objective-C/C source(s) "
                    + "(\(objc.path), …), which exthost does not support: only Swift sources are built"
                if !isApp { throw .input(message) }
                appBlockers.append(message)
            }
            for source in target.swiftSources {
                guard let data = try? Data(contentsOf: source) else {
                    throw .input(
                        "the Swift file \(source.path) of '\(target.name)' cannot be read", at: target.location)
                }
                for (module, location) in imports(in: String(decoding: data, as: UTF8.self), file: source.path)
                where !availableModules.contains(module) && !available.contains(module) {
                    var message = "'\(target.name)' imports \(module), which exthost cannot build"
                    if let package = remote[module] {
                        message +=
                            " (a product of the Swift package \(package.repository), linked at \(package.location): "
                            + "exthost builds the project's local packages only, never fetches one)"
                    }
                    if isApp {
                        appBlockers.append("\(location): \(message)")
                    } else {
                        missing.append((location, message))
                    }
                }
            }
        }
        if let first = missing.first {
            // The first at its place; the others on the lines after.
            throw .input(
                ([first.message] + missing.dropFirst().map { "\($0.location): \($0.message)" }).joined(separator: "\n")
                    + "\n(exthost provides \(availableModules.sorted().joined(separator: ", ")), and the project's local "
                    + "Swift packages that build on Linux; packages from the network and cross-platform frameworks "
                    + "cannot come along)",
                at: first.location)
        }
        var app = try product(appTarget, project: project, adapting: appBlockers.isEmpty)
        app.linkedProducts = appBlockers.isEmpty ? linked[appTarget.name] ?? [] : []
        var project = project
        if !appBlockers.isEmpty {
            app.built = false
            project.notes.append(
                "the app '\(appTarget.name)' is installed without its program, and exthost's built-in app stands in "
                    + "for it (it receives what the extensions hand over): "
                    + appBlockers.joined(separator: "; "))
            if var info = try? PropertyListSerialization.propertyList(from: app.infoPlist, format: nil)
                as? [String: Any]
            {
                info["CFBundleExecutable"] = nil
                if let data = try? PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0) {
                    app.infoPlist = data
                }
            }
        }
        var extensions: [Product] = []
        for target in extensionTargets {
            var product = try product(target, project: project)
            product.linkedProducts = linked[target.name] ?? []
            extensions.append(product)
        }
        return ImportPlan(project: project, app: app, extensions: extensions)
    }

    /// The modules `text` imports, with where; with `unconditionalOnly`, not those inside `#if` blocks
    /// (`#if canImport(UIKit)`, `#if os(iOS)`), which another platform's build leaves out.
    static func imports(in text: String, file: String, unconditionalOnly: Bool = false) -> [(String, SourceLocation)] {
        let mask = SwiftSourceMask(text)
        var result: [(String, SourceLocation)] = []
        let kinds: Set<Substring> = ["class", "struct", "enum", "func", "protocol", "typealias", "var", "let"]
        var conditionDepth = 0
        for (index, code) in mask.code.enumerated() {
            var words = code.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            if words.first == "#if" { conditionDepth += 1 }
            if words.first == "#endif" { conditionDepth = max(0, conditionDepth - 1) }
            if unconditionalOnly && conditionDepth > 0 { continue }
            while let first = words.first,
                first.hasPrefix("@") || ["public", "internal", "private", "fileprivate", "package"].contains(first)
            {
                words = words.dropFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            words = words.dropFirst()
            if let kind = words.first, kinds.contains(kind) { words = words.dropFirst() }
            guard let path = words.first else { continue }
            let module = String(path.split(separator: ".").first ?? path)
            let column =
                (code.range(of: String(path)).map { code.distance(from: code.startIndex, to: $0.lowerBound) } ?? 0) + 1
            result.append((module, SourceLocation(file: file, line: index + 1, column: column)))
        }
        return result
    }

    static func product(_ target: XcodeProject.Target, project: XcodeProject, adapting: Bool = true)
        throws(XcodeProjectError) -> Product
    {
        let module = try target.moduleName()
        let mode = try target.swiftLanguageMode()
        var info = try target.infoPlist()
        // The program exthost builds is named after the module.
        info["CFBundleExecutable"] = module
        let identifier = info["CFBundleIdentifier"] as? String ?? ""
        guard !identifier.isEmpty else {
            throw .input(
                "the target '\(target.name)' has no bundle identifier (PRODUCT_BUNDLE_IDENTIFIER is empty)",
                at: target.location(ofSetting: "PRODUCT_BUNDLE_IDENTIFIER") ?? target.location)
        }
        let infoData: Data
        let entitlementsData: Data?
        do {
            infoData = try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            entitlementsData = try target.entitlements().map {
                try PropertyListSerialization.data(fromPropertyList: $0, format: .xml, options: 0)
            }
        } catch let error as XcodeProjectError {
            throw error
        } catch {
            throw .input("the Info.plist of '\(target.name)' cannot be written as a property list: \(error)")
        }
        guard !target.swiftSources.isEmpty else {
            throw .input("the target '\(target.name)' compiles no Swift file", at: target.location)
        }
        let root = project.sourceRoot.standardizedFileURL.path + "/"
        var sources: [Source] = []
        var used: Set<String> = []
        for url in target.swiftSources {
            let data = (try? Data(contentsOf: url)) ?? Data()
            let adaptation =
                adapting ? try ObjCAdaptation.adapt(String(decoding: data, as: UTF8.self), file: url.path) : nil
            var relative =
                url.path.hasPrefix(root) ? String(url.path.dropFirst(root.count)) : "External/" + url.lastPathComponent
            while used.contains(relative) { relative = "Dup/" + relative }
            used.insert(relative)
            sources.append(
                Source(url: url, relativePath: relative, adaptation: adaptation?.adaptedText == nil ? nil : adaptation))
        }
        var settingsUsed: [String: String] = [:]
        for name in [
            "PRODUCT_BUNDLE_IDENTIFIER", "PRODUCT_NAME", "PRODUCT_MODULE_NAME", "SWIFT_VERSION", "INFOPLIST_FILE",
            "CODE_SIGN_ENTITLEMENTS", "GENERATE_INFOPLIST_FILE", "SWIFT_ACTIVE_COMPILATION_CONDITIONS",
            "DEVELOPMENT_TEAM",
        ] {
            let value = try target.setting(name)
            if !value.isEmpty { settingsUsed[name] = value }
        }
        let conditions = try target.setting("SWIFT_ACTIVE_COMPILATION_CONDITIONS").split(separator: " ").map(
            String.init)
        return Product(
            target: target.name, productType: target.productType, module: module, languageMode: mode,
            conditions: conditions, sources: sources, resources: target.resources, infoPlist: infoData,
            entitlements: entitlementsData, bundleIdentifier: identifier,
            bundleName: try target.setting("PRODUCT_NAME") + (target.productType == .application ? ".app" : ".appex"),
            settingsUsed: settingsUsed)
    }
}
