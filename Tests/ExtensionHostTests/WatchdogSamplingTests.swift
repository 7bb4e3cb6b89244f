import ExtensionHost
import HostSystem
import Testing

/// The watchdog walks the extension's page tables (`smaps_rollup`) only when the footprint's
/// constant-time upper bound moved or could be over the limit; between walks it keeps the last
/// walk's footprint.
@Suite(.timeLimit(.minutes(1)))
struct WatchdogSamplingTests {
    @Test func thePageTablesAreWalkedOnlyWhenTheBoundMovesOrNearsTheLimit() async throws {
        // A process whose memory holds still while it is sampled.
        _ = try await withChildProcess(Spawn(executable: "/bin/sleep", arguments: ["30"])) { child in
            var walk: ExtensionHost.FootprintWalk?
            let first = try #require(ExtensionHost.footprintSample(child.pid, limit: 1 << 30, lastWalk: &walk))
            let walked = try #require(walk)
            #expect(first.memory.footprintSource == .proportionalAnonymous)
            #expect(walked.footprintBytes == first.memory.footprintBytes)
            #expect(walked.footprintBytes <= walked.upperBoundBytes)
            // Not walked again: the footprint is the last walk's (marked here to tell).
            walk?.footprintBytes = 12_345
            let second = try #require(ExtensionHost.footprintSample(child.pid, limit: 1 << 30, lastWalk: &walk))
            #expect(second.memory.footprintBytes == 12_345)
            // A bound that moved by the threshold since the walk: walked again.
            walk?.upperBoundBytes += ExtensionHost.walkThreshold
            let third = try #require(ExtensionHost.footprintSample(child.pid, limit: 1 << 30, lastWalk: &walk))
            #expect(third.memory.footprintBytes != 12_345)
            // A bound over the limit: always walked (a kill is decided on a walk).
            walk?.footprintBytes = 12_345
            let fourth = try #require(ExtensionHost.footprintSample(child.pid, limit: 1, lastWalk: &walk))
            #expect(fourth.memory.footprintBytes != 12_345)
        }
    }
}
