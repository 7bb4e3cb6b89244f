import ExtHostTestSupport
import Foundation
import HostSystem
import Testing

/// A launcher started before the host knows what it will run (`--arguments-fd`): it joins its
/// memory cgroup first, then takes the rest of its command line — environment and working
/// directory included — from the descriptor, or exits unused at end of file.
@Suite(.timeLimit(.minutes(1)))
struct EarlyLauncherTests {
    /// Starts the launcher early (in `cgroup` when given), sends `command` (nil: closes the
    /// descriptor with nothing sent), and returns what it wrote and its report.
    func runEarly(cgroup: MemoryCgroup?, command: [UInt8]?) async throws -> (Collected, String) {
        let (ours, theirs) = try Socket.pair()
        let report = try FileDescriptor.pipe()
        let reportCapture = OutputCapture(reading: report.readEnd, keepingAtMost: 4096)
        let spawn = SandboxPolicy.earlySpawn(
            launcher: TestProducts.launcher, cgroupProcs: cgroup?.procsFile, arguments: theirs.descriptor,
            socket: nil, report: report.writeEnd)
        let result = try await runCollecting(spawn) { _ in
            try theirs.close()
            try report.writeEnd.close()
            if let command { try ours.sendAll(command) }
            try ours.close()
        }
        return (result, try await reportCapture.output().text)
    }

    /// The bytes the host sends: each argument NUL-terminated.
    func command(_ arguments: [String]) -> [UInt8] { arguments.flatMap { Array($0.utf8) + [0] } }

    @Test func theDeferredCommandLineRunsWithItsEnvironmentAndDirectoryInTheCgroup() async throws {
        let cgroup = MemoryCgroup.make(name: "exthost-test-\(UInt32.random(in: 0...UInt32.max))", limitBytes: 64 << 20)
        defer { cgroup?.remove() }
        try await withTemporaryDirectory { directory in
            var policy = SandboxPolicy(enforcement: .preferred)
            policy.readWritePaths = [directory]
            // The cgroup in the policy is left out: the launcher joined it before reading.
            policy.cgroupProcs = "/nonexistent/cgroup.procs"
            let script =
                "echo \"$GREETING\"; echo \"$HOME\"; pwd; while read -r line; do echo \"$line\"; done < /proc/self/cgroup"
            let bytes = policy.deferredArguments(
                program: "/bin/sh", arguments: ["-c", script], environment: ["GREETING=hello there", "HOME=/nowhere"],
                workingDirectory: directory, scopeBroker: false)
            let (result, report) = try await runEarly(cgroup: cgroup, command: bytes)
            #expect(result.status == .exited(0), "\(result.errors)")
            let lines = result.output.split(separator: "\n").map(String.init)
            #expect(lines.prefix(3) == ["hello there", "/nowhere", directory])
            if let cgroup {
                let name = (cgroup.directory as NSString).lastPathComponent
                #expect(lines.dropFirst(3).contains { $0.hasSuffix("/" + name) }, "\(lines)")
            }
            let parsed = try #require(SandboxReport(parsing: report))
            #expect(parsed.status == (SandboxPolicy.kernelLandlockABI > 0 ? .enforced : .unconfined))
        }
    }

    @Test func endOfFileWithNothingSentExitsUnusedWithoutAReport() async throws {
        let (result, report) = try await runEarly(cgroup: nil, command: nil)
        #expect(result.status == .exited(0))
        #expect(result.errors.isEmpty && report.isEmpty)
    }

    struct BadDeferred: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        BadDeferred(bytes: Array("--ro\0/usr\0--\0/bin/true".utf8), message: "is not NUL-terminated"),
        BadDeferred(
            bytes: Array("--cgroup-procs\0/tmp/x\0--\0/bin/true\0".utf8), message: "--cgroup-procs must come before"),
        BadDeferred(bytes: Array("--arguments-fd\u{0}7\0--\0/bin/true\0".utf8), message: "cannot be given twice"),
        BadDeferred(bytes: Array("--env\0NOEQUALS\0--\0/bin/true\0".utf8), message: "expected NAME=VALUE after: --env"),
        BadDeferred(bytes: Array("--chdir\0".utf8), message: "missing directory after: --chdir"),
    ])
    func aBadDeferredCommandLineIsAUsageError(_ test: BadDeferred) async throws {
        let (result, _) = try await runEarly(cgroup: nil, command: test.bytes)
        #expect(result.status == .exited(64))
        #expect(result.errors.contains(test.message), "\(result.errors)")
    }

    @Test func argumentsBesideTheDescriptorAreAUsageError() async throws {
        let result = try await runCollecting(
            Spawn(executable: TestProducts.launcher, arguments: ["--arguments-fd", "6", "--", "/bin/true"]))
        #expect(result.status == .exited(64))
        #expect(result.errors.contains("--arguments-fd takes every other argument from its descriptor"))
    }
}
