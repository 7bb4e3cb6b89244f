public import AppGroups
public import ExtensionIPC
public import Foundation
public import HostSystem

/// Everything needed to start one extension process: the program, its containers, its limits.
///
/// The program runs under `exthost-sandbox-exec`, which confines it before exec (so a program
/// written in any language runs confined): Landlock read-only on the runtime it needs (the system
/// libraries the launcher always grants, the Swift runtime of this toolchain, the program file and
/// the libraries it loads from beside itself, its bundle) and read-write on its own container and
/// each App Group container it is entitled to — nothing else, not the program's directory. It gets one socket (fd 3), standard output and error into the host's log
/// capture, a fresh environment (`HOME` and `TMPDIR` inside its container, as on iOS), its own
/// session and process group, and `no_new_privs`.
public struct ExtensionLaunch: Sendable {
    /// The extension's program (absolute path): an executable, or with ``isLibrary`` a shared
    /// library the launcher loads.
    public var executable: String
    /// Whether ``executable`` is a shared library (`lib<Name>.so`, a dynamic-library product) that
    /// the launcher loads and runs through its `exthost_extension_main` entry point, as iOS loads an
    /// `.appex`'s code, instead of executing it.
    public var isLibrary = false
    /// Its arguments (after `argv[0]`).
    public var arguments: [String]
    /// The sandbox launcher (`exthost-sandbox-exec`).
    public var launcher: String
    /// What the process is told about itself: its bundle, its container
    /// (`Data/PluginKitPlugin/<UUID>`, with `tmp/`), the App Group containers it may write.
    public var process: ProcessEnvironment
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
    /// Whether the kernel may enforce security scopes (a seccomp broker, when the session shares
    /// files in place and the kernel offers user notification). False runs the API-only
    /// enforcement a machine without seccomp user notification gets.
    public var kernelScopes = true
    /// How much of the extension's standard output and error to keep.
    public var logLimit: Int
    /// What the host does when the extension asks to open a URL (nil: nothing opens, and the
    /// report says exthost was not given Launch Services).
    public var handOff: HandOffContext?
    /// Called after each load the host answered, with the count so far and the latest activity
    /// (for a progress bar).
    public var onProgress: (@Sendable (_ loadsServed: Int, _ activity: String?) -> Void)?
    /// The attachments per page of the context: a context of more goes to the extension in pages it
    /// asks for (``ExtensionIPC/Welcome/paging``) instead of one welcome with every attachment.
    public var contextPageSize = ExtensionLaunch.defaultContextPageSize
    /// The default ``contextPageSize``.
    public static let defaultContextPageSize = 512

    /// A launch of `executable` as `process`.
    public init(
        executable: String, arguments: [String] = [], launcher: String, process: ProcessEnvironment,
        limits: ExtensionLimits = ExtensionLimits()
    ) {
        self.executable = executable
        self.arguments = arguments
        self.launcher = launcher
        self.process = process
        self.sharedFiles = []
        self.extraReadOnlyPaths = []
        self.environment = [:]
        self.limits = limits
        self.requiresLandlock = false
        self.logLimit = 256 << 10
        self.onProgress = nil
        self.handOff = nil
    }

    /// The extension's own container.
    public var containerURL: URL { URL(fileURLWithPath: process.containerPath) }
    /// The App Group containers it may write, by group identifier.
    public var groupContainers: [String: URL] { process.groupContainerURLs }

    /// The read-only paths beyond the launcher's fixed set (the system libraries, `/proc`) and the
    /// program file itself: the Swift runtime, the libraries the program loads from beside itself
    /// (`$ORIGIN`), and ``extraReadOnlyPaths`` (its bundle). Never the program's directory: a
    /// program built next to the items, or inside the device root, still cannot read them.
    public var readOnlyPaths: [String] {
        var paths = SandboxPolicy.swiftRuntimeDirectories()
        let dependencies = ELFLibraries.dependencies(of: executable)
        // A host linked statically has no runtime loaded to point at: the program's run path says.
        for directory in dependencies.swiftRuntimeDirectories where !paths.contains(directory) {
            paths.append(directory)
        }
        for library in dependencies.originRelative where !paths.contains(library) {
            paths.append(library)
        }
        for path in extraReadOnlyPaths where !paths.contains(path) { paths.append(path) }
        return paths
    }

