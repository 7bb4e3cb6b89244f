import ExtHostTestSupport
import ExtensionIPC
import Foundation
import HostSystem
import Testing

/// The launcher confining real children. On a kernel without Landlock every test instead checks
/// that the launcher refuses to run the program (exit 70, a message saying why).
@Suite(.timeLimit(.minutes(1)))
struct SandboxTests {
    static let landlockAvailable = SandboxPolicy.kernelLandlockABI > 0

    /// Runs `program arguments` under the launcher with `policy` (plus the Swift runtime,
    /// read-only); returns what it wrote and the launcher's report.
    func runConfined(
        _ policy: SandboxPolicy, _ program: String, _ arguments: [String], socket: Socket? = nil,
        extra: [CInt: FileDescriptor] = [:], during body: (ChildProcess) async throws -> Void = { _ in }
    ) async throws -> (Collected, SandboxReport?) {
        var policy = policy
        policy.readOnlyPaths += SandboxPolicy.swiftRuntimeDirectories()
        let report = try FileDescriptor.pipe()
        let reportCapture = OutputCapture(reading: report.readEnd, keepingAtMost: 4096)
        var spawn = policy.spawn(
            launcher: TestProducts.launcher, program: program, arguments: arguments, socket: socket?.descriptor,
            report: report.writeEnd)
        spawn.descriptors.merge(extra) { $1 }
        let result: Collected
        do {
            result = try await runCollecting(spawn) { child in
                try report.writeEnd.close()
                try await body(child)
            }
        } catch let error as Errno {
            try? report.writeEnd.close()
            throw error
        }
        return (result, SandboxReport(parsing: try await reportCapture.output().text))
    }

    func expectRefusal(_ result: Collected, _ report: SandboxReport?) {
        #expect(result.status == .exited(70))
        #expect(result.errors.contains("this kernel offers no Landlock"))
        #expect(report?.status == .refused)
        #expect(report?.reason == "landlock-unavailable")
    }

