import Foundation

/// What `exthost-sandbox-exec` should confine a program to, turned into the launcher's arguments.
///
/// The launcher is a small single-threaded C program (Sources/exthost-sandbox-exec): Landlock
/// confines only the calling thread, so it cannot be applied from a Swift process that already
/// runs Dispatch threads. It sets `no_new_privs`, starts a session, restricts itself, applies the
/// rlimits, writes a ``SandboxReport`` line to descriptor ``reportDescriptorNumber``, closes every
/// descriptor but 0–3, and execs the program.
///
/// Always readable (granted by the launcher itself): the program, `/usr/lib`, `/lib`, `/lib64`,
/// `/etc/ld.so.cache`, `/proc` (a Swift process needs it for `CommandLine.arguments` and
/// libdispatch), `/sys/devices/system/cpu`, `/usr/share/zoneinfo`, `/dev/urandom`; `/dev/null` is
/// readable and writable. Everything else only as listed here.
///
/// - Important: Landlock does not restrict descriptors opened before it was applied (fd 3 and the
///   ones sent over it), connecting to pathname Unix sockets, or UDP. Network TCP needs ABI ≥ 4 and
///   the signal and abstract-socket scopes ABI ≥ 6; the report says what was enforced.
public struct SandboxPolicy: Hashable, Sendable {
    /// What to do when the kernel offers no Landlock.
    public enum Enforcement: Hashable, Sendable {
        /// Refuse to run the program (the launcher exits 70 with a message).
        case required
        /// Run it unconfined with a loud warning on its standard error; the report says `unconfined`.
        case preferred
        /// Do not use Landlock at all (the report says `disabled`). For diagnosis only.
        case disabled
    }

    /// Paths (and everything beneath directories) the program may read and execute.
    public var readOnlyPaths: [String]
    /// Directories the program may read, create, write, rename within and delete beneath (no execute).
    public var readWritePaths: [String]
    /// Resource limits applied before exec.
    public var limits: ResourceLimits
    /// What to do without Landlock.
    public var enforcement: Enforcement
    /// Whether the launcher gives up every capability before exec (a program started by root is
    /// then unprivileged: it cannot raise its rlimits back, mount, chroot or bypass file modes).
    public var dropsCapabilities: Bool = false
    /// A memory cgroup's `cgroup.procs` the launcher joins before anything else (see ``MemoryCgroup``).
    public var cgroupProcs: String?
    /// Whether the program is a shared library the launcher loads (`dlopen`) and runs through its
    /// `exthost_extension_main` entry point, instead of executing it: a user's extension built as a
    /// dynamic library, as iOS loads an `.appex`'s code into its extension process.
    public var loadsLibrary: Bool = false

    /// A policy; by default nothing beyond the launcher's fixed read-only set, no limits, Landlock required.
    public init(
        readOnlyPaths: [String] = [], readWritePaths: [String] = [], limits: ResourceLimits = ResourceLimits(),
        enforcement: Enforcement = .required
    ) {
        self.readOnlyPaths = readOnlyPaths
        self.readWritePaths = readWritePaths
        self.limits = limits
        self.enforcement = enforcement
    }

    /// The descriptor number the launcher writes its report to (fd 3 is the IPC socket).
    public static var reportDescriptorNumber: CInt { 4 }
    /// The descriptor number of the socket the launcher hands the seccomp listener over.
    public static var scopeBrokerDescriptorNumber: CInt { 5 }

    /// The launcher's arguments (after its own path) to run `program` with `arguments`.
    public func launcherArguments(program: String, arguments: [String], reportDescriptor: CInt?) -> [String] {
        var result: [String] = []
        for path in readOnlyPaths { result += ["--ro", path] }
        for path in readWritePaths { result += ["--rw", path] }
        if let value = limits.addressSpaceBytes { result += ["--rlimit-as", String(value)] }
        if let value = limits.openFiles { result += ["--rlimit-nofile", String(value)] }
        if let value = limits.processes { result += ["--rlimit-nproc", String(value)] }
        if let value = limits.cpuSeconds { result += ["--rlimit-cpu", String(value)] }
        if let value = limits.dataBytes { result += ["--rlimit-data", String(value)] }
        if let cgroupProcs { result += ["--cgroup-procs", cgroupProcs] }
        switch enforcement {
        case .required: break
        case .preferred: result.append("--allow-unconfined")
        case .disabled: result.append("--no-landlock")
        }
        if dropsCapabilities { result.append("--drop-capabilities") }
        if loadsLibrary { result.append("--load-library") }
        if let reportDescriptor { result += ["--report-fd", String(reportDescriptor)] }
        return result + ["--", program] + arguments
    }

