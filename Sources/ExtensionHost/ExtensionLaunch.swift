public import Foundation
public import HostSystem

/// Everything needed to start one extension process: the program, its containers, its limits.
///
/// The program runs under `exthost-sandbox-exec`, which confines it before exec (so a program
/// written in any language runs confined): Landlock read-only on the runtime it needs (the system
/// libraries the launcher always grants, the Swift runtime of this toolchain, the program's own
/// directory) and read-write on its own container and each App Group container it is entitled
/// to — nothing else. It gets one socket (fd 3), standard output and error into the host's log
/// capture, a fresh environment (`HOME` and `TMPDIR` inside its container, as on iOS), its own
/// session and process group, and `no_new_privs`.
public struct ExtensionLaunch: Sendable {
    /// The environment variable naming the extension's own container.
    public static let containerVariable = "EXTHOST_EXTENSION_CONTAINER"
    /// The environment variable listing the App Group containers: `ID=PATH` entries joined by `:`.
    public static let groupContainersVariable = "EXTHOST_GROUP_CONTAINERS"
    /// The environment variable naming the device root (for notification names only: the
    /// extension cannot read the root).
    public static let rootVariable = "EXTHOST_ROOT"
    /// The environment variable carrying the extension's bundle identifier.
    public static let bundleIdentifierVariable = "EXTHOST_BUNDLE_IDENTIFIER"

    /// The extension's program (absolute path).
    public var executable: String
    /// Its arguments (after `argv[0]`).
    public var arguments: [String]
    /// The sandbox launcher (`exthost-sandbox-exec`).
    public var launcher: String
    /// The extension's own container (`Data/PluginKitPlugin/<UUID>`, with `tmp/`).
    public var containerURL: URL
    /// The App Group containers it may write, by group identifier.
    public var groupContainers: [String: URL]
    /// Files outside the containers it may read and write (e.g. the commit-notification counters).
    public var sharedFiles: [String]
    /// More read-only paths (beyond the runtime); empty normally.
    public var extraReadOnlyPaths: [String]
    /// More environment entries (`NAME=value` pairs).
    public var environment: [String: String]
    /// The limits.
    public var limits: ExtensionLimits
    /// Whether to refuse to run when the kernel has no Landlock (otherwise: a loud warning, and
    /// the report says the sandbox is not enforced).
    public var requiresLandlock: Bool
    /// How much of the extension's standard output and error to keep.
    public var logLimit: Int
    /// Called after each load the host answered, with the count so far and the latest activity
    /// (for a progress bar).
    public var onProgress: (@Sendable (_ loadsServed: Int, _ activity: String?) -> Void)?

    /// A launch of `executable` in `containerURL`.
    public init(
        executable: String, arguments: [String] = [], launcher: String, containerURL: URL,
        groupContainers: [String: URL] = [:], limits: ExtensionLimits = ExtensionLimits()
    ) {
        self.executable = executable
        self.arguments = arguments
        self.launcher = launcher
        self.containerURL = containerURL
        self.groupContainers = groupContainers
        self.sharedFiles = []
        self.extraReadOnlyPaths = []
        self.environment = [:]
        self.limits = limits
        self.requiresLandlock = false
        self.logLimit = 256 << 10
        self.onProgress = nil
    }

    /// The read-only paths beyond the launcher's fixed set: the Swift runtime and the program's directory.
    public var readOnlyPaths: [String] {
        var paths = SandboxPolicy.swiftRuntimeDirectories()
        let directory = (executable as NSString).deletingLastPathComponent
        if !directory.isEmpty, !paths.contains(directory) { paths.append(directory) }
        for path in extraReadOnlyPaths where !paths.contains(path) { paths.append(path) }
        return paths
    }

    /// The read-write paths: the container, the group containers, the shared files.
    public var readWritePaths: [String] {
        [containerURL.path] + groupContainers.keys.sorted().compactMap { groupContainers[$0]?.path } + sharedFiles
    }

    /// The sandbox policy for ``readOnlyPaths`` and ``readWritePaths``.
    public var policy: SandboxPolicy {
        var policy = SandboxPolicy(
            readOnlyPaths: readOnlyPaths, readWritePaths: readWritePaths,
            limits: ResourceLimits(openFiles: limits.openFiles),
            enforcement: requiresLandlock ? .required : .preferred)
        policy.dropsCapabilities = true
        return policy
    }

    /// The extension's environment: nothing of the host's but `PATH`, `LANG` and `TZ`.
    public func environmentEntries(host: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var entries: [String: String] = [
            "HOME": containerURL.path,
            "TMPDIR": containerURL.appendingPathComponent("tmp").path,
            Self.containerVariable: containerURL.path,
            Self.groupContainersVariable: groupContainers.keys.sorted().compactMap { id in
                groupContainers[id].map { "\(id)=\($0.path)" }
            }.joined(separator: ":"),
            // The Swift backtracer would need to read and ptrace outside the sandbox.
            "SWIFT_BACKTRACE": "enable=no",
        ]
        for name in ["PATH", "LANG", "TZ"] { if let value = host[name] { entries[name] = value } }
        for (name, value) in environment { entries[name] = value }
        return entries.keys.sorted().compactMap { name in entries[name].map { "\(name)=\($0)" } }
    }

    /// The group containers named in `text` (the value of ``groupContainersVariable``).
    public static func parseGroupContainers(_ text: String) -> [String: URL] {
        var result: [String: URL] = [:]
        for entry in text.split(separator: ":") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            result[String(entry[..<equals])] = URL(fileURLWithPath: String(entry[entry.index(after: equals)...]))
        }
        return result
    }
}
