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

    /// The environment variable naming the program's path inside its bundle
    /// (`<bundle>/<CFBundleExecutable>`), from which `Bundle.main` is made: CoreFoundation's own
    /// name for it (macOS reads it; on Linux a constructor in exthost's `CSystemShims` adopts it,
    /// see `HostSystem.AdoptedProcessPath`). Set whenever ``bundlePath`` is, whichever program runs.
    public static let processPathVariable = "CFProcessPath"

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
    /// The bundle's `CFBundleExecutable` (nil: the bundle's name without its extension, Xcode's default).
    public var bundleExecutable: String?
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
        bundleIdentifier: String, bundlePath: String? = nil, bundleExecutable: String? = nil, containerPath: String,
        groupContainers: [String: String] = [:], rootPath: String, scopeMode: ScopeMode = .strict,
        shuffleLoadsSeed: UInt64? = nil, declarationFiles: [String] = []
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.bundlePath = bundlePath
        self.bundleExecutable = bundleExecutable
        self.containerPath = containerPath
        self.groupContainers = groupContainers
        self.rootPath = rootPath
        self.scopeMode = scopeMode
        self.shuffleLoadsSeed = shuffleLoadsSeed
        self.declarationFiles = declarationFiles
    }

    /// The program's path inside its bundle (`<bundle>/<CFBundleExecutable>`): what `Bundle.main` is
    /// made from. Nil without a ``bundlePath``.
    public var processPath: String? {
        guard let bundlePath else { return nil }
        let bundle = bundlePath as NSString
        let name = bundleExecutable ?? (bundle.lastPathComponent as NSString).deletingPathExtension
        return bundle.appendingPathComponent(name)
    }

    /// The variables to set in the process: ``variableName`` with the JSON, `HOME` (the container),
    /// `TMPDIR` (its `tmp/`) and, with a bundle, ``processPathVariable`` (``processPath``).
    public func variables() -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var variables = [
            Self.variableName: json, "HOME": containerPath,
            "TMPDIR": (containerPath as NSString).appendingPathComponent("tmp"),
        ]
        if let processPath { variables[Self.processPathVariable] = processPath }
        return variables
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
