import Foundation
import HostSystem
import Testing

/// The memory cgroup's events: parsed from either cgroup version's file, and waited for without
/// sampling — a kill is seen as it happens, and a cancelled wait ends.
@Suite(.timeLimit(.minutes(1)))
struct MemoryCgroupTests {
    /// Whether this process may make a memory cgroup here (a delegated v2 memory controller, or a
    /// writable v1 memory hierarchy); the tests of a real kill need one.
    static let canMakeCgroups: Bool = {
        guard let cgroup = MemoryCgroup.make(name: "exthost-probe-\(ProcessID.current.rawValue)", limitBytes: 64 << 20)
        else { return false }
        cgroup.remove()
        return true
    }()

    @Test func eventsAreReadFromEitherVersionsFile() {
        let v2 = MemoryCgroup.Events(parsing: "low 0\nhigh 0\nmax 17\noom 1\noom_kill 1\noom_group_kill 0\n")
        #expect(v2 == MemoryCgroup.Events(parsing: "oom 1\noom_kill 1"))
        #expect(v2.oom == 1 && v2.oomKill == 1)
        let v1 = MemoryCgroup.Events(parsing: "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
        #expect(v1.oom == 0 && v1.oomKill == 2)
        let garbage = MemoryCgroup.Events(parsing: "oom_kill lots\n\n oom 3 4\n")
        #expect(garbage.oom == 0 && garbage.oomKill == 0)
    }

    @Test func pollWaitsOnSeveralDescriptorsAtOnce() throws {
        let first = try FileDescriptor.pipe()
        let second = try FileDescriptor.pipe()
        defer {
            for descriptor in [first.readEnd, first.writeEnd, second.readEnd, second.writeEnd] {
                try? descriptor.close()
            }
        }
        let none = try FileDescriptor.poll([(first.readEnd, .readable), (second.readEnd, .readable)], timeout: .zero)
        #expect(none == [[], []])
        try second.writeEnd.writeAll([1])
        let ready = try FileDescriptor.poll([(first.readEnd, .readable), (second.readEnd, .readable)], timeout: nil)
        #expect(ready[0].isEmpty)
        #expect(ready[1].contains(.readable))
    }

    /// A cgroup left by a process that is gone is removed; one of a live process stays.
    @Test(.enabled(if: canMakeCgroups)) func abandonedCgroupsOfDeadProcessesAreRemoved() async throws {
        let prefix = "exthost-abandoned-test-\(UInt32.random(in: 0...UInt32.max))-"
        // A reaped child's pid names a process that no longer exists.
        let (deadPID, status) = try await withChildProcess(Spawn(executable: "/bin/true")) { child in
            _ = await child.exitStatus()
            return child.pid
        }
        #expect(status == .exited(0))
        let dead = try #require(MemoryCgroup.make(name: "\(prefix)\(deadPID.rawValue)-1", limitBytes: 32 << 20))
        let alive = try #require(
            MemoryCgroup.make(name: "\(prefix)\(ProcessID.current.rawValue)-2", limitBytes: 32 << 20))
        defer { alive.remove() }
        let notOurs = try #require(MemoryCgroup.make(name: "\(prefix)x-3", limitBytes: 32 << 20))
        defer { notOurs.remove() }
        #expect(MemoryCgroup.removeAbandoned(prefix: prefix) == 1)
        #expect(!FileManager.default.fileExists(atPath: dead.directory))
        #expect(FileManager.default.fileExists(atPath: alive.directory))
        #expect(FileManager.default.fileExists(atPath: notOurs.directory))
    }

    @Test(.enabled(if: canMakeCgroups)) func aCancelledWaitEndsWithoutAKill() async throws {
        let cgroup = try #require(
            MemoryCgroup.make(name: "exthost-test-\(UInt32.random(in: 0...UInt32.max))", limitBytes: 32 << 20))
        defer { cgroup.remove() }
        let waiting = Task { await cgroup.oomKill() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(cgroup.events?.oomKill == 0)
    }

    /// A program that touches 256 MiB in a 32 MiB cgroup: the wait returns with the kill while the
    /// program is ended by the kernel, and the cgroup was never charged past its limit.
    @Test(.enabled(if: canMakeCgroups)) func theKillIsSeenAsItHappensAndTheLimitHolds() async throws {
        let limit = 32 << 20
        let cgroup = try #require(
            MemoryCgroup.make(name: "exthost-test-\(UInt32.random(in: 0...UInt32.max))", limitBytes: limit))
        defer { cgroup.remove() }
        let waiting = Task { await cgroup.oomKill() }
        var policy = SandboxPolicy(enforcement: .preferred)
        policy.readOnlyPaths = SandboxPolicy.swiftRuntimeDirectories()
        policy.cgroupProcs = cgroup.procsFile
        let input = try FileDescriptor.pipe()
        let spawn = {
            var spawn = policy.spawn(
                launcher: TestProducts.launcher, program: TestProducts.child, arguments: ["hold", "256"], socket: nil,
                report: nil)
            spawn.descriptors[0] = input.readEnd
            return spawn
        }()
        let (_, status) = try await withChildProcess(spawn) { child in
            try input.readEnd.close()
            return await child.exitStatus()
        }
        try input.writeEnd.close()
        let events = await waiting.value
        #expect(status == .signaled(.kill, coreDumped: false))
        #expect(events != nil, "the wait did not see the kill")
        #expect((events?.oom ?? 0) + (events?.oomKill ?? 0) > 0)
        #expect((cgroup.peakBytes ?? 0) <= limit, "charged \(cgroup.peakBytes ?? 0) bytes")
        #expect(cgroup.oomKills >= 1)
    }
}
