import AppGroups
import ExtensionFoundation
import ExtensionIPC
import ExtensionRuntime
import Foundation

/// The entry point of an extension built as a dynamic library (`.library(name: "MyShare", type:
/// .dynamic, …)`, installed as `lib<CFBundleExecutable>.so`): exthost's sandbox launcher loads the
/// library into the extension process, as iOS loads an `.appex`'s code, and calls this on the
/// process's main thread. Not for your code to call.
///
/// It reads the extension's `Info.plist` and makes the principal object as iOS does: the class
/// `NSExtensionPrincipalClass` names (`$(PRODUCT_MODULE_NAME).ShareViewController` too), or the
/// initial view controller of the storyboard `NSExtensionMainStoryboard` names; a request handler
/// with `init()`, a view controller with `init?(coder:)`. A bundle that cannot run that way
/// (no such class, a class that is neither, a storyboard that cannot be read) is reported to the
/// host as bad input naming the file and line, before any of the extension's code runs.
/// - Returns: the process's exit status: 0 when the request completed, 1 when it did not, 2 for a
///   bundle that cannot run.
@_cdecl("exthost_extension_main")
public func _exthostExtensionMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    ExtensionProcess.run { context, environment in
        let principal = try ExtensionPrincipal.make(for: environment)
        environment.report(principal: principal.description)
        switch principal.object {
        case .handler(let handler):
            handler.beginRequest(with: context)
            return ExtensionPrincipalRun(object: handler)
        case .viewController(let controller):
            return ExtensionSheet.present(controller, context: context, environment: environment)
        }
    }
}

/// The principal object of an extension, found and made as its `Info.plist` says.
@MainActor
enum ExtensionPrincipal {
    /// What was made.
    enum Object {
        /// An `NSObject` adopting `NSExtensionRequestHandling`.
        case handler(any NSExtensionRequestHandling)
        /// A view controller (its sheet is shown, and the scripted user acts on it).
        case viewController(UIViewController)
    }

    /// The principal object and how it was made.
    struct Made {
        var object: Object
        var description: PrincipalDescription
    }

    /// Finds and makes the principal object of the extension the process runs as.
    /// - Throws: ``ExtensionFoundation/ExtensionBundleError`` naming the file and line when the
    ///   bundle names no class that exists and is a request handler or a view controller.
    static func make(for environment: ExtensionRuntime.Environment) throws -> Made {
        guard let bundlePath = environment.process.bundlePath else {
            throw ExtensionBundleError("exthost did not say which bundle this extension process runs (no bundle path)")
        }
        let bundle = URL(fileURLWithPath: bundlePath, isDirectory: true)
        let infoURL = bundle.appendingPathComponent("Info.plist")
        guard let info = InstalledBundle.info(bundle) else {
            throw ExtensionBundleError("cannot read the extension's Info.plist", file: infoURL.path)
        }
        let executable = info["CFBundleExecutable"] as? String ?? ""
        let module = PrincipalName.moduleName(forProduct: executable)
        let attributes = info["NSExtension"] as? [String: Any] ?? [:]
        if let name = attributes["NSExtensionPrincipalClass"] as? String {
            let line = PlistLocation.line(ofKey: "NSExtensionPrincipalClass", in: infoURL)
            let type: AnyClass = try PrincipalName.resolve(name, module: module, file: infoURL.path, line: line)
            return try makeObject(
                of: type, named: name, source: .principalClass, file: infoURL.path, line: line)
        }
        if let name = attributes["NSExtensionMainStoryboard"] as? String {
            let line = PlistLocation.line(ofKey: "NSExtensionMainStoryboard", in: infoURL)
            let relative = try StoryboardLocation.find(name, in: bundle, info: infoURL.path, line: line)
            let storyboard = try StoryboardFile(
                contentsOf: bundle.appendingPathComponent(relative), module: module, bundle: Bundle(url: bundle))
            let initial = try storyboard.initialViewControllerElement()
            try storyboard.check(controller: initial)
            // The principal's `storyboard` is this one, as on iOS.
            let controller = UIStoryboard(file: storyboard, name: name).adopt(try storyboard.instantiate(initial))
            // A navigation controller's root is the class the extension's author wrote.
            let principalClass = (controller as? UINavigationController)?.viewControllers.first ?? controller
            return Made(
                object: .viewController(controller),
                description: PrincipalDescription(
                    className: String(reflecting: type(of: principalClass)), source: .mainStoryboard,
                    kind: .viewController, storyboard: relative, initializer: "init(coder:)"))
        }
        throw ExtensionBundleError(
            "NSExtension names neither NSExtensionPrincipalClass nor NSExtensionMainStoryboard: iOS cannot make "
                + "the extension's principal object",
            file: infoURL.path, line: PlistLocation.line(ofKey: "NSExtension", in: infoURL))
    }

