import HostSystem
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ProcessMonitorTests {
    /// Samples `exthost-test-child hold MIB` while it holds the memory.
    func sampleHolding(_ mebibytes: Int) async throws -> ProcessMonitor.Sample {
        let input = try FileDescriptor.pipe()
        let output = try FileDescriptor.pipe()
        var spawn = Spawn(executable: TestProducts.child, arguments: ["hold", String(mebibytes)])
        spawn.descriptors[0] = input.readEnd
        spawn.descriptors[1] = output.writeEnd
        let (sample, _) = try await withChildProcess(spawn) { child in
            try input.readEnd.close()
            try output.writeEnd.close()
            #expect(try readLine(output.readEnd) == "ready")
            let sample = try ProcessMonitor.sample(child.pid)
            try input.writeEnd.close()
            _ = await child.exitStatus()
            return sample
        }
        try output.readEnd.close()
        return sample
    }

    /// The `/proc` reader takes the first number of each wanted key's line, nothing else.
    @Test func procFieldsAreReadByKeyFromTheBytes() {
        let text = """
            Name:\texthost-builtin
            VmRSS:\t   12345 kB
            RssAnon:\t    2048 kB
            Pss_Anon:         17 kB
            Threads:\t5
            VmSwap:\tlots kB
            VmData:\t12kB
            RssAnon:\t    9999 kB
            Vm
            """
        let values = ProcessMonitor.fields(
            Array(text.utf8), ["RssAnon", "VmRSS", "Threads", "VmSwap", "VmData", "Pss", "Vm", "Name"])
        #expect(values == [2048, 12345, 5, nil, nil, nil, nil, nil])
        #expect(ProcessMonitor.fields([], ["VmRSS"]) == [nil])
    }

    @Test func readsAChildsRealFootprintNotItsVirtualSize() async throws {
        let idle = try await sampleHolding(0)
        let busy = try await sampleHolding(64)
        let mebibyte = 1 << 20
        // The 64 MiB the child touched show up in the footprint (about 65 MiB in a normal build;
        // a ThreadSanitizer build adds twice as much shadow memory), and shared library pages
        // (in VmRSS) are not charged.
        let grown = busy.memory.footprintBytes - idle.memory.footprintBytes
        #expect(grown >= 63 * mebibyte && grown <= 200 * mebibyte, "grew by \(grown) bytes")
        #expect(idle.memory.residentBytes > idle.memory.footprintBytes)
        let memory = busy.memory
        #expect(memory.residentBytes >= memory.footprintBytes - memory.swapBytes)
        #expect(memory.peakResidentBytes >= memory.residentBytes)
        #expect(memory.virtualBytes > memory.residentBytes)
        #expect(memory.footprintSource == .proportionalAnonymous)
        #expect(busy.threadCount >= 1)
    }

    @Test func listsTheChildrenAndTheProcessGroup() async throws {
        let output = try FileDescriptor.pipe()
        var spawn = Spawn(executable: "/bin/sh", arguments: ["-c", "sleep 30 & sleep 30 & echo ready; wait"])
        spawn.descriptors[1] = output.writeEnd
        let (counts, _) = try await withChildProcess(spawn, teardown: Teardown(gracePeriod: .seconds(5))) { child in
            try output.writeEnd.close()
            #expect(try readLine(output.readEnd) == "ready")
            return (
                ProcessMonitor.children(of: child.pid).count,
                ProcessMonitor.members(ofProcessGroup: child.pid).count
            )
        }
        try output.readEnd.close()
        #expect(counts.0 == 2)
        #expect(counts.1 == 3)
    }

    @Test func aReapedProcessCannotBeSampled() async throws {
        let (pid, _) = try await withChildProcess(Spawn(executable: "/bin/true")) { child in
            _ = await child.exitStatus()
            return child.pid
        }
        #expect(throws: Errno.noSuchFileOrDirectory) { _ = try ProcessMonitor.sample(pid) }
    }

    @Test func thisProcessCanSampleItself() throws {
        let sample = try ProcessMonitor.sample(.current)
        #expect(sample.memory.residentBytes > 0)
        #expect(sample.threadCount >= 1)
    }
}
