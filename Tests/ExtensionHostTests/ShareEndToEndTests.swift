import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import ItemProviders
import Testing

/// Real processes end to end: host-side item providers served to a sandboxed extension that writes
/// into its App Group; then the app's view of the group.
@Suite(.timeLimit(.minutes(2)))
struct ShareEndToEndTests {
    static let group = "group.com.example.carddrop"

    /// A device root with the extension's containers; `launch` runs `program` in them.
    struct Device {
        let base: URL
        let root: DeviceRoot
        let identity: BundleIdentity
        let items: URL

        init() throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("exthost-e2e-\(UUID().uuidString)")
            root = DeviceRoot(url: base.appendingPathComponent("Containers"))
            items = base.appendingPathComponent("items")
            try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
            identity = BundleIdentity(
                bundleIdentifier: "com.example.carddrop.Share", kind: .appExtension,
                bundleURL: base.appendingPathComponent("Share.appex"), entitlementsURL: nil,
                applicationGroups: [ShareEndToEndTests.group])
        }

        func remove() { try? FileManager.default.removeItem(at: base) }

        func launch(_ program: String, _ arguments: [String] = []) throws -> ExtensionLaunch {
            let container = try root.dataContainer(for: identity)
            let group = try root.groupContainer(
                try AppGroupIdentifier(validating: ShareEndToEndTests.group), as: identity)
            let store = try AppGroupStore.open(
                try AppGroupIdentifier(validating: ShareEndToEndTests.group), as: identity, root: root)
            _ = try store.commitNotification.count()
            var launch = ExtensionLaunch(
                executable: TestProducts.directory + "/" + program, arguments: arguments,
                launcher: TestProducts.launcher,
                process: ProcessEnvironment(
                    bundleIdentifier: identity.bundleIdentifier, containerPath: container.url.path,
                    groupContainers: [ShareEndToEndTests.group: group.url.path], rootPath: root.url.path))
            launch.sharedFiles = [store.commitNotification.fileURL.path]
            return launch
        }

        func entries() throws -> [JournalEntry] {
            try AppGroupStore.inspect(try AppGroupIdentifier(validating: ShareEndToEndTests.group), root: root)
                .entries()
        }

