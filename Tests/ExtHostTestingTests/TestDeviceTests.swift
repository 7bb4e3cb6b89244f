import AppGroups
import ExtHostTestSupport
import ExtHostTesting
import ExtensionIPC
import Foundation
import HostSystem
import Testing

/// `TestDevice` as a user's test uses it: install the demo app, share the demo items through the
/// sandboxed pipeline, read the group, open a file in the app.
@Suite(.timeLimit(.minutes(2)))
struct TestDeviceTests {
    /// The demo's CardDrop.app without programs of its own (as `exthost init` writes a bundle before the
    /// first build): exthost runs its built-in app and its built-in save-to-group extension.
    static func app(in folder: URL) throws -> URL {
        let app = folder.appendingPathComponent("CardDrop.app")
        try FileManager.default.copyItem(
            at: TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/CardDrop.app"), to: app)
        for plist in ["Info.plist", "PlugIns/Share.appex/Info.plist"].map(app.appendingPathComponent) {
            var info = try #require(
                try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil) as? [String: Any]
            )
            info["CFBundleExecutable"] = nil
            try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: plist)
        }
        return app
    }

    @Test func aShareCommitsEveryDemoItemToTheGroupTheAppReads() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        let installed = try device.install(appAt: try Self.app(in: device.root.url))
        #expect(installed.bundleIdentifier == "com.example.carddrop", "\(installed)")
        let report = try await device.share(itemsAt: TestSupport.demoItems)
        #expect(report.completed, "\(report)")
        let inbox = try device.inbox(group: TestSupport.group)
        #expect(Set(inbox.map(\.entry.name)) == ["alice.card", "menu.pdf", "note.txt", "photo.png"])
        #expect(device.groupContainer(TestSupport.group) != nil)
    }

    /// A test's shares come one after another: each leaves a launcher waiting (already in its
    /// memory cgroup) that the next share's extension runs in.
    @Test func theNextShareRunsInTheLauncherThePreviousLeftReady() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: try Self.app(in: device.root.url))
        let first = try await device.share(itemsAt: TestSupport.demoItems)
        #expect(first.completed, "\(first)")
        // The launchers waiting for a command line among this process's children (other tests'
        // devices may have theirs too).
        let waiting = ProcessMonitor.children(of: .current).filter { pid in
            let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return String(decoding: arguments, as: UTF8.self).contains("--arguments-fd")
        }
        let second = try await device.share(itemsAt: TestSupport.demoItems)
        #expect(second.completed, "\(second)")
        guard
            MemoryCgroup.make(name: "exthost-probe-\(UUID().uuidString)", limitBytes: 1 << 30).map({ $0.remove() })
                != nil
        else { return }  // no memory cgroup here: every share starts its own launcher
        let pid = try #require(second.extension?.pid)
        #expect(waiting.map { Int($0.rawValue) }.contains(pid), "\(waiting) does not hold \(pid)")
    }

    /// A file of 24 MiB through the sandboxed pipeline: the extension's loader hashes its copy while
    /// the kernel makes it, the copy is moved into the group, and the journal records the digest of
    /// the bytes — the same as the shared file's, and what `verify` finds.
    @Test func aBigFileIsCommittedWithTheDigestOfItsBytesHashedWhileCopied() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        _ = try device.install(appAt: try Self.app(in: device.root.url))
        let folder = device.root.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Printable text (the demo's rule takes plain text), no pattern a wrong offset could hide behind.
        var state: UInt64 = 0x5eed
        let bytes = (0..<(24 << 20) + 777).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(ascii: "a") + UInt8(truncatingIfNeeded: state >> 59) % 26
        }
        try Data(bytes).write(to: folder.appendingPathComponent("big.txt"))

        let report = try await device.share(itemsAt: folder)
        #expect(report.completed, "\(report)")
        let inbox = try device.inbox(group: TestSupport.group)
        let item = try #require(inbox.first)
        #expect(inbox.count == 1 && item.entry.name == "big.txt")
        #expect(item.entry.size == Int64(bytes.count) && item.entry.sha256 == SHA256.hex(of: bytes))
        #expect(try Data(contentsOf: URL(fileURLWithPath: item.path)) == Data(bytes))
        #expect(
            report.messages.contains { $0.contains("1 committed with the digest made while copying") },
            "\(report.messages)")
        let group = try AppGroupIdentifier(validating: TestSupport.group)
        #expect(try AppGroupStore.inspect(group, root: device.root).verify().isClean)
    }

    @Test func openingAFileLaunchesTheAppThatOwnsItsType() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: try Self.app(in: device.root.url))
        let report = try await device.open(fileAt: TestSupport.demoItems.appendingPathComponent("alice.card"))
        #expect(report.bundleIdentifier == "com.example.carddrop")
        #expect(report.start == "cold")
        #expect(report.delivery.handled, "\(report.delivery)")
        await #expect(throws: TestDeviceError.self) {
            try await device.open(fileAt: URL(fileURLWithPath: "/nowhere/x.zzz-unclaimed"))
        }
    }

    /// Inside withRunningApp the app's socket is bound before the body runs (no waiting for it),
    /// so an open reaches the running app warm; afterwards the socket is gone.
    @Test func anOpenWhileTheAppRunsIsDeliveredWarm() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: try Self.app(in: device.root.url))
        let card = TestSupport.demoItems.appendingPathComponent("alice.card")
        let run = try await device.withRunningApp("com.example.carddrop") { app in
            let report = try await device.open(fileAt: card)
            #expect(report.start == "warm", "\(report)")
            #expect(report.pid == app.pid)
        }
        #expect(run.bundleIdentifier == "com.example.carddrop")
        let socket = AppLaunchServer.socketPath("com.example.carddrop", on: device.root)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
