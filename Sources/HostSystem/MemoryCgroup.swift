import Foundation

/// A memory cgroup made for one program, so the kernel enforces its memory limit: the program
/// cannot allocate past it, whatever the load on the machine (a watchdog sampling `/proc` can be
/// starved of CPU and let it run far over).
///
/// Made where this process may make one: under its own cgroup in a cgroup v2 hierarchy that
/// delegates the memory controller (`memory.max`), or in the v1 memory hierarchy
/// (`memory.limit_in_bytes`). When the kernel's limit is reached it reclaims page cache first, then
/// the OOM killer ends the program (`SIGKILL`); ``oomKills`` counts those.
public final class MemoryCgroup: Sendable {
    /// The cgroup's directory.
    public let directory: String
    /// Its `cgroup.procs` (what the launcher writes itself into).
    public let procsFile: String
    /// 1 or 2.
    public let version: Int

    private init(directory: String, version: Int) {
        self.directory = directory
        self.procsFile = directory + "/cgroup.procs"
        self.version = version
    }

    /// A new cgroup named `name` with memory limited to `limitBytes`, or nil when this process may
    /// not make one (no delegated memory controller, not writable).
    public static func make(name: String, limitBytes: Int) -> MemoryCgroup? {
        for (parent, version) in parents {
            let directory = (parent as NSString).appendingPathComponent(name)
            guard
                (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)) != nil
            else { continue }
            let cgroup = MemoryCgroup(directory: directory, version: version)
            let limitFile = version == 2 ? "memory.max" : "memory.limit_in_bytes"
            if cgroup.write(String(limitBytes), to: limitFile) {
                if version == 2 {
                    _ = cgroup.write("0", to: "memory.swap.max")
                    // One kill ends the whole tree, as the limit is the extension's, not one process's.
                    _ = cgroup.write("1", to: "memory.oom.group")
                }
                return cgroup
            }
            cgroup.remove()
        }
        return nil
    }
    /// Removes the cgroups a process that died without removing them left under ``parents``:
    /// those named `PREFIX<pid>-…` whose process no longer exists (killed, or it never ended a
    /// launcher it kept). An empty cgroup costs the kernel memory for as long as it exists, and a
    /// test suite makes thousands. Returns how many were removed.
    @discardableResult
    public static func removeAbandoned(prefix: String) -> Int {
        var removed = 0
        for (parent, _) in parents {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { continue }
            for name in names where name.hasPrefix(prefix) {
                let rest = name.dropFirst(prefix.count)
                guard let dash = rest.firstIndex(of: "-"), let pid = CInt(rest[..<dash]), pid > 0 else { continue }
                do throws(Errno) {
                    try ProcessID(rawValue: pid).send(Signal(rawValue: 0))
                    continue  // alive (or another user's): not ours to remove
                } catch {
                    guard error == .noSuchProcess else { continue }
                }
                if rmdir(parent + "/" + name) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Where this process may make memory cgroups: under its own cgroup in each hierarchy that has
    /// the memory controller (read once: a process does not move).
    private static let parents: [(parent: String, version: Int)] = {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return [] }
        var candidates: [(parent: String, version: Int)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0", fields[1].isEmpty,
                FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers")
            {
                candidates.append(("/sys/fs/cgroup" + path, 2))
            } else if fields[1].split(separator: ",").contains("memory") {
                candidates.append(("/sys/fs/cgroup/memory" + path, 1))
            }
        }
        return candidates
    }()

    /// How many times the kernel's OOM killer ended a process of the cgroup.
    public var oomKills: Int {
        let file = version == 2 ? "memory.events" : "memory.oom_control"
        guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == "oom_kill" { return Int(parts[1]) ?? 0 }
        }
        return 0
    }

    /// The most memory the cgroup was charged (anonymous memory and page cache), when the kernel says.
    public var peakBytes: Int? {
        let file = version == 2 ? "memory.peak" : "memory.max_usage_in_bytes"
        return (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The processes in the cgroup (`cgroup.procs`: the program and every process it started,
    /// whether or not they were orphaned since), or nil when the file cannot be read. One small
    /// read, where counting a process tree from `/proc` reads every process's `stat`.
    public var members: [ProcessID]? {
        guard let text = try? String(contentsOfFile: procsFile, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").compactMap { CInt($0).map(ProcessID.init(rawValue:)) }
    }

    /// Removes the cgroup (it must hold no process any more). While the kernel is still taking a
    /// reaped process out (`EBUSY`), cgroup v2 says when it is done: `cgroup.events` changes to
    /// `populated 0`, an inotify event this waits for (at most 100 ms) instead of retrying on a
    /// timer. A v1 cgroup still busy is left behind (empty; the kernel frees it with its parent).
    public func remove() {
        if rmdir(directory) == 0 || errno != EBUSY || version != 2 { return }
        guard let inotify = try? Inotify() else { return }
        defer { try? inotify.close() }
        guard (try? inotify.addWatch(directory + "/cgroup.events", for: .modify)) != nil else { return }
        let deadline = ContinuousClock.now + .milliseconds(100)
        // Checked again after the watch exists, so a change in between is not missed.
        while rmdir(directory) != 0 && errno == EBUSY {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return }
            _ = try? inotify.waitForEvents(timeout: remaining.milliseconds / 1000)
        }
    }

    private func write(_ text: String, to file: String) -> Bool {
        guard let handle = FileHandle(forWritingAtPath: directory + "/" + file) else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data(text.utf8))) != nil
    }
}
