import ExtHostTestSupport
import ExtensionIPC
import Foundation
import HostSystem
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SpawnTests {
    @Test func standardStreamsEnvironmentAndDirectoryAreTheOnesGiven() async throws {
        try await withTemporaryDirectory { directory in
            var spawn = Spawn(executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; echo $GREETING; pwd"])
            spawn.environment = ["GREETING=hello", "PATH=/usr/bin:/bin"]
            spawn.workingDirectory = directory
            let result = try await runCollecting(spawn)
            #expect(result.status == .exited(0))
            let real = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/cwd")
            #expect(!real.isEmpty)
            #expect(result.output == "out\nhello\n\(directory)\n")
            #expect(result.errors == "err\n")
        }
    }

    @Test func theChildHasOnlyTheDescriptorsItWasGiven() async throws {
        let (mine, theirs) = try Socket.pair()
        defer { try? mine.close() }
        // Some unrelated descriptors this process holds open while spawning.
        let extra = try FileDescriptor.pipe()
        defer {
            try? extra.readEnd.close()
            try? extra.writeEnd.close()
        }
        var spawn = Spawn(executable: TestProducts.child, arguments: ["fds"])
        spawn.descriptors[3] = theirs.descriptor
        let result = try await runCollecting(spawn)
        try theirs.close()
        #expect(result.fields["open"] == "0,1,2,3")
    }

    @Test func theSignalMaskIsEmptyEvenWhenSpawnedFromAsyncCode() async throws {
        let result = try await runCollecting(Spawn(executable: TestProducts.child, arguments: ["signals"]))
        #expect(result.fields["blocked"] == "0000000000000000")
        // Signals 1–31 are at their defaults; glibc's internal real-time signals 32 and 33 are set to
        // ignored by posix_spawn and reinstalled by the child's own libc at startup.
        let ignored = try #require(UInt64(result.fields["ignored"] ?? "", radix: 16))
        #expect(ignored & 0x7FFF_FFFF == 0)
    }

    @Test func theChildLeadsItsOwnProcessGroup() async throws {
        let result = try await runCollecting(Spawn(executable: TestProducts.child, arguments: ["group"]))
        let pid = try #require(result.fields["pid"])
        #expect(result.fields["group"] == pid)
        #expect(pid != String(try ProcessID.current.processGroup().rawValue))
    }

    @Test func teardownEndsARunningChildWithSIGTERM() async throws {
        let input = try FileDescriptor.pipe()
        let output = try FileDescriptor.pipe()
        var spawn = Spawn(executable: TestProducts.child, arguments: ["wait"])
        spawn.descriptors[0] = input.readEnd
        spawn.descriptors[1] = output.writeEnd
        let (line, status) = try await withChildProcess(spawn, teardown: Teardown(gracePeriod: .seconds(20))) { _ in
            try input.readEnd.close()
            try output.writeEnd.close()
            return try readLine(output.readEnd)
        }
        try input.writeEnd.close()
        try output.readEnd.close()
        #expect(line == "ready")
        #expect(status == .signaled(.terminate, coreDumped: false))
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterTheGracePeriod() async throws {
        let output = try FileDescriptor.pipe()
        var spawn = Spawn(
            executable: "/bin/sh", arguments: ["-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"])
        spawn.descriptors[1] = output.writeEnd
        let start = ContinuousClock.now
        let (_, status) = try await withChildProcess(spawn, teardown: Teardown(gracePeriod: .milliseconds(300))) { _ in
            try output.writeEnd.close()
            #expect(try readLine(output.readEnd) == "ready")
        }
        try output.readEnd.close()
        #expect(status == .signaled(.kill, coreDumped: false))
        #expect(ContinuousClock.now - start >= .milliseconds(300))
    }

    @Test func teardownAlsoKillsWhatTheChildForked() async throws {
        let output = try FileDescriptor.pipe()
        var spawn = Spawn(executable: "/bin/sh", arguments: ["-c", "sleep 30 & echo $!; wait"])
        spawn.descriptors[1] = output.writeEnd
        let (grandchild, _) = try await withChildProcess(spawn, teardown: Teardown(gracePeriod: .seconds(5))) { child in
            try output.writeEnd.close()
            let pid = try #require(CInt(try readLine(output.readEnd)))
            #expect(ProcessMonitor.members(ofProcessGroup: child.pid).contains(ProcessID(rawValue: pid)))
            return pid
        }
        try output.readEnd.close()
        // The orphaned grandchild is reaped by init; give it a moment.
        var alive = true
        for _ in 0..<500 where alive {
            alive = ProcessMonitor.members(ofProcessGroup: ProcessID(rawValue: grandchild)).contains(
                ProcessID(rawValue: grandchild))
            if alive { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(!alive)
    }

    @Test func aChildThatExitsOnItsOwnIsReapedWithItsStatus() async throws {
        let (_, status) = try await withChildProcess(Spawn(executable: "/bin/sh", arguments: ["-c", "exit 7"])) {
            child in
            await child.exitStatus()
        }
        #expect(status == .exited(7))
    }

    @Test func aMissingProgramIsAnErrorFromSpawn() async throws {
        #expect(throws: Errno.noSuchFileOrDirectory) { try Spawn(executable: "/nonexistent/program").start() }
    }

    @Test func aDescriptorCrossesBetweenTwoProcesses() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/note.txt"
            try "sent as a descriptor".write(toFile: path, atomically: false, encoding: .utf8)
            let (mine, theirs) = try Socket.pair()
            var spawn = Spawn(executable: TestProducts.child, arguments: ["receive-file"])
            spawn.descriptors[3] = theirs.descriptor
            let connection = Connection(socket: mine)
            defer { connection.close() }
            let result = try await runCollecting(spawn) { _ in
                try theirs.close()
                try serveOneFile(path, over: connection)
            }
            #expect(result.output == "contents=sent as a descriptor\n")
            #expect(result.status == .exited(0))
        }
    }
}

/// The host side of `exthost-test-child receive-file`: hello → welcome → fileReply(+fd) → bye.
func serveOneFile(_ path: String, over connection: Connection) throws {
    guard case .hello(let hello) = try connection.receive(timeout: .seconds(20)).message else {
        throw IPCError(.protocolViolation, "expected hello")
    }
    #expect(hello.role == .extension)
    try connection.send(.welcome(Welcome(context: ContextDescription(items: []), appGroups: [])))
    let file = try FileDescriptor.open(path)
    defer { try? file.close() }
    try connection.send(
        .fileReply(FileReply(requestID: 1, typeIdentifier: "public.plain-text", byteCount: try file.status().size)),
        descriptors: [file])
    #expect(try connection.receive(timeout: .seconds(20)).message == .bye(Bye(reason: "read it")))
}