    private static func makeObject(
        of type: AnyClass, named name: String, source: PrincipalDescription.Source, file: String, line: Int?,
        coder: NSCoder? = nil, storyboard: String? = nil
    ) throws -> Made {
        let qualified = String(reflecting: type)
        // A view controller first: UIViewController adopts NSExtensionRequestHandling too, as on iOS.
        if let controllerType = type as? UIViewController.Type {
            guard let controller = controllerType.init(coder: coder ?? UIKeyedCoder()) else {
                throw ExtensionBundleError(
                    "the principal view controller '\(qualified)' returned nil from init?(coder:)", file: file,
                    line: line)
            }
            return Made(
                object: .viewController(controller),
                description: PrincipalDescription(
                    className: qualified, source: source, kind: .viewController, storyboard: storyboard,
                    initializer: "init(coder:)"))
        }
        if type is any NSExtensionRequestHandling.Type {
            guard let handler = ClassMetadata(type).makeThroughNSObjectInit() as? any NSExtensionRequestHandling else {
                throw ExtensionBundleError(
                    "the principal class '\(qualified)' adopts NSExtensionRequestHandling but is not an NSObject "
                        + "subclass: iOS makes it with NSObject's init()",
                    file: file, line: line)
            }
            return Made(
                object: .handler(handler),
                description: PrincipalDescription(
                    className: qualified, source: source, kind: .requestHandler, initializer: "init()"))
        }
        throw ExtensionBundleError(
            "the principal class '\(qualified)' (\(name)) is neither a UIViewController subclass nor an NSObject "
                + "adopting NSExtensionRequestHandling, so iOS cannot run it as the extension",
            file: file, line: line)
    }
}

/// Class names as an extension's `Info.plist` spells them.
enum PrincipalName {
    /// The Swift module of a product named `product`: its name with every character that cannot
    /// start or continue an identifier replaced by `_` (Xcode's `PRODUCT_MODULE_NAME`).
    static func moduleName(forProduct product: String) -> String {
        var name = ""
        for (index, character) in product.enumerated() {
            let allowed = character.isLetter || character == "_" || (index > 0 && character.isNumber)
            name.append(allowed ? character : "_")
        }
        return name.isEmpty ? "_" : name
    }

    /// The class `name` names: `$(PRODUCT_MODULE_NAME)` expanded to `module`, and a name without a
    /// module looked up in `module` (where an Objective-C class name would be found on iOS).
    /// - Throws: ``ExtensionFoundation/ExtensionBundleError`` naming the names tried.
    static func resolve(_ name: String, module: String, file: String, line: Int?) throws -> AnyClass {
        var expanded = name
        for spelling in ["$(PRODUCT_MODULE_NAME)", "${PRODUCT_MODULE_NAME}"] {
            expanded = expanded.replacingOccurrences(of: spelling, with: module)
        }
        let candidates = expanded.contains(".") ? [expanded] : ["\(module).\(expanded)", expanded]
        for candidate in candidates {
            if let type = _typeByName(candidate) as? AnyClass { return type }
        }
        throw ExtensionBundleError(
            "'\(name)' names no class in the extension (looked for \(candidates.map { "'\($0)'" }.joined(separator: " and "))"
                + "); a principal class must be a class of the extension's module",
            file: file, line: line)
    }
}

/// Where a key is in a property list written as XML (for messages naming the line).
enum PlistLocation {
    /// The 1-based line of the value of `<key>KEY</key>` (the key's own line when the value starts
    /// there) in the XML property list at `url`; nil when the file is not XML or does not have it.
    static func line(ofKey key: String, in url: URL) -> Int? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let keyLine = lines.firstIndex(where: { $0.contains("<key>\(key)</key>") }) else { return nil }
        let rest = lines[keyLine].split(separator: "</key>", maxSplits: 1).dropFirst().first ?? ""
        if rest.contains("<") { return keyLine + 1 }
        let value = lines[(keyLine + 1)...].firstIndex { $0.contains("<") }
        return (value ?? keyLine) + 1
    }
}

/// Where a storyboard named in `NSExtensionMainStoryboard` is in the bundle.
enum StoryboardLocation {
    /// The path in `bundle` of the storyboard `name` names (`MainInterface`): `NAME.storyboard` at the
    /// bundle's top, else in `Base.lproj`, else in another `.lproj` folder (in name order).
    ///
    /// exthost reads the storyboard's XML source (Xcode puts the compiled `NAME.storyboardc` in the
    /// `.appex` instead, which only UIKit on Apple platforms reads): keep `NAME.storyboard` in the
    /// `.appex` folder, where `exthost install` copies it with the rest of the bundle.
    /// - Throws: ``ExtensionFoundation/ExtensionBundleError`` at the Info.plist's line when there is none.
    static func find(_ name: String, in bundle: URL, info: String, line: Int?) throws -> String {
        let base = name.hasSuffix(".storyboard") ? String(name.dropLast(".storyboard".count)) : name
        guard !base.isEmpty, !base.contains("/"), base != "..", base != "." else {
            throw ExtensionBundleError(
                "NSExtensionMainStoryboard '\(name)' is not a storyboard's name (MainInterface)", file: info, line: line
            )
        }
        let file = base + ".storyboard"
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix(".lproj") && $0 != "Base.lproj" }.sorted()
        for candidate in [file, "Base.lproj/" + file] + folders.map({ $0 + "/" + file }) {
            var isDirectory: ObjCBool = false
            let path = bundle.appendingPathComponent(candidate).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        let compiled = [base + ".storyboardc", "Base.lproj/" + base + ".storyboardc"].first {
            FileManager.default.fileExists(atPath: bundle.appendingPathComponent($0).path)
        }
        let found = compiled.map { " (there is the compiled '\($0)', which only UIKit on Apple platforms reads)" } ?? ""
        throw ExtensionBundleError(
            "NSExtensionMainStoryboard names '\(name)', but the extension has no '\(file)' at its top or in "
                + "Base.lproj\(found): exthost reads the storyboard's XML source; copy it into the .appex folder",
            file: info, line: line)
    }
}
