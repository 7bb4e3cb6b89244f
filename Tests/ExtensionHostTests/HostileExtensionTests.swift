import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Testing

/// The sandbox from the outside: a hostile program tries to escape; every attempt must fail, and
/// the same data path must still work for what a well-behaved extension does.
@Suite(.timeLimit(.minutes(2)))
struct HostileExtensionTests {
    @Test func everyEscapeIsRefusedAndTheDataPathStillWorks() async throws {
        guard SandboxPolicy.kernelLandlockABI > 0 else { return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let items = scratch.items
        try Data("card contents\n".utf8).write(to: items.appendingPathComponent("card.txt"))
        try Data("in place\n".utf8).write(to: items.appendingPathComponent("doc.inplace"))
        try FileManager.default.createSymbolicLink(
            atPath: items.appendingPathComponent("link-passwd").path, withDestinationPath: "/etc/passwd")
        let session = FolderSession(folder: items, files: ["card.txt", "doc.inplace", "link-passwd"])
        let foreign = SecurityScopeTokens().issue(for: 1)
        // Something on the device's pasteboard, whose file the extension must not reach.
        let pasteboard = DevicePasteboard(root: scratch.root)
        try pasteboard.setItems(
            [
                PasteboardItem(representations: [
                    PasteboardRepresentation(type: "public.plain-text", data: Data("x".utf8))
                ])
            ],
            writer: "com.example.app")
        let launch = scratch.launch([
            "escapes", "--items", items.path, "--item-file", items.appendingPathComponent("card.txt").path,
            "--other-group", scratch.otherGroup.path, "--root", scratch.root.url.path,
            "--root-file", scratch.root.bundlesURL.appendingPathComponent("Info.plist").path,
            "--home", scratch.home.path, "--foreign-token", foreign,
        ])
        let report = try await ExtensionHost.run(launch, session: session)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        #expect(report.sandbox?.isEnforced == true)
        #expect(report.sandbox?.noNewPrivileges == true)
        let lines = report.messages.map(\.text)
        let escapes = lines.filter { $0.hasPrefix("escape ") }
        let escaped = escapes.filter { $0.contains(" ESCAPED") }
        #expect(escapes.count >= 25, "\(lines)")
        #expect(escaped.isEmpty, "\(escaped)")
        for name in ["read-pasteboard-file", "write-pasteboard-file"] {
            #expect(escapes.contains { $0.hasPrefix("escape \(name) refused") }, "\(name): \(escapes)")
        }
        #expect(try pasteboard.contents().changeCount == 1, "the pasteboard is untouched")
        let allowed = lines.filter { $0.hasPrefix("allowed ") }
        if ProcessInfo.processInfo.environment["EXTHOST_PRINT_ESCAPES"] != nil {
            print((escapes + allowed + report.refusals.map { "host refused: " + $0 }).joined(separator: "\n"))
        }
        #expect(allowed.count >= 5, "\(lines)")
        #expect(allowed.allSatisfy { $0.hasSuffix(" ok") }, "\(allowed)")
        // Nothing was planted outside.
        #expect(!FileManager.default.fileExists(atPath: scratch.otherGroup.appendingPathComponent("stolen").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.root.url.appendingPathComponent("planted").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.home.appendingPathComponent(".exthost-planted").path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/exthost-hostile-planted"))
        // The host refused the token and load escapes, and says so.
        #expect(report.refusals.contains { $0.contains("forged") })
        #expect(report.refusals.contains { $0.contains("foreign") })
        #expect(report.refusals.contains { $0.contains("not being accessed") })
        #expect(report.refusals.contains { $0.contains("link-passwd") })
        // The well-behaved path wrote into the group.
        let copied = try String(contentsOf: scratch.group.appendingPathComponent("hostile-copy-0"), encoding: .utf8)
        #expect(copied == "card contents\n")
    }

    /// Where the program sits grants nothing: copied beside the items, or into the device root, the
    /// hostile program is refused every escape it is refused in a folder of its own.
    @Test(arguments: ["beside the items", "inside the device root"])
    func theProgramsFolderGrantsNothing(_ place: String) async throws {
        guard SandboxPolicy.kernelLandlockABI > 0 else { return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let items = scratch.items
        try Data("card contents\n".utf8).write(to: items.appendingPathComponent("card.txt"))
        let folder = place == "beside the items" ? items : scratch.root.url
        let program = folder.appendingPathComponent("hostile")
        try FileManager.default.copyItem(atPath: TestProducts.hostile, toPath: program.path)
        let session = FolderSession(folder: items, files: ["card.txt"])
        let launch = scratch.launch(
            [
                "escapes", "--items", items.path, "--item-file", items.appendingPathComponent("card.txt").path,
                "--other-group", scratch.otherGroup.path, "--root", scratch.root.url.path,
                "--root-file", scratch.root.bundlesURL.appendingPathComponent("Info.plist").path,
                "--home", scratch.home.path, "--foreign-token", "none",
            ], executable: program.path)
        let report = try await ExtensionHost.run(launch, session: session)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)")
        let escapes = report.messages.map(\.text).filter { $0.hasPrefix("escape ") }
        #expect(escapes.count >= 25, "\(report.messages)")
        let escaped = escapes.filter { $0.contains(" ESCAPED") }
        #expect(escaped.isEmpty, "\(place): \(escaped)")
        #expect(escapes.contains { $0.hasPrefix("escape list-items refused") })
        #expect(escapes.contains { $0.hasPrefix("escape list-device-root refused") })
    }

    /// The same escapes against the real host session (item providers, as `exthost share` serves them).
    @Test func theProviderSessionRefusesTheSameEscapes() async throws {
        guard SandboxPolicy.kernelLandlockABI > 0 else { return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let items = scratch.items
        let card = items.appendingPathComponent("card.txt")
        let document = items.appendingPathComponent("doc.pdf")
        let other = items.appendingPathComponent("other.pdf")
        let link = items.appendingPathComponent("link-passwd")
        try Data("card contents\n".utf8).write(to: card)
        try Data("%PDF in place\n".utf8).write(to: document)
        try Data("%PDF another\n".utf8).write(to: other)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc/passwd")
        let session = { () -> ProviderSession in
            let cardProvider = ItemProvider()
            cardProvider.suggestedName = "card.txt"
            cardProvider.registerFileRepresentation(for: "public.plain-text") { completion in
                completion(card, false, nil)
                return nil
            }
            let inPlace = ItemProvider()
            inPlace.suggestedName = "doc.pdf"
            inPlace.registerFileRepresentation(for: "com.adobe.pdf", openInPlace: true) { completion in
                completion(document, false, nil)
                return nil
            }
            let secondInPlace = ItemProvider()
            secondInPlace.suggestedName = "other.pdf"
            secondInPlace.registerFileRepresentation(for: "com.adobe.pdf", openInPlace: true) { completion in
                completion(other, false, nil)
                return nil
            }
            let linked = ItemProvider()
            linked.suggestedName = "link-passwd"
            linked.registerFileRepresentation(for: "public.data") { completion in
                completion(link, false, nil)
                return nil
            }
            return ProviderSession(
                items: [ExtensionItem(attachments: [cardProvider, inPlace, secondInPlace, linked])],
                appGroups: ["group.com.example.carddrop"])
        }()
        let launch = scratch.launch([
            "escapes", "--items", items.path, "--item-file", card.path, "--other-group", scratch.otherGroup.path,
            "--root", scratch.root.url.path, "--home", scratch.home.path,
            "--foreign-token", SecurityScopeTokens().issue(for: 1),
        ])
        let report = try await ExtensionHost.run(launch, session: session)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        let lines = report.messages.map(\.text)
        let escapes = lines.filter { $0.hasPrefix("escape ") }
        #expect(escapes.count >= 30)
        #expect(escapes.filter { $0.contains(" ESCAPED") }.isEmpty, "\(escapes)")
        #expect(escapes.contains { $0.hasPrefix("escape symlink-in-items-link-passwd refused") })
        let allowed = lines.filter { $0.hasPrefix("allowed ") }
        #expect(allowed.count >= 5 && allowed.allSatisfy { $0.hasSuffix(" ok") }, "\(allowed)")
        if report.scopeEnforcement == .kernel {
            // The original itself, opened by Foundation, C and a library alike only while started.
            for attempt in [
                "kernel-read-before-start", "kernel-stat-before-start", "kernel-write-before-start",
                "kernel-open-o-path-before-start", "kernel-read-with-another-attachments-token",
                "kernel-read-through-symlink", "kernel-read-through-hard-link", "kernel-read-through-dotdot",
                "kernel-path-swap-race", "kernel-read-after-stop", "kernel-reopen-descriptor-after-stop",
                "kernel-reopen-o-path-after-stop",
            ] {
                #expect(
                    escapes.contains { $0.hasPrefix("escape \(attempt)-doc.pdf refused") },
                    "\(attempt): \(escapes.filter { $0.contains("kernel") })")
            }
            for grant in ["kernel-read-while-started", "kernel-write-while-started", "kernel-descriptor-while-started"]
            {
                #expect(allowed.contains("allowed \(grant)-doc.pdf ok"), "\(grant)")
            }
            // The write while started reached the original.
            #expect(try String(contentsOf: document, encoding: .utf8) == "%PDF in place\nx")
            #expect(report.refusals.contains { $0.hasPrefix("kernel: open") })
        } else {
            #expect(escapes.contains { $0.hasPrefix("escape stopped-token-load-doc.pdf refused") })
        }
    }

    @Test func goingOverTheMemoryLimitKillsIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let limits = ExtensionLimits(memoryBytes: 64 << 20, timeout: .seconds(60))
        let report = try await ExtensionHost.run(
            scratch.launch(["memory", "4096"], limits: limits), session: FolderSession(folder: scratch.items, files: [])
        )
        #expect(report.outcome == .killedMemory, "\(report.reason)\n\(report.log)")
        #expect(report.status == .signaled(.kill, coreDumped: false))
        // At the limit (a cgroup's memory.max is the limit itself) or past it (the watchdog, RLIMIT_DATA).
        #expect(report.peakMemoryBytes >= 64 << 20)
        // Killed before the allocation finished. How far past the limit it got depends on when the
        // watchdog thread next runs: with the whole suite in parallel on two cores it reached 1.5 GiB.
        #expect(report.peakMemoryBytes < 4096 << 20)
        #expect(report.reason.contains("huge.bin"))
        #expect(report.reason.contains("use loadFileRepresentation"))
        #expect(!report.log.contains("without being stopped"))
    }

