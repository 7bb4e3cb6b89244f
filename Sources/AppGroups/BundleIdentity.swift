public import Foundation

/// Who asks for a container: a bundle's identifier and the App Groups its entitlements grant.
///
/// Loaded from a bundle directory (`CardDrop.app`, `Share.appex`): `Info.plist` gives
/// `CFBundleIdentifier`, the one `*.entitlements` file in the directory gives
/// `com.apple.security.application-groups`. `$(NAME)` and `${NAME}` in either are expanded from
/// build settings (`--define NAME=VALUE`); an unknown name is an error naming it and the file.
public struct BundleIdentity: Sendable, Hashable {
    /// An app or an app extension.
    public enum Kind: String, Sendable, Hashable {
        /// An `.app` (`CFBundlePackageType` `APPL`): its data container is `Data/Application/<UUID>`.
        case application
        /// An `.appex` (`XPC!`): its data container is `Data/PluginKitPlugin/<UUID>`, with `tmp/`.
        case appExtension
    }

    /// `CFBundleIdentifier`, expanded.
    public var bundleIdentifier: String
    /// App or extension.
    public var kind: Kind
    /// The bundle directory.
    public var bundleURL: URL
    /// The entitlements file, or nil when the bundle has none (it then belongs to no group).
    public var entitlementsURL: URL?
    /// `com.apple.security.application-groups`, expanded, in file order.
    public var applicationGroups: [String]
    /// The app's team: `com.apple.developer.team-identifier`, else the prefix of
    /// `application-identifier` before its first `.` (`TEAMID.com.example.app`); nil when the
    /// entitlements name neither, or only through a build setting the defines do not give
    /// (`$(AppIdentifierPrefix)`). iOS compares it for `UIApplication.OpenURLOptionsKey.sourceApplication`.
    public var teamIdentifier: String?

    /// The entitlement key that lists App Groups.
    public static let applicationGroupsKey = "com.apple.security.application-groups"
    /// The entitlement naming the app: `<team ID>.<bundle identifier>`.
    public static let applicationIdentifierKey = "application-identifier"
    /// The entitlement naming the team.
    public static let teamIdentifierKey = "com.apple.developer.team-identifier"

    /// Creates an identity directly (tests, or a host that already parsed the bundle).
    public init(
        bundleIdentifier: String, kind: Kind, bundleURL: URL, entitlementsURL: URL?, applicationGroups: [String],
        teamIdentifier: String? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.kind = kind
        self.bundleURL = bundleURL
        self.entitlementsURL = entitlementsURL
        self.applicationGroups = applicationGroups
        self.teamIdentifier = teamIdentifier
    }

