public import ActivationRules
public import Foundation
import UniformTypes

/// Checks of an app's `Info.plist` for the ways into the app: what App Store validation rejects
/// and what makes the app appear where it should not (evidence: the reference on ways into the
/// app, sections A and B).
public enum InfoPlistLint {
    /// The diagnostics for the app bundle at `app`, checked against what `installed` (the device's
    /// other apps) declare and register.
    /// - Throws: ``ActivationRules/ActivationRuleError``-free: a missing or unreadable `Info.plist`
    ///   is an error diagnostic.
    public static func lint(appAt app: URL, installed: InstalledBundles) -> [RuleDiagnostic] {
        let plist = app.appendingPathComponent("Info.plist")
        let file = plist.path
        guard let data = try? Data(contentsOf: plist),
            let info = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
        else {
            return [RuleDiagnostic(.error, "unreadable", "no readable Info.plist dictionary", file: file)]
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ key: String, after start: String? = nil) -> Int? {
            var seenStart = start == nil
            for (index, content) in lines.enumerated() {
                if !seenStart, let start, content.contains("<key>\(start)</key>") { seenStart = true }
                if seenStart, content.contains("<key>\(key)</key>") { return index + 1 }
            }
            return nil
        }
        var found: [RuleDiagnostic] = []
        let identifier = info["CFBundleIdentifier"] as? String ?? app.lastPathComponent
        // The app being linted installs after the others: its declarations register first.
        let registry = TypeRegistry.declared(in: [plist] + installed.declarationFiles)
        let documentTypes = info["CFBundleDocumentTypes"] as? [[String: Any]] ?? []
        let inPlace = info["LSSupportsOpeningDocumentsInPlace"] as? Bool
        let browser = info["UISupportsDocumentBrowser"] as? Bool
        if !documentTypes.isEmpty, inPlace == nil, browser == nil {
            found.append(
                RuleDiagnostic(
                    .error, "ITMS-90737",
                    "CFBundleDocumentTypes without LSSupportsOpeningDocumentsInPlace or UISupportsDocumentBrowser: "
                        + "App Store validation rejects it (\"All document-based apps must include one of these configurations\")",
                    file: file, line: line("CFBundleDocumentTypes")))
        }
        let broad: Set<String> = ["public.data", "public.item", "public.content"]
        for (index, entry) in documentTypes.enumerated() {
            let name = entry["CFBundleTypeName"] as? String ?? "document type \(index + 1)"
            if let rank = entry["LSHandlerRank"] {
                if !["Owner", "Default", "Alternate", "None"].contains(rank as? String ?? "") {
                    found.append(
                        RuleDiagnostic(
                            .error, "handler-rank",
                            "\(name): LSHandlerRank \(rank) is not Owner, Default, Alternate or None",
                            file: file, line: line("LSHandlerRank", after: "CFBundleDocumentTypes")))
                }
            }
            var types = entry["LSItemContentTypes"] as? [String] ?? []
            if let single = entry["LSItemContentTypes"] as? String {
                types = [single]
                found.append(
                    RuleDiagnostic(
                        .note, "content-types-string",
                        "\(name): LSItemContentTypes is a string; iOS accepts it, Apple's samples write an array",
                        file: file, line: line("LSItemContentTypes")))
            }
            for type in types {
                if broad.contains(type) {
                    found.append(
                        RuleDiagnostic(
                            .warning, "broad-claim",
                            "\(name) claims \(type): the app appears in the Open in/Copy to list of every file "
                                + "(and can be chosen over the real owner of a type)",
                            file: file, line: line("LSItemContentTypes")))
                } else if !registry.isDeclared(UniformTypeIdentifier(type)) {
                    found.append(
                        RuleDiagnostic(
                            .warning, "undeclared-type",
                            "\(name) claims \(type), which neither the system nor an installed app declares: no file "
                                + "is ever typed with it (files get a dyn. type), so the claim never matches",
                            file: file, line: line("LSItemContentTypes")))
                }
            }
        }
        for exported in info["UTExportedTypeDeclarations"] as? [[String: Any]] ?? [] {
            guard let type = exported["UTTypeIdentifier"] as? String else { continue }
            let identifier = UniformTypeIdentifier(type)
            if !registry.conforms(identifier, to: "public.data")
                && !registry.conforms(identifier, to: "com.apple.package")
            {
                found.append(
                    RuleDiagnostic(
                        .warning, "type-conformance", "\(type) conforms to neither public.data nor com.apple.package",
                        file: file, line: line("UTExportedTypeDeclarations")))
            } else if !registry.conforms(identifier, to: "public.content") {
                found.append(
                    RuleDiagnostic(
                        .note, "airdrop-content",
                        "\(type) does not conform to public.content, which Apple asks for \"to share your type over "
                            + "AirDrop\" (public.data alone has been seen to work)",
                        file: file, line: line("UTExportedTypeDeclarations")))
            }
        }
        let schemes = (info["CFBundleURLTypes"] as? [[String: Any]] ?? []).flatMap {
            ($0["CFBundleURLSchemes"] as? [String] ?? []).map { $0.lowercased() }
        }
        for scheme in schemes {
            for other in installed.apps where other.identifier != identifier && other.urlSchemes.contains(scheme) {
                found.append(
                    RuleDiagnostic(
                        .warning, "shared-scheme",
                        "the URL scheme \(scheme) is also registered by \(other.identifier): iOS leaves the target undefined",
                        file: file, line: line("CFBundleURLSchemes")))
            }
        }
        return found
    }
}