        func contents(of entry: JournalEntry) throws -> Data {
            let store = try AppGroupStore.inspect(
                try AppGroupIdentifier(validating: ShareEndToEndTests.group), root: root)
            return try Data(contentsOf: store.url(for: entry))
        }
    }

    /// Files, a text object and an open-in-place file, as a share sheet would hand them over.
    static func demoSession(_ device: Device) throws -> ProviderSession {
        let note = device.items.appendingPathComponent("note.txt")
        let photo = device.items.appendingPathComponent("photo.png")
        let document = device.items.appendingPathComponent("menu.pdf")
        try Data("a note\n".utf8).write(to: note)
        try Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: photo)
        try Data("%PDF-1.4 in place\n".utf8).write(to: document)
        var providers: [ItemProvider] = []
        for url in [note, photo] {
            if let provider = ItemProvider(contentsOf: url) { providers.append(provider) }
        }
        let text = ItemProvider(object: "shared text")
        text.suggestedName = "text"
        providers.append(text)
        let inPlace = ItemProvider()
        inPlace.suggestedName = "menu.pdf"
        inPlace.registerFileRepresentation(for: "com.adobe.pdf", openInPlace: true) { completion in
            completion(document, false, nil)
            return nil
        }
        providers.append(inPlace)
        return ProviderSession(items: [ExtensionItem(attachments: providers)], appGroups: [group])
    }

    @Test func theBuiltInExtensionSavesEveryAttachmentIntoTheGroup() async throws {
        let device = try Device()
        defer { device.remove() }
        let session = try Self.demoSession(device)
        let report = try await ExtensionHost.run(
            try device.launch("exthost", [InstalledPrograms.Role.shareExtension.rawValue]), session: session)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        #expect(report.sandbox?.isEnforced == (SandboxPolicy.kernelLandlockABI > 0))
        let outcomes = report.completion?.outcomes ?? []
        #expect(outcomes.count == 4)
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes)")
        // A text file is saved as the file it is; only the text registered as a string loads as data.
        #expect(outcomes.map(\.kind) == [.file, .file, .data, .file])
        let entries = try device.entries()
        #expect(entries.count == 4)
        #expect(Set(entries.map(\.path.description)) == Set(outcomes.compactMap(\.destination)))
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
        #expect(try byName["note.txt"].map(device.contents) == Data("a note\n".utf8))
        #expect(try byName["photo.png"].map(device.contents)?.count == 70_000)
        #expect(try byName["text"].map(device.contents) == Data("shared text".utf8))
        #expect(try byName["menu.pdf"].map(device.contents) == Data("%PDF-1.4 in place\n".utf8))
        #expect(report.peakMemoryBytes > 0)
        #expect(report.refusals.isEmpty, "\(report.refusals)")
    }

    /// The built-in extension as its own small program saves the same four attachments; a word it
    /// does not know is a usage error (exit 64) before any host is reached.
    @Test func theBuiltInExtensionsOwnProgramSavesTheSame() async throws {
        let device = try Device()
        defer { device.remove() }
        let report = try await ExtensionHost.run(
            try device.launch(InstalledPrograms.extensionsName, [InstalledPrograms.Role.shareExtension.rawValue]),
            session: try Self.demoSession(device))
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        #expect(report.completion?.outcomes.map(\.kind) == [.file, .file, .data, .file])
        #expect(try device.entries().count == 4)
        let wrong = try await ExtensionHost.run(
            try device.launch(InstalledPrograms.extensionsName, ["__app"]), session: try Self.demoSession(device))
        #expect(wrong.outcome != .completed)
        #expect(wrong.log.contains("usage: exthost-builtin-extension __extension | __action-extension"), "\(wrong.log)")
    }

    @Test func aUsersOwnExtensionRunsOnTheSameDataPath() async throws {
        let device = try Device()
        defer { device.remove() }
        let session = try Self.demoSession(device)
        let report = try await ExtensionHost.run(try device.launch("exthost-example-extension"), session: session)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        let entries = try device.entries()
        #expect(entries.map(\.name) == ["share-summary.txt"])
        let summary = String(decoding: try device.contents(of: try #require(entries.first)), as: UTF8.self)
        let lines = summary.split(separator: "\n")
        try #require(lines.count == 4)
        #expect(lines[0].hasPrefix("note.txt\tpublic.plain-text\t7\ta note"))
        #expect(lines[1].contains("\t70000\t"))
        #expect(lines[3].hasPrefix("menu.pdf\tcom.adobe.pdf\t18\t%PDF"), "\(summary)")
        #expect(report.completion?.outcomes.map(\.kind) == [.file, .file, .file, .openInPlace])
    }

    @Test func aThousandSlowProvidersLoadConcurrently() async throws {
        let device = try Device()
        defer { device.remove() }
        let count = 1000
        let session = {
            let providers = (0..<count).map { index -> ItemProvider in
                let provider = ItemProvider()
                provider.suggestedName = "item-\(index).txt"
                provider.registerDataRepresentation(for: "public.plain-text") { completion in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) {
                        completion(Data("item \(index)".utf8), nil)
                    }
                    return nil
                }
                return provider
            }
            return ProviderSession(items: [ExtensionItem(attachments: providers)], appGroups: [Self.group])
        }()
        var launch = try device.launch("exthost", [InstalledPrograms.Role.shareExtension.rawValue])
        launch.limits.timeout = .seconds(60)
        let report = try await ExtensionHost.run(launch, session: session)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)")
        let outcomes = report.completion?.outcomes ?? []
        #expect(outcomes.count == count)
        #expect(
            outcomes.filter { $0.error == nil }.count == count,
            "\(outcomes.first { $0.error != nil }?.error?.message ?? "")")
        let entries = try device.entries()
        #expect(entries.count == count)
        #expect(Set(entries.map(\.name)) == Set((0..<count).map { "item-\($0).txt" }), "names differ")
        // Not asserted (tests do not measure time): serially this would take 10 s.
        if let hello = report.timings.hello, let finished = report.timings.finished {
            print(
                "1000 providers x 10 ms: request took \(finished - hello) after hello; \(report.messages.map(\.text))")
        }
    }

    /// Ten attachments over two items, as files and as data, in pages of four: the extension asks
    /// for three pages, and every attachment is committed, in order.
    static func pagedSession(_ device: Device) throws -> ProviderSession {
        var first: [ItemProvider] = []
        var second: [ItemProvider] = []
        for index in 0..<10 {
            let name = "page-\(index).txt"
            if index % 3 == 0 {
                let provider = ItemProvider(object: "text \(index)")
                provider.suggestedName = name
                (index < 3 ? { first.append(provider) } : { second.append(provider) })()
            } else {
                let url = device.items.appendingPathComponent(name)
                try Data("file \(index)\n".utf8).write(to: url)
                if let provider = ItemProvider(contentsOf: url) {
                    (index < 3 ? { first.append(provider) } : { second.append(provider) })()
                }
            }
        }
        return ProviderSession(
            items: [ExtensionItem(attachments: first), ExtensionItem(attachments: second)], appGroups: [group])
    }

    @Test func aContextOfMoreAttachmentsThanOnePageGoesInPages() async throws {
        let device = try Device()
        defer { device.remove() }
        var launch = try device.launch("exthost", [InstalledPrograms.Role.shareExtension.rawValue])
        launch.contextPageSize = 4
        let report = try await ExtensionHost.run(launch, session: try Self.pagedSession(device))
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        let outcomes = report.completion?.outcomes ?? []
        #expect(outcomes.map(\.attachment) == Array(0..<10))
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes)")
        #expect(outcomes.map(\.kind) == (0..<10).map { $0 % 3 == 0 ? .data : .file })
        let entries = try device.entries()
        #expect(entries.count == 10)
        for entry in entries {
            let index = try #require(Int(entry.name.dropFirst("page-".count).prefix { $0.isNumber }))
            let expected = index % 3 == 0 ? "text \(index)" : "file \(index)\n"
            #expect(try String(decoding: device.contents(of: entry), as: UTF8.self) == expected, "\(entry.name)")
        }
        #expect(Set(entries.map(\.path.description)) == Set(outcomes.compactMap(\.destination)))
        #expect(report.refusals.isEmpty, "\(report.refusals)")
    }

    @Test func aUsersOwnExtensionSeesAPagedContextAsOneArrayInOrder() async throws {
        let device = try Device()
        defer { device.remove() }
        var launch = try device.launch("exthost-example-extension")
        launch.contextPageSize = 3
        let report = try await ExtensionHost.run(launch, session: try Self.pagedSession(device))
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)\n\(report.messages)")
        let summary = String(decoding: try device.contents(of: try #require(try device.entries().first)), as: UTF8.self)
        let names = summary.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        #expect(names == (0..<10).map { "page-\($0).txt" }, "\(summary)")
    }
}