    /// Loads the identity of the bundle at `bundleURL`.
    /// - Parameters:
    ///   - bundleURL: an `.app` or `.appex` directory.
    ///   - defines: build settings for `$(NAME)` expansion.
    /// - Throws: ``AppGroupError`` `.invalidBundle` (no Info.plist, no identifier, two entitlements
    ///   files, a plist that does not parse, an App Group identifier that is not `group.` and a
    ///   reverse-DNS name — named with its file, line and column), `.undefinedVariable`.
    public static func load(bundle bundleURL: URL, defines: [String: String] = [:]) throws -> BundleIdentity {
        let infoURL = bundleURL.appendingPathComponent("Info.plist")
        let info = try readDictionary(infoURL, what: "Info.plist")
        guard let rawIdentifier = info["CFBundleIdentifier"] as? String else {
            throw AppGroupError(.invalidBundle, "\(infoURL.path): no CFBundleIdentifier string")
        }
        let identifier = try BuildSettings.expand(rawIdentifier, defines: defines, in: infoURL)
        guard !identifier.isEmpty, !identifier.contains("/") else {
            throw AppGroupError(.invalidIdentifier, "\(infoURL.path): CFBundleIdentifier '\(identifier)' is not valid")
        }
        let packageType = info["CFBundlePackageType"] as? String
        let kind: Kind =
            packageType == "XPC!" || bundleURL.pathExtension == "appex" || info["NSExtension"] != nil
            ? .appExtension : .application
        let candidates = try FileManager.default.contentsOfDirectory(atPath: bundleURL.path)
            .filter { $0.hasSuffix(".entitlements") }.sorted()
        guard candidates.count <= 1 else {
            throw AppGroupError(
                .invalidBundle,
                "\(bundleURL.path) has several entitlements files (\(candidates.joined(separator: ", "))); keep one")
        }
        var groups: [String] = []
        var entitlementsURL: URL?
        var team: String?
        if let name = candidates.first {
            let url = bundleURL.appendingPathComponent(name)
            entitlementsURL = url
            let entitlements = try readDictionary(url, what: "entitlements")
            team = try teamIdentifier(in: entitlements, file: url, defines: defines)
            if let value = entitlements[applicationGroupsKey] {
                guard let list = value as? [Any], list.allSatisfy({ $0 is String }) else {
                    throw AppGroupError(
                        .invalidBundle, "\(url.path): \(applicationGroupsKey) must be an array of strings")
                }
                groups = try list.compactMap { $0 as? String }.map { raw in
                    let group = try BuildSettings.expand(raw, defines: defines, in: url)
                    // iOS refuses to install an app whose entitlements name a malformed group.
                    guard AppGroupIdentifier(rawValue: group) != nil else {
                        throw AppGroupError(
                            .invalidBundle,
                            "\(PlistLocation.describe(raw, in: url)): '\(group)' in \(applicationGroupsKey) is not an "
                                + "iOS App Group identifier: it must be 'group.' followed by a reverse-DNS name "
                                + "(letters, digits, '.', '-', '_'), e.g. group.com.example.carddrop")
                    }
                    return group
                }
            }
        }
        return BundleIdentity(
            bundleIdentifier: identifier, kind: kind, bundleURL: bundleURL, entitlementsURL: entitlementsURL,
            applicationGroups: groups, teamIdentifier: team)
    }

    /// The team the entitlements name: `com.apple.developer.team-identifier`, else the prefix of
    /// `application-identifier`; nil when neither is there or a build setting in them is not
    /// defined (Xcode writes `$(AppIdentifierPrefix)$(CFBundleIdentifier)`; the signing step fills it),
    /// or expands to an empty team (a project without `DEVELOPMENT_TEAM`).
    /// - Throws: ``AppGroupError`` `.invalidBundle` for a value that is not a string, an
    ///   `application-identifier` without a `.`, or a team that is not letters and digits.
    private static func teamIdentifier(in entitlements: [String: Any], file: URL, defines: [String: String]) throws
        -> String?
    {
        func string(_ key: String) throws -> String? {
            guard let value = entitlements[key] else { return nil }
            guard let text = value as? String else {
                throw AppGroupError(.invalidBundle, "\(file.path): \(key) must be a string")
            }
            // An undefined build setting leaves the team unknown, as an unsigned build is.
            return try? BuildSettings.expand(text, defines: defines, in: file)
        }
        let team: String
        var key = teamIdentifierKey
        if let explicit = try string(teamIdentifierKey), !explicit.isEmpty {
            team = explicit
        } else if let identifier = try string(applicationIdentifierKey) {
            guard let dot = identifier.firstIndex(of: ".") else {
                throw AppGroupError(
                    .invalidBundle,
                    "\(PlistLocation.describe(identifier, in: file)): \(applicationIdentifierKey) '\(identifier)' is "
                        + "not '<team ID>.<bundle identifier>'")
            }
            // `$(AppIdentifierPrefix)` of a project without DEVELOPMENT_TEAM expands to ".": no team.
            guard dot != identifier.startIndex else { return nil }
            team = String(identifier[..<dot])
            key = applicationIdentifierKey
        } else {
            return nil
        }
        guard !team.isEmpty, team.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw AppGroupError(
                .invalidBundle,
                "\(PlistLocation.describe(team, in: file)): the team ID '\(team)' in \(key) is not letters and digits "
                    + "(a team ID is ten, like ABCDE12345)")
        }
        return team
    }

    /// Whether the entitlements list `group` exactly (as iOS compares).
    public func isEntitled(to group: AppGroupIdentifier) -> Bool { applicationGroups.contains(group.rawValue) }

    /// Throws unless the identity is entitled to `group`.
    /// - Throws: ``AppGroupError`` `.notEntitled` naming the group, the bundle identifier, the
    ///   entitlements file and the groups it does list.
    public func requireEntitlement(to group: AppGroupIdentifier) throws {
        guard !isEntitled(to: group) else { return }
        let file = entitlementsURL?.path ?? "(no .entitlements file in \(bundleURL.path))"
        let listed = applicationGroups.isEmpty ? "none" : applicationGroups.joined(separator: ", ")
        throw AppGroupError(
            .notEntitled,
            "\(bundleIdentifier) is not entitled to App Group '\(group)': \(file) lists \(Self.applicationGroupsKey) = "
                + "[\(listed)]; containerURL(forSecurityApplicationGroupIdentifier:) returns nil on iOS")
    }

    private static func readDictionary(_ url: URL, what: String) throws -> [String: Any] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AppGroupError(.invalidBundle, "cannot read \(what) at \(url.path)", cause: UnderlyingFailure(error))
        }
        do {
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            else {
                throw AppGroupError(.invalidBundle, "\(url.path): the top level is not a dictionary")
            }
            return dictionary
        } catch let error as AppGroupError {
            throw error
        } catch {
            throw AppGroupError(.invalidBundle, "\(url.path) is not a property list", cause: UnderlyingFailure(error))
        }
    }
}

