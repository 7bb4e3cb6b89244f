public import Foundation
import Predicates
public import UniformTypes

// Finding the rule in a plist: an extension Info.plist
// (NSExtension → NSExtensionAttributes → NSExtensionActivationRule), a plist whose root dictionary
// has NSExtensionActivationRule, or a plist whose root is the rule (a string, or a dictionary of
// NSExtensionActivation… keys). XML or binary; the format is detected from the bytes.

extension ActivationRule {
    static let ruleKey = "NSExtensionActivationRule"
    static let extensionKey = "NSExtension"
    static let attributesKey = "NSExtensionAttributes"

    /// Loads the rule from a plist file.
    ///
    /// Problems inside the file (not a plist, no rule, a duplicate key, a predicate that does not
    /// parse, …) are ``diagnostics`` of the returned rule, not errors.
    ///
    /// - Parameters:
    ///   - url: the plist file.
    ///   - name: the file's name in diagnostics (default: its path).
    ///   - registry: the types the rule is checked and evaluated with.
    ///   - options: release checks and device adjustments.
    /// - Throws: ``ActivationRuleError`` with code `unreadable` when the file cannot be read.
    public static func load(
        contentsOf url: URL, name: String? = nil, registry: TypeRegistry = .system, options: ActivationOptions = .device
    ) throws -> ActivationRule {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ActivationRuleError(.unreadable, "cannot read \(url.path)", cause: error)
        }
        return ActivationRule(plistData: data, file: name ?? url.path, registry: registry, options: options)
    }

    /// Loads the rule from the bytes of a plist (XML or binary).
    ///
    /// - Parameters:
    ///   - data: the plist.
    ///   - file: its path, for diagnostics.
    ///   - registry: the types the rule is checked and evaluated with.
    ///   - options: release checks and device adjustments.
    public init(
        plistData data: Data, file: String?, registry: TypeRegistry = .system, options: ActivationOptions = .device
    ) {
        var diagnostics: [RuleDiagnostic] = []
        let isBinary = data.starts(with: Array("bplist".utf8))
        let scan = isBinary ? nil : XMLPlistScan(Array(data))
        for duplicate in scan?.duplicates ?? [] {
            let place = duplicate.path.isEmpty ? "" : " in \(duplicate.path.joined(separator: " → "))"
            diagnostics.append(
                RuleDiagnostic(
                    .warning, .duplicateKey,
                    "duplicate key \(duplicate.key)\(place) (first on line \(duplicate.firstLine)), the last one is used",
                    file: file, line: duplicate.line, column: duplicate.column))
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
            diagnostics.append(
                RuleDiagnostic(
                    .error, .malformedPlist, "not a property list: \(detail); the extension never appears", file: file))
            self.init(body: .none, file: file, prefix: diagnostics, registry: registry, options: options)
            return
        }
        let root = PlistValue(plist: object)
        let (body, found) = ActivationRule.locateRule(in: root, scan: scan, file: file)
        self.init(body: body, file: file, prefix: diagnostics + found, registry: registry, options: options)
    }

    /// The rule value and the diagnostics about where it is (or is not).
    static func locateRule(in root: PlistValue, scan: XMLPlistScan?, file: String?) -> (Body, [RuleDiagnostic]) {
        var diagnostics: [RuleDiagnostic] = []
        func at(_ path: [String], _ severity: RuleDiagnostic.Severity, _ code: RuleDiagnostic.Code, _ message: String) {
            let place = scan?.location(ofKey: path)
            diagnostics.append(
                RuleDiagnostic(severity, code, message, file: file, line: place?.line, column: place?.column))
        }
        func missing(_ message: String) -> (Body, [RuleDiagnostic]) {
            diagnostics.append(
                RuleDiagnostic(.error, .missingRule, message + "; the extension never appears", file: file))
            return (.none, diagnostics)
        }
        func body(_ value: PlistValue, path: [String]) -> Body? {
            switch value {
            case .string(let text):
                return .predicate(text, path.isEmpty ? scan?.rootString : scan?.strings[path])
            case .dictionary(let dictionary):
                return .dictionary(dictionary) { key in scan?.location(ofKey: path + [key]) }
            default:
                at(
                    path, .error, .invalidRuleType,
                    "\(ruleKey) must be a string (a predicate) or a dictionary, not a \(value.typeName); the extension never appears"
                )
                return nil
            }
        }
        switch root {
        case .string:
            return (body(root, path: []) ?? .none, diagnostics)
        case .dictionary(let top):
            if case .dictionary(let nsExtension)? = top[extensionKey] {
                let attributesPath = [extensionKey, attributesKey]
                if case .dictionary(let attributes)? = nsExtension[attributesKey] {
                    if let rule = attributes[ruleKey] {
                        return (body(rule, path: attributesPath + [ruleKey]) ?? .none, diagnostics)
                    }
                    for key in attributes.keys.sorted() where key.hasPrefix("NSExtensionActivation") {
                        if DictionaryRule.knownKeys.contains(key) {
                            at(
                                attributesPath + [key], .error, .misplacedKey,
                                "\(key) belongs inside \(ruleKey), not next to it")
                        } else if let near = Suggestion.nearest(to: key, in: [ruleKey]) {
                            at(
                                attributesPath + [key], .error, .unknownKey,
                                "unknown key '\(key)'; did you mean '\(near)'?")
                        }
                    }
                } else {
                    for key in nsExtension.keys.sorted() where key != attributesKey {
                        if let near = Suggestion.nearest(to: key, in: [attributesKey]) {
                            at(
                                [extensionKey, key], .error, .unknownKey,
                                "unknown key '\(key)'; did you mean '\(near)'?")
                        }
                    }
                }
                if nsExtension[ruleKey] != nil {
                    at(
                        [extensionKey, ruleKey], .error, .misplacedKey,
                        "\(ruleKey) belongs inside \(attributesKey), not directly in \(extensionKey)")
                }
                return missing("no \(ruleKey) in \(extensionKey) → \(attributesKey)")
            }
            if let rule = top[ruleKey] {
                return (body(rule, path: [ruleKey]) ?? .none, diagnostics)
            }
            if top.keys.contains(where: { $0.hasPrefix("NSExtensionActivation") }) {
                return (body(root, path: []) ?? .none, diagnostics)
            }
            for key in top.keys.sorted() {
                if let near = Suggestion.nearest(to: key, in: [ruleKey, extensionKey]) {
                    at([key], .error, .unknownKey, "unknown key '\(key)'; did you mean '\(near)'?")
                }
            }
            return missing(
                "no \(ruleKey): neither \(extensionKey) → \(attributesKey) → \(ruleKey), nor a top-level \(ruleKey), nor NSExtensionActivation… keys at the top"
            )
        default:
            return missing("the plist holds a \(root.typeName), not a rule or a dictionary with one")
        }
    }

    /// The `Info.plist` files whose type declarations a rule file implies: the file itself when it is
    /// an `Info.plist`, and for an extension inside an app (`X.app/PlugIns/Y.appex/Info.plist`), the
    /// app's `Info.plist` too. Only files that exist are returned.
    public static func bundleDeclarationFiles(for ruleFile: URL) -> [URL] {
        guard ruleFile.lastPathComponent == "Info.plist" else { return [] }
        var result = [ruleFile]
        let bundle = ruleFile.deletingLastPathComponent()
        let plugIns = bundle.deletingLastPathComponent()
        if bundle.pathExtension == "appex", plugIns.lastPathComponent == "PlugIns" {
            let app = plugIns.deletingLastPathComponent().appendingPathComponent("Info.plist")
            if FileManager.default.fileExists(atPath: app.path) { result.append(app) }
        }
        return result.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}