    /// The read-write paths: the container, the group containers, the shared files (and, in a
    /// coverage build only, the folder the profiles go to).
    public var readWritePaths: [String] {
        [containerURL.path] + groupContainers.keys.sorted().compactMap { groupContainers[$0]?.path } + sharedFiles
            + Self.coverageProfileFolders
    }

    /// Where an instrumented program writes its coverage profile (`LLVM_PROFILE_FILE`'s folder), in
    /// a build made by `Scripts/coverage` (`-DEXTHOST_COVERAGE`) only: the measurement must include
    /// the sandboxed processes' code. Any other build grants nothing.
    static var coverageProfileFolders: [String] {
        #if EXTHOST_COVERAGE
        guard let file = ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"] else { return [] }
        return [(file as NSString).deletingLastPathComponent]
        #else
        return []
        #endif
    }

    /// The sandbox policy for ``readOnlyPaths`` and ``readWritePaths``; `memory` says which kernel
    /// limit joins the watchdog (`cgroup` needs the cgroup's `cgroup.procs`).
    public func policy(memory: MemoryEnforcement = .watchdog, cgroupProcs: String? = nil) -> SandboxPolicy {
        var policy = SandboxPolicy(
            readOnlyPaths: readOnlyPaths, readWritePaths: readWritePaths,
            limits: ResourceLimits(
                openFiles: limits.openFiles, dataBytes: memory == .rlimitData ? limits.dataCeilingBytes : nil),
            enforcement: requiresLandlock ? .required : .preferred)
        policy.dropsCapabilities = true
        policy.loadsLibrary = isLibrary
        policy.cgroupProcs = memory == .cgroup ? cgroupProcs : nil
        return policy
    }

    /// The extension's environment: nothing of the host's but `PATH`, `LANG` and `TZ`; `HOME`,
    /// `TMPDIR` and ``ExtensionIPC/ProcessEnvironment/variableName`` from ``process``.
    public func environmentEntries(host: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var entries = process.variables()
        // The Swift backtracer would need to read and ptrace outside the sandbox.
        entries["SWIFT_BACKTRACE"] = "enable=no"
        for name in ["PATH", "LANG", "TZ"] { if let value = host[name] { entries[name] = value } }
        #if EXTHOST_COVERAGE
        if let profile = host["LLVM_PROFILE_FILE"] { entries["LLVM_PROFILE_FILE"] = profile }
        #endif
        for (name, value) in environment { entries[name] = value }
        return entries.keys.sorted().compactMap { name in entries[name].map { "\(name)=\($0)" } }
    }
}

/// The facts the host decides an extension's request to open a URL by.
public struct HandOffContext: Sendable {
    /// Launch Services and the delivery to the app (nil: none here).
    public var handOff: URLHandOff?
    /// The extension's `NSExtensionPointIdentifier`.
    public var extensionPoint: String?
    /// The device's iOS version (``AppGroups/DeviceRoot/iosVersion``).
    public var version: IOSVersion
    /// The device's pasteboard, which the extension's `UIPasteboard.general` asks for (nil: none).
    public var pasteboard: DevicePasteboard?
    /// The extension's bundle identifier (the pasteboard's writer).
    public var bundleIdentifier: String?

    /// A context.
    public init(
        handOff: URLHandOff?, extensionPoint: String?, version: IOSVersion, pasteboard: DevicePasteboard? = nil,
        bundleIdentifier: String? = nil
    ) {
        self.handOff = handOff
        self.extensionPoint = extensionPoint
        self.version = version
        self.pasteboard = pasteboard
        self.bundleIdentifier = bundleIdentifier
    }
}
