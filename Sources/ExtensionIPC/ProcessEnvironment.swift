public import Foundation

/// What a sandboxed process (a share extension, or an app exthost launches) is told about where
/// it lives: the one place both sides read and write the contract.
///
/// It travels as JSON in one environment variable, ``variableName``, so paths holding `:` or `=`
/// survive (a `:`-joined list once broke on them). `HOME` and `TMPDIR` point inside the process's
/// own container, as on iOS, and are set beside it.
public struct ProcessEnvironment: Codable, Hashable, Sendable {
    /// The environment variable that carries the JSON.
    public static let variableName = "EXTHOST_PROCESS"

    /// How security-scoped files behave: `strict` (a device) or `lenient` (the simulator).
    public enum ScopeMode: String, Codable, Hashable, Sendable {
        /// Without `startAccessingSecurityScopedResource()` the access fails.
        case strict
        /// Access works without a started scope.
        case lenient
    }

    /// The process's bundle identifier (`CFBundleIdentifier`).
    public var bundleIdentifier: String
    /// The process's bundle directory (an `.appex` or `.app`), when it has one.
    public var bundlePath: String?
    /// The process's own data container (`Data/PluginKitPlugin/<UUID>` or `Data/Application/<UUID>`).
    public var containerPath: String
    /// The App Group containers the process is entitled to, by group identifier.
    public var groupContainers: [String: String]
    /// The device root, for names only (commit-notification counters): the process cannot read it.
    public var rootPath: String
    /// How security-scoped files behave.
    public var scopeMode: ScopeMode
    /// When set, the order in which loads complete is shuffled with this seed (`--shuffle-loads`).
    public var shuffleLoadsSeed: UInt64?
    /// Type declaration files (`Info.plist`s) whose `UTExportedTypeDeclarations` and
    /// `UTImportedTypeDeclarations` the process's type registry adds to the system's.
    public var declarationFiles: [String]

    /// An environment.
    public init(
        bundleIdentifier: String, bundlePath: String? = nil, containerPath: String,
        groupContainers: [String: String] = [:], rootPath: String, scopeMode: ScopeMode = .strict,
        shuffleLoadsSeed: UInt64? = nil, declarationFiles: [String] = []
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.bundlePath = bundlePath
        self.containerPath = containerPath
        self.groupContainers = groupContainers
        self.rootPath = rootPath
        self.scopeMode = scopeMode
        self.shuffleLoadsSeed = shuffleLoadsSeed
        self.declarationFiles = declarationFiles
    }

    /// The variables to set in the process: ``variableName`` with the JSON, `HOME` (the container)
    /// and `TMPDIR` (its `tmp/`).
    public func variables() -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return [
            Self.variableName: json, "HOME": containerPath,
            "TMPDIR": (containerPath as NSString).appendingPathComponent("tmp"),
        ]
    }

    /// The environment of the running process, or nil when it was not started by exthost (the
    /// variable is missing or does not decode).
    public static func current(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ProcessEnvironment?
    {
        guard let json = environment[variableName] else { return nil }
        return try? JSONDecoder().decode(ProcessEnvironment.self, from: Data(json.utf8))
    }

    /// The group containers as URLs.
    public var groupContainerURLs: [String: URL] { groupContainers.mapValues { URL(fileURLWithPath: $0) } }
}