    @Test func aConfinedChildCanUseItsDirectoryAndNothingElse() async throws {
        try await withTemporaryDirectory { container in
            try await withTemporaryDirectory { outside in
                try "inside".write(toFile: container + "/in.txt", atomically: false, encoding: .utf8)
                try "outside".write(toFile: outside + "/out.txt", atomically: false, encoding: .utf8)
                let policy = SandboxPolicy(readWritePaths: [container])
                let probes: [([String], String)] = [
                    (["read", container + "/in.txt"], "contents=inside\n"),
                    (["write", container + "/new.txt", "made"], "written\n"),
                    (["read", "/etc/passwd"], "error=13\n"),
                    (["read", outside + "/out.txt"], "error=13\n"),
                    (["write", outside + "/escape.txt", "x"], "error=13\n"),
                    (["read", NSHomeDirectory() + "/.profile"], "error=13\n"),
                ]
                for (arguments, expected) in probes {
                    let (result, report) = try await runConfined(policy, TestProducts.child, arguments)
                    guard Self.landlockAvailable else { return expectRefusal(result, report) }
                    #expect(result.output == expected, "\(arguments) \(result)")
                    #expect(report?.isEnforced == true)
                }
                #expect(
                    Self.landlockAvailable == FileManager.default.fileExists(atPath: container + "/new.txt"))
                #expect(!FileManager.default.fileExists(atPath: outside + "/escape.txt"))
            }
        }
    }

    @Test func catCannotReadOutsideButCanReadInside() async throws {
        try await withTemporaryDirectory { container in
            try "granted\n".write(toFile: container + "/f", atomically: false, encoding: .utf8)
            let policy = SandboxPolicy(readWritePaths: [container])
            let (denied, report) = try await runConfined(policy, "/bin/cat", ["/etc/passwd"])
            guard Self.landlockAvailable else { return expectRefusal(denied, report) }
            #expect(denied.status == .exited(1))
            #expect(denied.errors.contains("Permission denied"))
            let (allowed, _) = try await runConfined(policy, "/bin/cat", [container + "/f"])
            #expect(allowed.output == "granted\n")
        }
    }

    @Test func theReportSaysWhatTheKernelEnforced() async throws {
        let (result, report) = try await runConfined(SandboxPolicy(), "/bin/true", [])
        guard Self.landlockAvailable else { return expectRefusal(result, report) }
        let parsed = try #require(report)
        #expect(result.status == .exited(0))
        #expect(parsed.status == .enforced)
        #expect(parsed.landlockABI == SandboxPolicy.kernelLandlockABI)
        #expect(parsed.noNewPrivileges)
        #expect(parsed.networkDenied == (parsed.landlockABI >= 4))
        #expect(parsed.scopes == (parsed.landlockABI >= 6 ? ["signal", "abstract-unix"] : []))
        #expect(parsed.execError == nil)
    }

    @Test func aDescriptorSentOverTheSocketIsReadableInsideTheSandbox() async throws {
        try await withTemporaryDirectory { items in
            let path = items + "/photo.txt"
            try "item bytes".write(toFile: path, atomically: false, encoding: .utf8)
            // Directly, the confined child cannot open the item ...
            let (direct, report) = try await runConfined(SandboxPolicy(), TestProducts.child, ["read", path])
            guard Self.landlockAvailable else { return expectRefusal(direct, report) }
            #expect(direct.output == "error=13\n")
            // ... but the descriptor the host sends works.
            let (mine, theirs) = try Socket.pair()
            let connection = Connection(socket: mine)
            defer { connection.close() }
            let (result, _) = try await runConfined(
                SandboxPolicy(), TestProducts.child, ["receive-file"], socket: theirs
            ) { _ in
                try theirs.close()
                try serveOneFile(path, over: connection)
            }
            #expect(result.output == "contents=item bytes\n", "\(result)")
        }
    }

    @Test func theLauncherLeavesOnlyDescriptorsZeroToThree() async throws {
        let (mine, theirs) = try Socket.pair()
        defer { try? mine.close() }
        let stray = try FileDescriptor.pipe()
        defer {
            try? stray.readEnd.close()
            try? stray.writeEnd.close()
        }
        // Stray descriptors handed to the launcher at 5, 6 and 9 must not reach the program.
        let (result, report) = try await runConfined(
            SandboxPolicy(), TestProducts.child, ["fds"], socket: theirs,
            extra: [5: stray.readEnd, 6: stray.writeEnd, 9: stray.readEnd])
        try theirs.close()
        guard Self.landlockAvailable else { return expectRefusal(result, report) }
        #expect(result.fields["open"] == "0,1,2,3")
    }

    @Test func theOpenFilesLimitApplies() async throws {
        let policy = SandboxPolicy(limits: ResourceLimits(openFiles: 32))
        let (result, report) = try await runConfined(policy, TestProducts.child, ["limits"])
        guard Self.landlockAvailable else { return expectRefusal(result, report) }
        #expect(result.fields["nofile"] == "32", "\(result)")
        #expect(result.fields["error"] == String(Errno.tooManyOpenFiles.rawValue))
    }

    @Test func theAddressSpaceLimitStopsABigAllocation() async throws {
        let policy = SandboxPolicy(limits: ResourceLimits(addressSpaceBytes: 1 << 30))
        let (small, report) = try await runConfined(policy, TestProducts.child, ["hold", "16"])
        guard Self.landlockAvailable else { return expectRefusal(small, report) }
        // A ThreadSanitizer build reserves terabytes of address space and cannot run under RLIMIT_AS.
        if small.errors.contains("ThreadSanitizer") { return }
        #expect(small.output.hasPrefix("ready\n"))
        let (big, _) = try await runConfined(policy, TestProducts.child, ["hold", "2048"])
        #expect(!big.output.contains("ready"))
        #expect(!big.status.isSuccess)
    }

    @Test func withoutLandlockTheLauncherRefusesUnlessTold() async throws {
        if Self.landlockAvailable {
            // Landlock is here, so the weaker mode can only be asked for explicitly; it says so.
            let (result, report) = try await runConfined(
                SandboxPolicy(enforcement: .disabled), TestProducts.child, ["read", "/etc/passwd"])
            #expect(report?.status == .disabled)
            #expect(report?.isEnforced == false)
            #expect(report?.landlockABI == 0)
            #expect(result.output.hasPrefix("contents="))
        } else {
            let (result, report) = try await runConfined(SandboxPolicy(), "/bin/true", [])
            expectRefusal(result, report)
            let (allowed, weak) = try await runConfined(SandboxPolicy(enforcement: .preferred), "/bin/true", [])
            #expect(allowed.status == .exited(0))
            #expect(allowed.errors.contains("UNCONFINED"))
            #expect(weak?.status == .unconfined)
        }
    }

    struct UsageCase: Sendable {
        var arguments: [String]
        var status: CInt
        var message: String
    }

    @Test(arguments: [
        UsageCase(arguments: ["--bogus", "--", "/bin/true"], status: 64, message: "unknown option: --bogus"),
        UsageCase(arguments: ["--ro"], status: 64, message: "missing path after: --ro"),
        UsageCase(arguments: ["--rlimit-nofile", "ten", "--", "/bin/true"], status: 64, message: "not a whole number"),
        UsageCase(arguments: ["--report-fd", "2", "--", "/bin/true"], status: 64, message: "must be above 3"),
        UsageCase(arguments: ["/bin/true"], status: 64, message: "missing -- before PROGRAM: /bin/true"),
        UsageCase(arguments: ["--ro", "/usr", "--"], status: 64, message: "missing PROGRAM after --"),
        UsageCase(arguments: ["--", "/nonexistent/program"], status: 70, message: "/nonexistent/program"),
        UsageCase(arguments: ["--rw", "/nonexistent/dir", "--", "/bin/true"], status: 70, message: "/nonexistent/dir"),
    ])
    func theLauncherRejectsBadInvocations(_ test: UsageCase) async throws {
        let result = try await runCollecting(Spawn(executable: TestProducts.launcher, arguments: test.arguments))
        if test.status == 70 && !Self.landlockAvailable { return }
        #expect(result.status == .exited(test.status))
        #expect(result.errors.contains(test.message))
    }

    @Test func aProgramThatCannotBeExecutedIsReported() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/not-executable"
            try "just text".write(toFile: path, atomically: false, encoding: .utf8)
            let (result, report) = try await runConfined(SandboxPolicy(enforcement: .preferred), path, [])
            #expect(result.status == .exited(127))
            #expect(report?.execError == .permissionDenied)
        }
    }
}