/// A launcher started before the share's preparation: the run takes it (the extension is that
/// process, limited by its cgroup), and one no run took exits and leaves no cgroup behind.
extension ShareEndToEndTests {
    @Test func aPreparedLauncherBecomesTheExtensionProcess() async throws {
        let device = try Device()
        defer { device.remove() }
        let launch = try device.launch("exthost", [InstalledPrograms.Role.shareExtension.rawValue])
        guard let prepared = PreparedLauncher.start(launcher: launch.launcher, limits: launch.limits) else {
            // No memory cgroup can be made here: the run spawns its own launcher (the other tests).
            return
        }
        let report = try await ExtensionHost.run(launch, session: try Self.demoSession(device), prepared: prepared)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)")
        #expect(report.pid == prepared.processID.rawValue)
        #expect(report.memoryEnforcement == .cgroup)
        #expect(report.sandbox?.isEnforced == (SandboxPolicy.kernelLandlockABI > 0))
        #expect(try device.entries().count == 4)
        await prepared.discard()
        #expect(!FileManager.default.fileExists(atPath: prepared.cgroupDirectory))
    }

    @Test func aPreparedLauncherNoRunTookExitsAndItsCgroupIsRemoved() async throws {
        let device = try Device()
        defer { device.remove() }
        var launch = try device.launch("exthost", [InstalledPrograms.Role.shareExtension.rawValue])
        guard let prepared = PreparedLauncher.start(launcher: launch.launcher, limits: launch.limits) else { return }
        #expect(FileManager.default.fileExists(atPath: prepared.cgroupDirectory))
        // Another limit than it was started for: the run spawns its own and leaves this one.
        launch.limits.memoryBytes += 1 << 20
        let report = try await ExtensionHost.run(launch, session: try Self.demoSession(device), prepared: prepared)
        #expect(report.outcome == .completed, "\(report.reason)\n\(report.log)")
        #expect(report.pid != prepared.processID.rawValue)
        await prepared.discard()
        #expect(!FileManager.default.fileExists(atPath: prepared.cgroupDirectory))
        #expect(kill(prepared.processID.rawValue, 0) == -1, "the unused launcher was not reaped")
    }
}
