public import AppGroups
import Foundation
import HostSystem

/// A stress run (`exthost stress`, and tests): one share of many generated attachments — sizes,
/// representation kinds, types, load delays, injected failures and cancellations all drawn from a
/// seed — while reader processes read the group's inbox; then every attachment must be committed
/// exactly once with the right bytes, or reported failed for the injected reason.
public struct ShareStress: Sendable {
    /// What to generate and how many readers to run.
    public var attachments = 200
    /// Reader processes (`exthost __stress-reader`) reading the inbox while the share commits.
    public var readers = 2
    /// The seed every choice is drawn from (printed, so a run can be replayed).
    public var seed: UInt64
    /// The share of attachments whose load fails on purpose.
    public var failureRate = 0.05
    /// The share whose load is cancelled on purpose.
    public var cancelRate = 0.03
    /// The largest attachment, in bytes.
    public var maxSize = 2 << 20
    /// The longest load delay, in milliseconds.
    public var maxDelay = 20
    /// Keep the work folder (items, the scratch device root) instead of removing it.
    public var keep = false

    /// A run with `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// What a run found (`exthost stress --json`).
    public struct Summary: Codable, Sendable, Equatable {
        /// The seed, as a decimal string (a 64-bit number).
        public var seed: String
        /// Attachments shared.
        public var attachments: Int
        /// Reader processes.
        public var readers: Int
        /// Entries committed.
        public var committed: Int
        /// Attachments made to fail or be cancelled.
        public var injected: Int
        /// How long the share took, to the millisecond.
        public var seconds: Double
        /// What went wrong; empty when everything held.
        public var problems: [String]
        /// The kept work directory; null otherwise.
        public var work: String?
    }

    /// What a reader process prints (and the run reads back): the sequence numbers it saw, in
    /// order, and the torn files it read.
    public struct ReaderReport: Codable, Sendable, Equatable {
        /// Sequence numbers seen, in order.
        public var seen: [Int]
        /// Files whose bytes did not match their entry when read.
        public var torn: [String]
    }

    /// What happened before the share ran, for the caller to show: the extension stressed when
    /// nothing was installed.
    public enum Note: Sendable {
        /// Nothing was installed on the source device; exthost's generic app's extension stands in.
        case genericAppStandsIn
    }