    /// Allocating from eight threads at once at memory speed: whatever the watchdog's luck, the
    /// kernel's limit (a cgroup where one can be made, else RLIMIT_DATA) holds the peak under its
    /// ceiling, and the report says which limit applied.
    @Test(arguments: [MemoryEnforcement.Preference.best, .rlimitData])
    func theKernelHoldsSeveralThreadsUnderTheCeiling(_ preference: MemoryEnforcement.Preference) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var limits = ExtensionLimits(memoryBytes: 64 << 20, timeout: .seconds(60))
        limits.memoryEnforcement = preference
        let report = try await ExtensionHost.run(
            scratch.launch(["memory", "4096", "8"], limits: limits),
            session: FolderSession(folder: scratch.items, files: []))
        #expect(report.outcome == .killedMemory, "\(report.reason)\n\(report.log)")
        #expect(!report.log.contains("without being stopped"))
        switch report.memoryEnforcement {
        case .cgroup:
            #expect(preference == .best)
            // The limit is the limit: memory.max is the limit asked for, and the kill is explained.
            #expect(limits.cgroupCeilingBytes == limits.memoryBytes)
            #expect(report.peakMemoryBytes <= limits.memoryBytes, "\(report.peakMemoryBytes)")
            #expect(report.reason.contains("went over its memory limit of 64"), "\(report.reason)")
        case .rlimitData:
            #expect(report.peakMemoryBytes <= limits.dataCeilingBytes, "\(report.peakMemoryBytes)")
        case .watchdog:
            Issue.record("a kernel limit was asked for; the watchdog alone ran")
        }
    }

    @Test func runningPastTheTimeoutKillsIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let limits = ExtensionLimits(timeout: .milliseconds(300))
        let report = try await ExtensionHost.run(
            scratch.launch(["hang"], limits: limits), session: FolderSession(folder: scratch.items, files: []))
        #expect(report.outcome == .killedTimeout, "\(report.reason)\n\(report.log)")
        #expect(report.status == .signaled(.kill, coreDumped: false))
        #expect(report.log.contains("hanging"))
    }

    @Test func forkingInALoopKillsTheWholeTree() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let limits = ExtensionLimits(timeout: .seconds(60), processes: 16)
        let report = try await ExtensionHost.run(
            scratch.launch(["fork", "200"], limits: limits), session: FolderSession(folder: scratch.items, files: []))
        #expect(report.outcome == .killedProcesses, "\(report.reason)\n\(report.log)")
        // None of its processes survive it.
        #expect(ProcessMonitor.members(ofProcessGroup: ProcessID(rawValue: report.pid)).isEmpty)
    }

    @Test func exitingWithoutCompletingIsACrash() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let report = try await ExtensionHost.run(
            scratch.launch(["crash"]), session: FolderSession(folder: scratch.items, files: []))
        #expect(report.outcome == .crashed)
        #expect(report.status == .exited(3))
        #expect(report.log.contains("crashing on purpose"))
    }
}
