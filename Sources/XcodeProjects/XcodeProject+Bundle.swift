public import Foundation

extension XcodeProject.Target {
    /// Where the setting `name` is written (the most specific level that sets it).
    public func location(ofSetting name: String) -> SourceLocation? {
        settings.levels.lazy.compactMap { $0[name]?.location }.first
    }

    /// The module name Swift compiles the target as (`PRODUCT_MODULE_NAME`).
    public func moduleName() throws(XcodeProjectError) -> String {
        let name = try setting("PRODUCT_MODULE_NAME")
        return BuildSettingLevels.c99Identifier(name)
    }

    /// The Swift language mode `SWIFT_VERSION` names: "4", "4.2", "5" or "6".
    /// - Throws: ``XcodeProjectError`` (input) at the setting for a version Swift 6 does not compile.
    public func swiftLanguageMode() throws(XcodeProjectError) -> String {
        let version = try setting("SWIFT_VERSION").trimmingCharacters(in: .whitespaces)
        switch version {
        case "4", "4.0": return "4"
        case "4.2": return "4.2"
        case "5", "5.0", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.9", "5.10": return "5"
        case "6", "6.0", "6.1", "6.2": return "6"
        default:
            throw .input(
                "the target '\(name)' sets SWIFT_VERSION '\(version)', which is not a Swift language mode (4, 4.2, 5, 6)",
                at: location(ofSetting: "SWIFT_VERSION"))
        }
    }

    /// The `Info.plist` Xcode would put in the bundle: the keys Xcode adds (`CFBundleIdentifier`,
    /// `CFBundleExecutable`, `CFBundlePackageType`, …), the `INFOPLIST_KEY_*` settings when
    /// `GENERATE_INFOPLIST_FILE` is on, then the file `INFOPLIST_FILE` names; every string expanded.
    /// - Throws: ``XcodeProjectError`` (input) located at `INFOPLIST_FILE` when the file is missing
    ///   or not a plist, or at the target when it has neither a file nor a generated one.
    public func infoPlist() throws(XcodeProjectError) -> [String: Any] {
        var info: [String: Any] = [
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleExecutable": "$(EXECUTABLE_NAME)",
            "CFBundleName": "$(PRODUCT_NAME)", "CFBundlePackageType": "$(PRODUCT_BUNDLE_PACKAGE_TYPE)",
            "CFBundleShortVersionString": "$(MARKETING_VERSION)", "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
            "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)", "CFBundleInfoDictionaryVersion": "6.0",
        ]
        let generate = try setting("GENERATE_INFOPLIST_FILE").uppercased() == "YES"
        if generate {
            for name in settings.names.sorted() where name.hasPrefix("INFOPLIST_KEY_") {
                let key = String(name.dropFirst("INFOPLIST_KEY_".count))
                let value = try setting(name)
                switch value.uppercased() {
                case "YES": info[key] = true
                case "NO": info[key] = false
                default: info[key] = value
                }
            }
        }
        let path = try setting("INFOPLIST_FILE")
        if !path.isEmpty {
            let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: try setting("SRCROOT") + "/"))
                .standardizedFileURL
            guard let data = try? Data(contentsOf: url) else {
                throw .input(
                    "the Info.plist of '\(name)' is missing: INFOPLIST_FILE names \(url.path), which cannot be read",
                    at: location(ofSetting: "INFOPLIST_FILE"))
            }
            guard let file = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            else {
                throw .input("\(url.path): not a property-list dictionary (the Info.plist of '\(name)')")
            }
            info.merge(file) { $1 }
        } else if !generate {
            throw .input(
                "the target '\(name)' has no Info.plist: neither INFOPLIST_FILE nor GENERATE_INFOPLIST_FILE = YES",
                at: location)
        }
        guard let expanded = try expandStrings(info) as? [String: Any] else { return info }
        return expanded
    }

    /// `CODE_SIGN_ENTITLEMENTS`, resolved against `$(SRCROOT)`; nil when unset.
    /// - Throws: ``XcodeProjectError`` (input) at the setting when the file is missing.
    public func entitlementsFile() throws(XcodeProjectError) -> URL? {
        let path = try setting("CODE_SIGN_ENTITLEMENTS")
        guard !path.isEmpty else { return nil }
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: try setting("SRCROOT") + "/"))
            .standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .input(
                "the entitlements of '\(name)' are missing: CODE_SIGN_ENTITLEMENTS names \(url.path)",
                at: location(ofSetting: "CODE_SIGN_ENTITLEMENTS"))
        }
        return url
    }

    /// The entitlements with every string expanded (`$(AppIdentifierPrefix)`, …); nil when unset.
    public func entitlements() throws(XcodeProjectError) -> [String: Any]? {
        guard let url = try entitlementsFile() else { return nil }
        guard let data = try? Data(contentsOf: url),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else { throw .input("\(url.path): not a property-list dictionary (the entitlements of '\(name)')") }
        return try expandStrings(plist) as? [String: Any]
    }

    private func expandStrings(_ value: Any) throws(XcodeProjectError) -> Any {
        if let string = value as? String { return try settings.expand(string) }
        if let array = value as? [Any] {
            var result: [Any] = []
            for element in array { result.append(try expandStrings(element)) }
            return result
        }
        if let dictionary = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, element) in dictionary { result[key] = try expandStrings(element) }
            return result
        }
        return value
    }
}
