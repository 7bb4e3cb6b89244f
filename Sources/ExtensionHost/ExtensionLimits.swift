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
