/// The limits a share extension runs under, as on a device, each overridable.
public struct ExtensionLimits: Hashable, Sendable {
    /// The memory limit of a share extension on iOS: 120 MiB.
    public static let defaultMemoryBytes = 120 << 20

    /// The real footprint (``HostSystem/ProcessMonitor``) above which the extension is killed.
    public var memoryBytes: Int
    /// Wall time from launch after which the extension is killed; nil for none.
    public var timeout: Duration?
    /// `RLIMIT_NOFILE`: the highest descriptor number + 1.
    public var openFiles: Int
    /// Live processes in the extension's process tree (itself included) above which it is killed.
    public var processes: Int
    /// How often the footprint is sampled (two small `/proc` reads).
    public var samplingInterval: Duration
    /// How often the process tree is counted (a scan of every `/proc/PID/stat`, much dearer).
    public var processScanInterval: Duration
    /// Which kernel limit backs the watchdog (default: the best this machine offers).
    public var memoryEnforcement: MemoryEnforcement.Preference = .best

    /// The kernel's ceiling under a cgroup (`memory.max`): the limit itself, as on a device. The
    /// kill is read from the cgroup's `memory.events` as it happens, so its explanation (the peak,
    /// what the extension was doing) arrives whether the watchdog or the kernel acts first.
    public var cgroupCeilingBytes: Int { memoryBytes }
    /// The `RLIMIT_DATA` ceiling: the limit plus room for what a Swift process maps privately
    /// without touching it — an idle one about 40 MiB, and every thread's 8 MiB stack counts — so
    /// the runtime still starts and a process with a dozen threads still works.
    public var dataCeilingBytes: Int { memoryBytes + (128 << 20) }

    /// Limits; the defaults are 120 MiB, 60 s, 256 open files and 32 processes.
    public init(
        memoryBytes: Int = ExtensionLimits.defaultMemoryBytes, timeout: Duration? = .seconds(60),
        openFiles: Int = 256, processes: Int = 32, samplingInterval: Duration = .milliseconds(10),
        processScanInterval: Duration = .milliseconds(200)
    ) {
        self.memoryBytes = memoryBytes
        self.timeout = timeout
        self.openFiles = openFiles
        self.processes = processes
        self.samplingInterval = samplingInterval
        self.processScanInterval = processScanInterval
    }
}

/// Which mechanism keeps an extension under its memory limit, beside the footprint watchdog.
public enum MemoryEnforcement: String, Hashable, Sendable, Codable {
    /// A memory cgroup: the kernel never lets it allocate past ``ExtensionLimits/cgroupCeilingBytes``.
    case cgroup
    /// `RLIMIT_DATA`: allocations past ``ExtensionLimits/dataCeilingBytes`` fail.
    case rlimitData = "rlimit-data"
    /// The watchdog alone (samples every ``ExtensionLimits/samplingInterval``; a starved watchdog
    /// can let it run far over).
    case watchdog

    /// What to ask for.
    public enum Preference: String, Hashable, Sendable {
        /// A cgroup when this process may make one, else `RLIMIT_DATA`.
        case best
        /// `RLIMIT_DATA` even when a cgroup could be made.
        case rlimitData = "rlimit-data"
        /// No kernel limit (benchmarks compare against it).
        case watchdog
    }
}

/// How an extension run ended.
public enum ExtensionRunOutcome: String, Hashable, Sendable, CaseIterable {
    /// It called `completeRequest(returningItems:)`.
    case completed
    /// It called `cancelRequest(withError:)`.
    case cancelled
    /// It ended (or broke the protocol) without completing or cancelling.
    case crashed
    /// It went over its memory limit and was killed.
    case killedMemory = "killed-memory"
    /// It ran past its wall-time limit and was killed.
    case killedTimeout = "killed-timeout"
    /// Its process tree grew past its process limit and was killed.
    case killedProcesses = "killed-processes"

    /// Whether the share succeeded.
    public var isSuccess: Bool { self == .completed }
}