    /// The descriptor number an early launcher reads the rest of its command line from.
    public static var argumentsDescriptorNumber: CInt { 6 }

    /// A ``Spawn`` of a launcher started before the host knows what it will run: it joins the
    /// memory cgroup `cgroupProcs` (if any) at once (moving a process into a cgroup v1 hierarchy waits for
    /// an RCU grace period, 10–25 ms, which this overlaps with the host's own work), then waits for
    /// ``deferredArguments(program:arguments:environment:workingDirectory:scopeBroker:)`` on
    /// `arguments` (a pipe's read end) — or end of file, on which it exits 0 unused. The other
    /// descriptors are placed as ``spawn(launcher:program:arguments:socket:report:standardOutput:standardError:scopeBroker:)``
    /// places them.
    public static func earlySpawn(
        launcher: String, cgroupProcs: String?, arguments: FileDescriptor, socket: FileDescriptor?,
        report: FileDescriptor?, standardOutput: FileDescriptor? = nil, standardError: FileDescriptor? = nil,
        scopeBroker: FileDescriptor? = nil
    ) -> Spawn {
        let cgroup = cgroupProcs.map { ["--cgroup-procs", $0] } ?? []
        var spawn = Spawn(
            executable: launcher, arguments: cgroup + ["--arguments-fd", String(argumentsDescriptorNumber)])
        spawn.processGroup = .newSession
        spawn.descriptors[1] = standardOutput
        spawn.descriptors[2] = standardError
        spawn.descriptors[3] = socket
        spawn.descriptors[reportDescriptorNumber] = report
        spawn.descriptors[scopeBrokerDescriptorNumber] = scopeBroker
        spawn.descriptors[argumentsDescriptorNumber] = arguments
        return spawn
    }

    /// What an early launcher (``earlySpawn(launcher:cgroupProcs:arguments:socket:report:standardOutput:standardError:scopeBroker:)``)
    /// is sent: this policy's arguments without the cgroup (joined already), the program's whole
    /// environment and working directory, each argument NUL-terminated.
    public func deferredArguments(
        program: String, arguments: [String], environment: [String], workingDirectory: String?, scopeBroker: Bool
    ) -> [UInt8] {
        var policy = self
        policy.cgroupProcs = nil
        var all: [String] = scopeBroker ? ["--scope-broker-fd", String(Self.scopeBrokerDescriptorNumber)] : []
        for entry in environment { all += ["--env", entry] }
        if let workingDirectory { all += ["--chdir", workingDirectory] }
        all += policy.launcherArguments(
            program: program, arguments: arguments, reportDescriptor: Self.reportDescriptorNumber)
        var bytes: [UInt8] = []
        for argument in all {
            bytes += argument.utf8
            bytes.append(0)
        }
        return bytes
    }

    /// A ``Spawn`` of the launcher running `program` in a new session, with `socket` as fd 3,
    /// `report` (a pipe's write end) as fd ``reportDescriptorNumber``, and the given standard
    /// output and error (default `/dev/null`).
    public func spawn(
        launcher: String, program: String, arguments: [String], socket: FileDescriptor?, report: FileDescriptor?,
        standardOutput: FileDescriptor? = nil, standardError: FileDescriptor? = nil, scopeBroker: FileDescriptor? = nil
    ) -> Spawn {
        var launcherArguments = launcherArguments(
            program: program, arguments: arguments, reportDescriptor: report.map { _ in Self.reportDescriptorNumber })
        if scopeBroker != nil {
            launcherArguments.insert(
                contentsOf: ["--scope-broker-fd", String(Self.scopeBrokerDescriptorNumber)], at: 0)
        }
        var spawn = Spawn(executable: launcher, arguments: launcherArguments)
        spawn.descriptors[Self.scopeBrokerDescriptorNumber] = scopeBroker
        spawn.processGroup = .newSession
        spawn.descriptors[1] = standardOutput
        spawn.descriptors[2] = standardError
        spawn.descriptors[3] = socket
        spawn.descriptors[Self.reportDescriptorNumber] = report
        return spawn
    }