extension SandboxTests {
    @Test func theHostCanMeasureAConfinedChildsFootprint() async throws {
        let input = try FileDescriptor.pipe()
        let output = try FileDescriptor.pipe()
        var policy = SandboxPolicy(enforcement: .preferred)
        policy.readOnlyPaths = SandboxPolicy.swiftRuntimeDirectories()
        var spawn = policy.spawn(
            launcher: TestProducts.launcher, program: TestProducts.child, arguments: ["hold", "48"], socket: nil,
            report: nil, standardOutput: output.writeEnd)
        spawn.descriptors[0] = input.readEnd
        let (sample, _) = try await withChildProcess(spawn) { child in
            try input.readEnd.close()
            try output.writeEnd.close()
            #expect(try readLine(output.readEnd) == "ready")
            let sample = try ProcessMonitor.sample(child.pid)
            try input.writeEnd.close()
            return sample
        }
        try output.readEnd.close()
        #expect(sample.memory.footprintBytes >= 48 << 20)
        #expect(sample.memory.footprintSource == .proportionalAnonymous)
    }
}

/// Where a confined Swift program finds its runtime when the host has none loaded to point at (a
/// host linked with `--static-swift-stdlib`): the program's own absolute run path.
@Suite struct SwiftRuntimeDirectoryTests {
    @Test func aSwiftProgramsRunPathNamesTheRuntimeTheHostHasLoaded() {
        let fromProgram = ELFLibraries.swiftRuntimeDirectories(of: TestProducts.child)
        #expect(!fromProgram.isEmpty)
        // This test process is linked dynamically: the runtime it loaded is the one the child names.
        #expect(Set(fromProgram).isSubset(of: Set(SandboxPolicy.swiftRuntimeDirectories())))
        for directory in fromProgram {
            #expect(FileManager.default.fileExists(atPath: directory + "/libswiftCore.so"))
        }
    }

    /// The runtime libraries a process mapped, read from its maps: each directory once, in order.
    @Test func theRuntimeDirectoriesAreReadFromTheMapsText() {
        let maps = """
            55d0c1a00000-55d0c1a21000 r--p 00000000 08:01 123 /work/.build/release/exthost
            7f1a00000000-7f1a00200000 r--p 00000000 08:01 456 /opt/swift/usr/lib/swift/linux/libswiftCore.so
            7f1a00300000-7f1a00400000 r-xp 00000000 08:01 457 /opt/swift/usr/lib/swift/linux/libFoundation.so
            7f1a00500000-7f1a00600000 r--p 00000000 08:01 458 /usr/lib/x86_64-linux-gnu/libc.so.6
            7f1a00700000-7f1a00800000 r--p 00000000 08:01 459 /other/lib/libdispatch.so (deleted)
            7f1a00900000-7f1a00a00000 rw-p 00000000 00:00 0 [heap]
            7f1a00b00000-7f1a00c00000 r--p 00000000 08:01 460 /opt/swift/usr/lib/swift/linux/libswift_Concurrency.so
            """
        #expect(
            SandboxPolicy.runtimeDirectories(inMaps: Array(maps.utf8)) == [
                "/opt/swift/usr/lib/swift/linux", "/other/lib",
            ])
        #expect(SandboxPolicy.runtimeDirectories(inMaps: []).isEmpty)
    }

    @Test func aFileThatIsNotAnELFProgramNamesNone() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(UUID().uuidString)")
        try Data("#!/bin/sh\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(ELFLibraries.swiftRuntimeDirectories(of: file.path).isEmpty)
        #expect(ELFLibraries.swiftRuntimeDirectories(of: "/nonexistent/program").isEmpty)
    }
}