    /// Runs the stress on a scratch copy of `source`'s installed bundles (the source device is only
    /// read; one that does not exist yet has none): generates the items, starts the readers through
    /// `programs`, shares, checks. `rootDescription` names the source device in messages as the
    /// user gave it.
    /// - Throws: ``ShareError``: `badInput` for a configuration out of range or an extension
    ///   entitled to no App Group; `failed` when the scratch folder, the items or the readers
    ///   cannot be made.
    public func run(
        source: DeviceRoot, rootDescription: String, programs: InstalledPrograms,
        note: (Note) -> Void = { _ in }
    ) async throws(ShareError) -> Summary {
        guard attachments >= 1, readers >= 0, maxSize >= 0, maxDelay >= 0,
            (0...1).contains(failureRate), (0...1).contains(cancelRate), failureRate + cancelRate <= 1
        else {
            throw ShareError(
                .badInput,
                "a stress needs attachments ≥ 1, readers ≥ 0, maxSize ≥ 0, maxDelay ≥ 0, and failure and cancel "
                    + "rates in 0…1 summing to at most 1 (got \(attachments), \(readers), \(maxSize), \(maxDelay), "
                    + "\(failureRate), \(cancelRate))")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exthost-stress-\(seed)-\(UUID().uuidString.prefix(8))")
        defer { if !keep { try? FileManager.default.removeItem(at: work) } }
        let items = work.appendingPathComponent("items")
        let device = DeviceRoot(url: work.appendingPathComponent("root"))
        do {
            try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: device.url, withIntermediateDirectories: true)
        } catch {
            throw ShareError(.failed, "cannot prepare a scratch folder \(work.path): \(error.localizedDescription)")
        }
        let sourceBundles = source.url.appendingPathComponent("Bundles")
        if FileManager.default.fileExists(atPath: sourceBundles.path) {
            do {
                try FileManager.default.copyItem(at: sourceBundles, to: device.url.appendingPathComponent("Bundles"))
            } catch {
                throw ShareError(
                    .failed,
                    "cannot copy the apps of the device root \(rootDescription) (\(sourceBundles.path)): "
                        + error.localizedDescription)
            }
        }
        var random = SplitMix64(seed: seed)
        let plans: [Plan]
        do {
            plans = try Self.makeItems(
                in: items, count: attachments, random: &random, rates: (failureRate, cancelRate), maxSize: maxSize,
                maxDelay: maxDelay)
        } catch {
            throw ShareError(.failed, "cannot write the items into \(items.path): \(error.localizedDescription)")
        }
        let bundle: URL
        if let first = device.bundleURLs().first(where: { $0.pathExtension == "appex" }) {
            bundle = first
        } else {
            // Nothing installed: the generic app and its share extension, in the scratch copy only.
            do {
                bundle = try GenericApp.install(on: device)
            } catch {
                throw ShareError(.failed, "cannot install the generic app into \(device.url.path): \(error)")
            }
            note(.genericAppStandsIn)
        }
        let identity: BundleIdentity
        do {
            identity = try BundleIdentity.load(bundle: bundle)
        } catch {
            throw ShareError(.badInput, "\(error)")
        }
        guard let group = identity.applicationGroups.first else {
            throw ShareError(.badInput, "\(identity.bundleIdentifier) is entitled to no App Group")
        }
        let stopFile = work.appendingPathComponent("stop").path
        let readerProcesses = try startReaders(group: group, root: device, stopFile: stopFile, programs: programs)
        defer {
            for (child, output) in readerProcesses {
                try? child.send(.kill)
                try? output.close()
            }
        }

        let started = ContinuousClock.now
        var request = ShareRequest(items: .path(items), root: device, extensionBundle: bundle, programs: programs)
        request.limits.timeout = .seconds(600)
        let shared: Result<ShareReport, ShareError>
        do {
            shared = .success(try await ExtensionHost.share(request))
        } catch {
            shared = .failure(error)
        }
        let elapsed = ContinuousClock.now - started
        _ = FileManager.default.createFile(atPath: stopFile, contents: nil)
        // Wakes the readers waiting for a commit: they look once more, see the stop file, and end.
        if let identifier = try? AppGroupIdentifier(validating: group) {
            try? AppGroupStore.commitNotification(identifier, root: device).post()
        }
        var problems: [String] = []
        var readerResults: [ReaderReport] = []
        for (child, output) in readerProcesses {
            let text = String(decoding: (try? output.readAll(limit: 64 << 20)) ?? [], as: UTF8.self)
            let status = await child.exitStatus()
            guard let result = try? JSONDecoder().decode(ReaderReport.self, from: Data(text.utf8)) else {
                problems.append("a reader ended \(status) without a result: \(text.prefix(300))")
                continue
            }
            readerResults.append(result)
        }
        let (committed, injected) = check(
            shared, plans: plans, readers: readerResults, group: group, device: device, problems: &problems)
        let seconds = elapsed.milliseconds / 1000
        return Summary(
            seed: String(seed), attachments: attachments, readers: readers, committed: committed,
            injected: injected, seconds: (seconds * 1000).rounded() / 1000, problems: problems,
            work: keep ? work.path : nil)
    }

    /// Starts the reader processes; each one's standard output and error go to the pipe returned
    /// beside it.
    private func startReaders(group: String, root: DeviceRoot, stopFile: String, programs: InstalledPrograms)
        throws(ShareError) -> [(ChildProcess, FileDescriptor)]
    {
        var children: [(ChildProcess, FileDescriptor)] = []
        for _ in 0..<readers {
            guard
                let reader = programs.invocation(
                    .stressReader, ["--group", group, "--root", root.url.path, "--stop-file", stopFile])
            else {
                throw ShareError(.failed, "the exthost executable is not installed beside \(programs.launcher)")
            }
            do throws(Errno) {
                let pipe = try FileDescriptor.pipe()
                var spawn = Spawn(executable: reader.executable, arguments: reader.arguments)
                spawn.descriptors = [1: pipe.writeEnd, 2: pipe.writeEnd]
                defer { try? pipe.writeEnd.close() }
                do throws(Errno) {
                    children.append((try ChildProcess(spawning: spawn), pipe.readEnd))
                } catch {
                    try? pipe.readEnd.close()
                    throw error
                }
            } catch {
                for (child, output) in children {
                    try? child.send(.kill)
                    try? output.close()
                }
                throw ShareError(.failed, "cannot start a reader (\(reader.executable)): \(error)")
            }
        }
        return children
    }