    /// The directories holding the Swift runtime libraries this process loaded (libswiftCore,
    /// Foundation, Dispatch), read from `/proc/self/maps`: a confined Swift program built by the
    /// same toolchain needs them read-only.
    public static func swiftRuntimeDirectories() -> [String] { loadedRuntimeDirectories }

    /// Read once: what this process loaded at its start does not change.
    private static let loadedRuntimeDirectories: [String] = {
        // Read to end of file by hand: procfs reports size 0, and one short read may miss entries.
        guard let descriptor = try? FileDescriptor.open("/proc/self/maps") else { return [] }
        defer { try? descriptor.close() }
        guard let bytes = try? descriptor.readAll(limit: 64 << 20) else { return [] }
        return runtimeDirectories(inMaps: bytes)
    }()

    /// The directories of the Swift runtime libraries named in `/proc/PID/maps` text, in order of
    /// first appearance. Scanned as bytes: a statically linked host maps hundreds of regions, none
    /// of them a runtime library, and building a string per line cost milliseconds per launch.
    package static func runtimeDirectories(inMaps bytes: [UInt8]) -> [String] {
        let prefixes: [[UInt8]] = [
            "libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "lib_FoundationICU",
        ].map { Array($0.utf8) }
        var directories: [String] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            var slash = -1
            var lastSlash = -1
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") {
                if bytes[lineEnd] == UInt8(ascii: "/") {
                    if slash < 0 { slash = lineEnd }
                    lastSlash = lineEnd
                }
                lineEnd += 1
            }
            defer { lineStart = lineEnd + 1 }
            guard slash >= 0, lastSlash > slash else { continue }
            let name = bytes[(lastSlash + 1)..<lineEnd]
            guard prefixes.contains(where: { name.starts(with: $0) }) else { continue }
            let directory = String(decoding: bytes[slash..<lastSlash], as: UTF8.self)
            if !directories.contains(directory) { directories.append(directory) }
        }
        return directories
    }

    /// The Landlock ABI version this kernel offers (0: none).
    ///
    /// The corresponding C function is `landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`.
    public static var kernelLandlockABI: Int { Int(system_eh_landlock_abi()) }
}

/// Resource limits (`setrlimit`, soft = hard) for a confined program; nil leaves one as inherited.
public struct ResourceLimits: Hashable, Sendable {
    /// `RLIMIT_AS`: virtual address space. A backstop only — Swift reserves far more address space
    /// than it uses, so keep this in GiB and enforce memory on the footprint (``ProcessMonitor``).
    public var addressSpaceBytes: Int?
    /// `RLIMIT_NOFILE`: the highest descriptor number + 1.
    public var openFiles: Int?
    /// `RLIMIT_NPROC`: processes (and threads) of the user, counted system-wide.
    public var processes: Int?
    /// `RLIMIT_CPU`: CPU seconds, then `SIGXCPU`.
    public var cpuSeconds: Int?
    /// `RLIMIT_DATA`: private writable mappings (the heap, anonymous memory, thread stacks). An
    /// allocation past it fails (the program then crashes), so no footprint can grow past it.
    public var dataBytes: Int?

    /// This process's soft `RLIMIT_NOFILE` (how many descriptors it may hold), or nil when unlimited
    /// or unreadable.
    ///
    /// The corresponding C function is `getrlimit`.
    public static var currentOpenFilesLimit: Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return nil
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Limits; nil leaves each as inherited.
    public init(
        addressSpaceBytes: Int? = nil, openFiles: Int? = nil, processes: Int? = nil, cpuSeconds: Int? = nil,
        dataBytes: Int? = nil
    ) {
        self.addressSpaceBytes = addressSpaceBytes
        self.openFiles = openFiles
        self.processes = processes
        self.cpuSeconds = cpuSeconds
        self.dataBytes = dataBytes
    }
}
