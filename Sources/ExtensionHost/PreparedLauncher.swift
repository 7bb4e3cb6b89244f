public import HostSystem

/// A sandbox launcher started before the host knows what it will run, already inside the memory
/// cgroup its program will be limited by.
///
/// Moving a process into a cgroup v1 hierarchy waits for an RCU grace period (10–25 ms on this
/// machine kind, measured in `Scripts/reports/share-profile.md`) — the kernel's cost, whatever is
/// written. A share starts the launcher first, so that wait overlaps the host's own preparation
/// (the bundle, the items, the rule, the containers); ``ExtensionHost/run(_:session:prepared:)``
/// then sends it the command line and it confines itself and executes the program as a launcher
/// spawned there would. The limit is in force before the program's first allocation either way.
/// A prepared launcher the share did not need (the rule did not activate, the input was bad) reads
/// end of file and exits 0; ``discard()`` reaps it and removes its cgroup.
public final class PreparedLauncher: Sendable {
    /// What an early launcher holds for the run that takes it.
    struct Parts: Sendable {
        var child: ChildProcess
        var cgroup: MemoryCgroup
        var arguments: Socket
        var descriptors: LaunchDescriptors
    }

    /// The launcher's path.
    public let launcher: String
    /// The launcher's process (the extension's, once a run sent it its command line).
    public let processID: ProcessID
    /// Its memory cgroup's directory (removed once the run, or ``discard()``, is over).
    public let cgroupDirectory: String
    /// The cgroup's limit it was started with.
    let limitBytes: Int
    private let parts: Locked<Parts?>

    private init(launcher: String, limitBytes: Int, parts: Parts) {
        self.launcher = launcher
        self.limitBytes = limitBytes
        self.processID = parts.child.pid
        self.cgroupDirectory = parts.cgroup.directory
        self.parts = Locked(parts)
    }

    /// Starts `launcher` in a new memory cgroup limited as `limits` say, or returns nil when
    /// nothing can be started early (the limits do not ask for a cgroup, this process may make
    /// none, the launcher cannot be spawned): the run then spawns its launcher itself.
    public static func start(launcher: String, limits: ExtensionLimits) -> PreparedLauncher? {
        guard limits.memoryEnforcement == .best,
            let cgroup = MemoryCgroup.make(name: ExtensionHost.cgroupName(), limitBytes: limits.cgroupCeilingBytes)
        else { return nil }
        guard let descriptors = try? LaunchDescriptors.make(scopeBroker: true) else {
            cgroup.remove()
            return nil
        }
        guard let (ours, theirs) = try? Socket.pair() else {
            descriptors.closeAll()
            cgroup.remove()
            return nil
        }
        let spawn = SandboxPolicy.earlySpawn(
            launcher: launcher, cgroupProcs: cgroup.procsFile, arguments: theirs.descriptor,
            socket: descriptors.theirs.descriptor, report: descriptors.report.writeEnd,
            standardOutput: descriptors.log.writeEnd, standardError: descriptors.log.writeEnd,
            scopeBroker: descriptors.broker?.1.descriptor)
        let child: ChildProcess
        do {
            child = try ChildProcess(spawning: spawn)
        } catch {
            try? ours.close()
            try? theirs.close()
            descriptors.closeAll()
            cgroup.remove()
            return nil
        }
        try? theirs.close()
        return PreparedLauncher(
            launcher: launcher, limitBytes: limits.cgroupCeilingBytes,
            parts: Parts(child: child, cgroup: cgroup, arguments: ours, descriptors: descriptors))
    }

    /// Its parts for a run of `launcher` under `limits`, once; nil when it was taken already or
    /// was started for another launcher or limit.
    func take(launcher: String, limits: ExtensionLimits) -> Parts? {
        guard launcher == self.launcher, limits.memoryEnforcement == .best, limits.cgroupCeilingBytes == limitBytes
        else { return nil }
        return takeParts()
    }

    /// The parts, once: nil after the first call.
    private func takeParts() -> Parts? {
        parts.withLock { parts in
            defer { parts = nil }
            return parts
        }
    }

    /// Ends the launcher when no run took it: it reads end of file and exits; then it is reaped
    /// and its cgroup removed. Does nothing once a run took it.
    public func discard() async {
        guard let taken = takeParts() else { return }
        try? taken.arguments.close()
        taken.descriptors.closeAll()
        if await !taken.child.waitForTermination(timeout: .seconds(2)) { try? taken.child.send(.kill) }
        _ = await taken.child.exitStatus()
        taken.cgroup.remove()
    }
}

extension PreparedLauncher {
    /// Ends the launcher without waiting (for a caller that cannot): it reads end of file and
    /// exits; a task reaps it and removes its cgroup.
    public func discardInBackground() {
        Task.detached { await self.discard() }
    }
}

/// The descriptors one extension process is started with, and the host's ends of them.
struct LaunchDescriptors: Sendable {
    /// The IPC socket: the host's end and the extension's (its fd 3).
    var mine: Socket
    var theirs: Socket
    /// The launcher's report pipe.
    var report: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    /// The extension's standard output and error.
    var log: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    /// The socket the launcher hands the seccomp listener over (host's end first).
    var broker: (Socket, Socket)?

    static func make(scopeBroker: Bool) throws(Errno) -> LaunchDescriptors {
        let (mine, theirs) = try Socket.pair()
        let report: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let log: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do throws(Errno) {
            report = try FileDescriptor.pipe()
            do throws(Errno) {
                log = try FileDescriptor.pipe()
            } catch {
                try? report.readEnd.close()
                try? report.writeEnd.close()
                throw error
            }
        } catch {
            try? mine.close()
            try? theirs.close()
            throw error
        }
        return LaunchDescriptors(
            mine: mine, theirs: theirs, report: report, log: log, broker: scopeBroker ? try? Socket.pair() : nil)
    }

    /// Closes every descriptor (a launch that did not happen).
    func closeAll() {
        try? mine.close()
        closeChildEnds()
        try? report.readEnd.close()
        try? log.readEnd.close()
        try? broker?.0.close()
    }

    /// Closes the ends the child holds its own copies of.
    func closeChildEnds() {
        try? theirs.close()
        try? report.writeEnd.close()
        try? log.writeEnd.close()
        try? broker?.1.close()
    }
}