    /// Checks the share's report, the group's entries and the readers' results against the plans;
    /// appends what does not hold to `problems`. Returns the entries committed and the faults injected.
    private func check(
        _ shared: Result<ShareReport, ShareError>, plans: [Plan], readers readerResults: [ReaderReport],
        group: String, device: DeviceRoot, problems: inout [String]
    ) -> (committed: Int, injected: Int) {
        let report = try? shared.get()
        let rows = report?.attachments ?? []
        if report == nil || rows.count != attachments {
            let why: String =
                switch shared {
                case .success(let report): report.extension.map { "\($0.outcome): \($0.reason)" } ?? "not activated"
                case .failure(let error): error.message
                }
            problems.append("the share reported \(rows.count) of \(attachments) attachments: \(why.prefix(500))")
        }
        // A sanitizer build of the extension reports into its captured output.
        let log = report?.log ?? ""
        for marker in ["WARNING: ThreadSanitizer", "ERROR: AddressSanitizer"] where log.contains(marker) {
            problems.append("the extension's log holds a sanitizer report (\(marker)): \(log.prefix(2000))")
        }
        let store: AppGroupStore
        let entries: [JournalEntry]
        do {
            store = try AppGroupStore.recovering(try AppGroupIdentifier(validating: group), root: device)
            entries = try store.entries()
        } catch {
            problems.append("the group \(group) cannot be read: \(error)")
            return (0, plans.filter { $0.fault != .none }.count)
        }
        let byPath = Dictionary(entries.map { ($0.path.description, $0) }, uniquingKeysWith: { first, _ in first })
        var committedPaths = Set<String>()
        var injected = 0
        for (plan, row) in zip(plans, rows) {
            switch plan.fault {
            case .failure(let reason), .cancellation(let reason):
                injected += 1
                if row.error?.contains(reason) != true {
                    problems.append(
                        "\(plan.fileName): expected the injected error '\(reason)', got \(row.error ?? "success")")
                }
                if let destination = row.destination, byPath[destination] != nil {
                    problems.append("\(plan.fileName): failed on purpose but committed as \(destination)")
                }
            case .none:
                guard let destination = row.destination, let entry = byPath[destination] else {
                    problems.append("\(plan.fileName): not committed (\(row.error ?? "no destination"))")
                    continue
                }
                if !committedPaths.insert(destination).inserted {
                    problems.append("\(plan.fileName): \(destination) reported twice")
                }
                if entry.sha256 != plan.sha256 || entry.size != Int64(plan.size) {
                    problems.append("\(plan.fileName): committed \(entry.size) bytes with another SHA-256")
                }
            }
        }
        if entries.count != attachments - injected {
            problems.append("\(entries.count) entries committed, expected \(attachments - injected)")
        }
        if Set(entries.map(\.name)).count != entries.count {
            problems.append("an attachment was committed twice")
        }
        let sequences = entries.map(\.sequence)
        for (index, result) in readerResults.enumerated() {
            if result.seen != sequences {
                problems.append("reader \(index + 1) saw \(result.seen.count) entries, \(sequences.count) committed")
            }
            problems += result.torn.map { "reader \(index + 1) read a torn file: \($0)" }
        }
        switch Result(catching: { try store.verify() }) {
        case .success(let verified): if !verified.isClean { problems.append("container verify: \(verified)") }
        case .failure(let error): problems.append("container verify failed: \(error)")
        }
        return (entries.count, injected)
    }

    // MARK: - The reader