/// Reading an installed bundle's `Info.plist`.
public enum InstalledBundle {
    /// The bundle's `Info.plist` as a dictionary, or nil when it cannot be read.
    public static func info(_ bundle: URL) -> [String: Any]? {
        guard let data = try? Data(contentsOf: bundle.appendingPathComponent("Info.plist")) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    /// The program `CFBundleExecutable` names, when the bundle holds it as an executable file (an
    /// installed user extension); nil otherwise (the checked-in demo bundles hold no program).
    public static func executable(of bundle: URL) -> URL? {
        guard case .executable(let url) = program(of: bundle) else { return nil }
        return url
    }

    /// The file name `CFBundleExecutable` gives (whether or not the bundle holds the program); nil
    /// when it names none, or not as one plain file name (an unexpanded `$(EXECUTABLE_NAME)`).
    public static func executableName(of bundle: URL) -> String? {
        guard let name = info(bundle)?["CFBundleExecutable"] as? String, !name.isEmpty, !name.contains("/"),
            !name.contains("$(")
        else { return nil }
        return name
    }

    /// The code of a bundle: a program to execute, or a dynamic library to load.
    public enum Program: Hashable, Sendable {
        /// An executable file named `CFBundleExecutable` (a `main.swift` calling `NSExtensionMain`).
        case executable(URL)
        /// A shared library `lib<CFBundleExecutable>.so`: a dynamic-library product, which the
        /// sandbox launcher loads as iOS loads an `.appex`'s code.
        case library(URL)

        /// The file.
        public var url: URL {
            switch self {
            case .executable(let url), .library(let url): url
            }
        }
    }

    /// The code `CFBundleExecutable` names when the bundle holds it: the executable `NAME`, else the
    /// library `libNAME.so`; nil otherwise (the checked-in demo bundles hold no program).
    public static func program(of bundle: URL) -> Program? {
        guard let name = executableName(of: bundle) else { return nil }
        return program(named: name, in: bundle)
    }

    /// The executable `name`, else the library `lib<name>.so`, in `directory`.
    static func program(named name: String, in directory: URL) -> Program? {
        let executable = directory.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: executable.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isExecutableFile(atPath: executable.path)
        {
            return .executable(executable)
        }
        let library = directory.appendingPathComponent(libraryName(name))
        if FileManager.default.fileExists(atPath: library.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: library.path)
        {
            return .library(library)
        }
        return nil
    }

    /// The file name of the dynamic library SwiftPM builds for a product `name`: `lib<name>.so`.
    public static func libraryName(_ name: String) -> String { "lib\(name).so" }
}
