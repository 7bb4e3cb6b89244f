import ExtensionIPC
import Foundation
import HostSystem
import Testing

/// The whole start-up path of an extension: spawn the launcher, confine, exec a Swift child,
/// hello → welcome → bye over fd 3, reap. Set `EXTHOST_HANDSHAKE_RUNS=20` to print the median
/// latency (never asserted: tests do not measure time).
@Suite(.timeLimit(.minutes(1)))
struct SandboxedHandshakeTests {
    struct Timing {
        var handshake: Duration
        var exited: Duration
    }

    func handshakeOnce() async throws -> Timing {
        let start = ContinuousClock.now
        var policy = SandboxPolicy(enforcement: SandboxPolicy.kernelLandlockABI > 0 ? .required : .preferred)
        policy.readOnlyPaths = SandboxPolicy.swiftRuntimeDirectories()
        let (mine, theirs) = try Socket.pair()
        let connection = Connection(socket: mine)
        defer { connection.close() }
        let spawn = policy.spawn(
            launcher: TestProducts.launcher, program: TestProducts.child, arguments: ["handshake"],
            socket: theirs.descriptor, report: nil)
        var handshake = Duration.zero
        let (_, status) = try await withChildProcess(spawn) { child in
            try theirs.close()
            guard case .hello(let hello) = try connection.receive(timeout: .seconds(20)).message else {
                throw IPCError(.protocolViolation, "expected hello")
            }
            #expect(hello.pid == child.pid.rawValue)
            try connection.send(.welcome(Welcome(context: ContextDescription(items: []), appGroups: [])))
            #expect(try connection.receive(timeout: .seconds(20)).message == .bye(Bye(reason: "done, 0 items")))
            handshake = ContinuousClock.now - start
            return await child.exitStatus()
        }
        #expect(status == .exited(0))
        return Timing(handshake: handshake, exited: ContinuousClock.now - start)
    }

    @Test func aConfinedSwiftChildCompletesTheHandshake() async throws {
        let runs = Int(ProcessInfo.processInfo.environment["EXTHOST_HANDSHAKE_RUNS"] ?? "") ?? 1
        var timings: [Timing] = []
        for _ in 0..<max(1, runs) { timings.append(try await handshakeOnce()) }
        if runs > 1 {
            func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
            print(
                "handshake runs=\(runs) median-to-bye=\(median(timings.map(\.handshake))) "
                    + "median-to-reaped=\(median(timings.map(\.exited))) "
                    + "min=\(timings.map(\.handshake).min() ?? .zero) max=\(timings.map(\.handshake).max() ?? .zero)")
        }
    }
}