extension ActivationRule {
    /// The rule in `url`, checked and evaluated with the system's types, those declared in
    /// `declarations`, and those its own bundle (and its app) declare when `url` is an extension's
    /// `Info.plist` — how a share sheet sees the rule on a device.
    ///
    /// - Returns: the rule (nil when the file cannot be read) and diagnostics about the type
    ///   declarations (warnings) or the unreadable file (an error).
    /// - Throws: ``UniformTypes/TypeRegistryError`` when a file of `declarations` is malformed.
    public static func load(
        contentsOf url: URL, name: String, declarations: [URL], options: ActivationOptions
    ) throws -> (rule: ActivationRule?, diagnostics: [RuleDiagnostic]) {
        var (registry, found) = try TypeRegistry.system.adding(declarationsFromPlistsAt: declarations)
        // The rule's own Info.plist and its app's: a broken one is reported by the rule loader.
        let implied = bundleDeclarationFiles(for: url)
        if !implied.isEmpty, let (withBundles, more) = try? registry.adding(declarationsFromPlistsAt: implied) {
            registry = withBundles
            found += more
        }
        let extra = found.filter { $0.severity != .note }.map { diagnostic in
            RuleDiagnostic(.warning, "type-declaration", diagnostic.message, file: diagnostic.file)
        }
        do {
            return (try load(contentsOf: url, name: name, registry: registry, options: options), extra)
        } catch let error as ActivationRuleError {
            return (nil, extra + [RuleDiagnostic(.error, .unreadable, error.message, file: name)])
        }
    }
}
