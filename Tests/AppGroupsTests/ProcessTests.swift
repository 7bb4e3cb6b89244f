import AppGroups
import Foundation
import Glibc
import HostSystem
import Testing

/// Real processes: a writer killed with SIGKILL at random instants, readers racing a writer, and
/// two processes setting defaults at once. They run the built `exthost` beside the test bundle.
@Suite(.serialized)
struct ProcessTests {
    private func writeArguments(_ scratch: Scratch, files: [String], repeats: Int) -> [String] {
        ["container", "write", Scratch.group] + files + [
            "--as-bundle", scratch.extensionURL.path, "--root", scratch.url.path, "--repeat", String(repeats),
        ]
    }

    private func smallFiles(_ scratch: Scratch) throws -> [String] {
        try (0..<3).map { index in
            let url = scratch.url.appendingPathComponent("source-\(index).bin")
            try Data((0..<(100 + index * 400)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) }).write(to: url)
            return url.path
        }
    }

    @Test(.timeLimit(.minutes(6)))
    func aWriterKilledAtRandomInstantsNeverLeavesATornEntry() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        let files = try smallFiles(scratch)
        _ = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        // One writer of one round runs to its end first: the group then holds entries, and its
        // duration (the program's start and a round of commits) plus 100 ms bounds the kill instants
        // below, so they land mid-write however loaded the machine is.
        // The span is taken where the process ends (its termination handler, on Foundation's own
        // thread), not where this task resumes: a suite that keeps the cooperative threads busy
        // would otherwise stretch it, and every trial's sleep with it. Capped at 3 s for the same reason.
        let clock = ContinuousClock()
        let started = clock.now
        let complete = Process()
        complete.executableURL = try Scratch.exthost()
        complete.arguments = writeArguments(scratch, files: files, repeats: 1)
        complete.standardOutput = FileHandle.nullDevice
        complete.standardError = FileHandle.nullDevice
        let ended = try await Self.runToItsEnd(complete)
        let span = min(ended - started, .seconds(3)) + .milliseconds(100)
        let longest = UInt32(
            clamping: span.components.seconds * 1_000_000 + span.components.attoseconds / 1_000_000_000_000)
        var committedBefore = try AppGroupStore.inspect(group, root: scratch.root).verify().entryCount
        var recoveries = 0
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<30 {
            let process = Process()
            process.executableURL = try Scratch.exthost()
            process.arguments = writeArguments(scratch, files: files, repeats: 50)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            // Waits sleep in the task, not on a thread: the suite shares two cooperative threads.
            let exited = Self.exit(of: process)
            try process.run()
            try await Task.sleep(for: .microseconds(UInt32.random(in: 5_000...max(longest, 5_001), using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            _ = await exited.value

            let inspected = try AppGroupStore.inspect(group, root: scratch.root).verify()
            let allowed: Set<VerificationProblem.Kind> = [.tornJournalTail, .orphanFile, .leftoverTemporaryFile]
            let serious = inspected.problems.filter { !allowed.contains($0.kind) }
            #expect(serious.isEmpty, "trial \(trial): \(serious)")
            #expect(inspected.entryCount >= committedBefore, "trial \(trial): entries went backwards")
            // Half the trials recover as a writer's open does (only the dead writer's marker makes
            // it look past the journal), half as `exthost container recover` does (always thorough).
            let recovered =
                trial.isMultiple(of: 2)
                ? try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
                : try AppGroupStore.recovering(group, root: scratch.root)
            if !recovered.lastRecovery.isEmpty { recoveries += 1 }
            let after = try recovered.verify()
            #expect(after.isClean, "trial \(trial) after recovery: \(after.problems)")
            committedBefore = after.entryCount
            if !serious.isEmpty || !after.isClean { break }
        }
        #expect(committedBefore > 0)
        // The kills must land mid-write often enough for recovery to have had work to do.
        #expect(recoveries > 0, "no trial left anything to recover")
    }

    /// A task that ends when `process` exits (set before it runs), with the instant it exited.
    private static func exit(of process: Process) -> Task<ContinuousClock.Instant, Never> {
        let (stream, continuation) = AsyncStream<ContinuousClock.Instant>.makeStream()
        process.terminationHandler = { _ in
            continuation.yield(ContinuousClock.now)
            continuation.finish()
        }
        return Task {
            var last = ContinuousClock.now
            for await instant in stream { last = instant }
            return last
        }
    }

    /// Runs `process` and waits for its exit without holding a thread; the instant it exited.
    private static func runToItsEnd(_ process: Process) async throws -> ContinuousClock.Instant {
        let exited = exit(of: process)
        try process.run()
        return await exited.value
    }

    @Test(.timeLimit(.minutes(2)))
    func readersInOtherProcessesNeverSeeAPartialEntry() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let files = try smallFiles(scratch)
        let writer = Process()
        writer.executableURL = try Scratch.exthost()
        writer.arguments = writeArguments(scratch, files: files, repeats: 20)
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        _ = try AppGroupStore.open(try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        try writer.run()
        let root = scratch.url.path
        let failures = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var failures: [String] = []
                    var rounds = 0
                    while rounds < 6 || writer.isRunning {
                        rounds += 1
                        guard
                            let (status, out, err) = await withBlockingWait({
                                try? Scratch.run(["container", "verify", Scratch.group, "--root", root])
                            })
                        else { return ["could not run exthost"] }
                        if status != 0 { failures.append("verify exit \(status): \(out) \(err)") }
                        if rounds > 30 { break }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for await result in group { all += result }
            return all
        }
        await withBlockingWait { writer.waitUntilExit() }
        #expect(writer.terminationStatus == 0)
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let final = try AppGroupStore.inspect(try scratch.groupID(), root: scratch.root).verify()
        #expect(final.isClean && final.entryCount == 60)
    }

    @Test(.timeLimit(.minutes(2)))
    func twoProcessesSettingDifferentKeysLoseNothing() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try AppGroupStore.open(try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let root = scratch.url.path
        let exthost = try Scratch.exthost().path
        let script = { (prefix: String) -> String in
            (0..<25).map {
                "'\(exthost)' container defaults \(Scratch.group) set \(prefix)\($0) \($0) --root '\(root)' || exit 1"
            }
            .joined(separator: "\n")
        }
        let processes = try ["a", "b"].map { prefix -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script(prefix)]
            try process.run()
            return process
        }
        for process in processes {
            await withBlockingWait { process.waitUntilExit() }
            #expect(process.terminationStatus == 0)
        }
        let store = try AppGroupStore.inspect(try scratch.groupID(), root: scratch.root)
        let values = try store.defaults().dictionary()
        #expect(values.count == 50)
        #expect(values["a24"] == .integer(24) && values["b0"] == .integer(0))
    }
}