    /// A reader's loop (`exthost __stress-reader`): reads every entry of `inbox` as it is committed,
    /// checking each file against its SHA-256, sleeping until the next commit; after the pass that
    /// first sees `stopFile`, returns what it saw.
    /// - Throws: ``AppGroupError`` when the inbox cannot be read.
    public static func read(_ inbox: AppGroupInbox, until stopFile: String) throws -> ReaderReport {
        var report = ReaderReport(seen: [], torn: [])
        var last = 0
        let observer = try inbox.store.commitNotification.observe()
        defer { observer.close() }
        while true {
            let stopping = FileManager.default.fileExists(atPath: stopFile)
            for item in try inbox.pending() where item.entry.sequence > last {
                last = item.entry.sequence
                report.seen.append(item.entry.sequence)
                let bytes = (try? Data(contentsOf: item.url)).map(Array.init) ?? []
                if bytes.count != item.entry.size || SHA256.hex(of: bytes) != item.entry.sha256 {
                    report.torn.append(
                        "#\(item.entry.sequence) \(item.entry.path): \(bytes.count) of \(item.entry.size) bytes")
                }
            }
            if stopping { return report }
            // Sleeps until the next commit, or the post the run makes after the stop file.
            _ = try observer.wait(timeout: nil)
        }
    }

    // MARK: - The items

    /// What one attachment was made to be.
    struct Plan {
        enum Fault: Equatable {
            case none
            case failure(String)
            case cancellation(String)
        }
        var index: Int
        var fileName: String
        var typeIdentifier: String
        var kind: String
        var size: Int
        var delay: Int
        var fault: Fault
        var sha256: String
    }

    static let kinds: [(type: String, fileExtension: String)] = [
        ("public.png", "png"), ("public.jpeg", "jpg"), ("com.adobe.pdf", "pdf"), ("public.plain-text", "txt"),
        ("com.example.carddrop.card", "card"),
    ]

    /// Writes the attachments' files and the share.json manifest; returns what each was made to be.
    static func makeItems(
        in folder: URL, count: Int, random: inout SplitMix64, rates: (failure: Double, cancel: Double), maxSize: Int,
        maxDelay: Int
    ) throws -> [Plan] {
        var plans: [Plan] = []
        var manifestAttachments: [Any] = []
        for index in 0..<count {
            let kind = kinds[Int(random.next() % UInt64(kinds.count))]
            let representation = ["data", "file", "in-place"][Int(random.next() % 3)]
            // Mostly small files, some medium, a few at the maximum.
            let bucket = random.next() % 100
            let ceiling = bucket < 70 ? min(maxSize, 4096) : bucket < 95 ? min(maxSize, 256 << 10) : maxSize
            let size = ceiling == 0 ? 0 : Int(random.next() % UInt64(ceiling + 1))
            let delay = maxDelay == 0 ? 0 : Int(random.next() % UInt64(maxDelay + 1))
            let roll = Double(random.next() % 1_000_000) / 1_000_000
            let fault: Plan.Fault =
                roll < rates.failure
                ? .failure("injected failure #\(index)")
                : roll < rates.failure + rates.cancel ? .cancellation("injected cancellation #\(index)") : .none
            var bytes = [UInt8](repeating: 0, count: size)
            var word = random.next()
            for offset in 0..<size {
                if offset % 8 == 0 { word = random.next() }
                bytes[offset] = UInt8(truncatingIfNeeded: word >> ((offset % 8) * 8))
            }
            let fileName = "\(padded(index)).\(kind.fileExtension)"
            try Data(bytes).write(to: folder.appendingPathComponent(fileName))
            var attachment: [String: Any] = [
                "suggestedName": padded(index), "loadDelayMilliseconds": delay,
                "representations": [["type": kind.type, "kind": representation, "file": fileName]],
            ]
            switch fault {
            case .none: break
            case .failure(let reason):
                attachment["failWith"] = ["domain": "NSItemProviderErrorDomain", "code": -1000, "message": reason]
            case .cancellation(let reason):
                attachment["failWith"] = ["domain": "NSCocoaErrorDomain", "code": 3072, "message": reason]
            }
            manifestAttachments.append(attachment)
            plans.append(
                Plan(
                    index: index, fileName: fileName, typeIdentifier: kind.type, kind: representation, size: size,
                    delay: delay, fault: fault, sha256: SHA256.hex(of: bytes)))
        }
        let manifest: [String: Any] = ["items": [["title": "stress", "attachments": manifestAttachments]]]
        let data = try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: folder.appendingPathComponent("share.json"))
        return plans
    }

    /// `item-00042`.
    static func padded(_ index: Int) -> String {
        let digits = String(index)
        return "item-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same run everywhere.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
