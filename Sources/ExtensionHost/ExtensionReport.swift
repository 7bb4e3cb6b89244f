public import ExtensionIPC
public import HostSystem

/// How the security scopes of in-place files were enforced during a run.
public enum ScopeEnforcement: String, Sendable, Hashable, Codable {
    /// The kernel: a seccomp broker answered every open of a scoped original (Foundation, `open(2)`,
    /// any library: all refused without a started scope).
    case kernel
    /// Only exthost's API refused (the kernel offers no seccomp user notification): code that opens
    /// the file another way is not stopped.
    case apiOnly = "api-only"
    /// Nothing was shared in place.
    case notNeeded = "not-needed"
}

/// What happened to one extension process: how it ended, what it used, what it said.
public struct ExtensionReport: Sendable {
    /// Milestones of the run, from the spawn.
    public struct Timings: Hashable, Sendable {
        /// Spawn to the extension's hello (process start, sandbox, runtime start-up).
        public var hello: Duration?
        /// Spawn to `completeRequest` or `cancelRequest`.
        public var finished: Duration?
        /// Spawn to the process being reaped.
        public var total: Duration
    }

    /// The extension's pid.
    public var pid: Int32
    /// How it ended.
    public var outcome: ExtensionRunOutcome
    /// One line saying why ("completed the request", "went over its memory limit …").
    public var reason: String
    /// Its exit status.
    public var status: TerminationStatus
    /// What the launcher reported about the sandbox (nil when the launcher died before reporting).
    public var sandbox: SandboxReport?
    /// The highest real footprint sampled.
    public var peakMemoryBytes: Int
    /// `VmHWM` at the last sample: the kernel's peak resident size (shared library pages included).
    public var peakResidentBytes: Int
    /// The limits it ran under.
    public var limits: ExtensionLimits
    /// Which kernel limit backed the watchdog.
    public var memoryEnforcement: MemoryEnforcement
    /// How security scopes of in-place files were enforced.
    public var scopeEnforcement: ScopeEnforcement = .notNeeded
    /// What it was doing when it was killed (or last did).
    public var activity: String?
    /// Its `completeRequest`, when it completed.
    public var completion: CompleteRequest?
    /// Its `cancelRequest`, when it cancelled.
    public var cancellation: CancelRequest?
    /// What ran after the request ended and what the end cut off, as the extension's runtime
    /// reported it once the end settled (nil: it ended before reporting, or never ended the request).
    public var requestEnd: RequestEndReport?
    /// Its captured standard output and error (bounded).
    public var log: String
    /// Bytes of output beyond the bound, dropped.
    public var logDroppedBytes: Int
    /// The log lines it sent over the connection.
    public var messages: [LogLine]
    /// What the host refused it (forged tokens, loads outside its scope, …).
    public var refusals: [String]
    /// Bytes the host handed over (data chunks and file sizes).
    public var bytesServed: Int64
    /// The first load the host answered for each attachment, by index.
    public var served: [Int: ServedLoad]
    /// Milestones.
    public var timings: Timings
    /// The principal object the extension made, and how (nil: it said nothing, as a program built
    /// on ``ExtensionRuntime`` alone does).
    public var principal: PrincipalDescription? = nil
    /// Why the bundle could not run (a principal class that does not exist, a storyboard that cannot
    /// be read): bad input, reported before any of its code ran.
    public var bundleFailure: BundleFailure? = nil
    /// The URLs the extension asked to open, and what became of each.
    public var handOffs: [HandOff] = []
    /// The extension's screen, for a view-controller extension: life cycle, scripted steps, screens.
    public var userInterface: UserInterfaceReport? = nil
}

extension Int {
    /// `1.1 GiB`, `350 MiB`, `12 KiB`, `17 bytes`.
    package var byteDescription: String {
        let units: [(Int, String)] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, name) in units where self >= size {
            let value = Double(self) / Double(size)
            return value >= 100 ? "\(Int(value.rounded())) \(name)" : "\((value * 10).rounded() / 10) \(name)"
        }
        return self == 1 ? "1 byte" : "\(self) bytes"
    }
}
