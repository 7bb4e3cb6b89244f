import AppGroups
import ExtensionHost
import Foundation
import HostSystem

/// `exthost stress`: one share of many generated attachments — sizes, representation kinds, types,
/// load delays, injected failures and cancellations all drawn from a printed seed — while reader
/// processes read the inbox; then every attachment must be committed exactly once with the right
/// bytes, or reported failed for the injected reason.
enum StressCommand {
    static var all: [CommandSpec] { [stress, reader] }

    static let readerName = InstalledPrograms.Role.stressReader.rawValue

    /// `exthost stress --json`.
    struct Summary: Codable, Sendable, Equatable {
        /// The seed, as a decimal string (a 64-bit number).
        var seed: String
        var attachments: Int
        var readers: Int
        /// Entries committed.
        var committed: Int
        /// Attachments made to fail or be cancelled.
        var injected: Int
        /// How long the share took, to the millisecond.
        var seconds: Double
        /// What went wrong; empty when everything held.
        var problems: [String]
        /// The kept work directory (`--keep`); null otherwise.
        var work: String?
    }

    /// What a reader process prints (and `stress` reads back): the sequence numbers it saw, in
    /// order, and the torn files it read.
    struct ReaderReport: Codable, Sendable, Equatable {
        var seen: [Int]
        var torn: [String]
    }

    static let stress = CommandSpec(
        ["stress"], summary: "Share N generated attachments while M readers read the inbox; check nothing is lost.",
        options: [
            .value(.attachments, "N", "How many attachments (default 200)."),
            .value(.readers, "M", "How many reader processes (default 2)."),
            .value(.seed, "S", "The seed (default: random; printed, so a run can be replayed)."),
            .value(.failureRate, "R", "The share of attachments whose load fails on purpose (default 0.05)."),
            .value(.cancelRate, "R", "The share whose load is cancelled on purpose (default 0.03)."),
            .value(.maxSize, "BYTES", "The largest attachment (default 2 MiB)."),
            .value(.maxDelay, "MS", "The longest load delay (default 20)."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.keep, "Keep the work directory (items, device root) and print where it is."),
            .flag(.json, "Print one JSON summary."),
        ],
        discussion: """
            Builds a folder with a share.json manifest of one extension item with N attachments: each a data,
            file or open-in-place representation of an image, PDF, text or card, of 0 bytes to --max-size,
            with a load delay, and — drawn from the seed — an injected load failure (NSItemProviderErrorDomain
            -1000) or cancellation (NSCocoaErrorDomain 3072). It copies <root>/Bundles into a scratch device
            root; the extension is the first .appex installed there (exthost's generic one when none is) and the
            group the first App Group its entitlements name (neither is fixed in exthost). It starts M reader processes that read every
            committed entry as it appears (checking each file against its SHA-256), shares the folder with
            that extension as 'exthost share' does (its own program, else the built-in save-to-group), and
            checks:
            every attachment without an injected fault committed exactly once with the right bytes; every
            injected one reported failed with its reason and not committed; no other entry; every reader saw
            every committed entry exactly once and never a torn file; 'container verify' clean.
            Exit 0 when all holds, 1 when something was lost, duplicated, torn or misreported, 2 bad usage.
            """,
        examples: ["exthost stress --attachments 20"]
    ) { parsed, context in
        try await run(parsed, context)
    }

    static let reader = CommandSpec(
        [readerName], summary: "A stress reader (started by 'exthost stress').",
        options: [
            .value(.group, "GROUP", "The group."), ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .value(.stopFile, "PATH", "Stop after the pass that first sees this file."),
        ]
    ) { parsed, context in
        guard let groupText = parsed[.group], let stopFile = parsed[.stopFile] else {
            throw CommandError.usage("\(readerName) needs --group and --stop-file")
        }
        let group = try ContainerSupport.group(groupText)
        let root = try ContainerSupport.root(parsed, context)
        let app = try ContainerSupport.appIdentity(for: group, root: root, parsed, context)
        let inbox = try ContainerSupport.mapped { try AppGroupInbox(group: group, app: app, root: root) }
        var seen: [Int] = []
        var torn: [String] = []
        var last = 0
        let observer = try ContainerSupport.mapped { try inbox.store.commitNotification.observe() }
        defer { observer.close() }
        while true {
            let stopping = FileManager.default.fileExists(atPath: stopFile)
            let items = try ContainerSupport.mapped { try inbox.pending() }
            for item in items where item.entry.sequence > last {
                last = item.entry.sequence
                seen.append(item.entry.sequence)
                let bytes = (try? Data(contentsOf: item.url)).map(Array.init) ?? []
                if bytes.count != item.entry.size || SHA256.hex(of: bytes) != item.entry.sha256 {
                    torn.append(
                        "#\(item.entry.sequence) \(item.entry.path): \(bytes.count) of \(item.entry.size) bytes")
                }
            }
            if stopping { break }
            // Sleeps until the next commit, or the post 'exthost stress' makes after the stop file.
            _ = try ContainerSupport.mapped { try observer.wait(timeout: nil) }
        }
        try context.printJSON(encoding: ReaderReport(seen: seen, torn: torn))
        return .success
    }

    // MARK: - The run

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

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let count = try parsed.value(.attachments) ?? 200
        let readers = try parsed.value(.readers) ?? 2
        let failureRate = try parsed.value(.failureRate) ?? 0.05
        let cancelRate = try parsed.value(.cancelRate) ?? 0.03
        let maxSize = try parsed.value(.maxSize) ?? 2 << 20
        let maxDelay = try parsed.value(.maxDelay) ?? 20
        guard count >= 1, readers >= 0, maxSize >= 0, maxDelay >= 0,
            (0...1).contains(failureRate), (0...1).contains(cancelRate), failureRate + cancelRate <= 1
        else {
            throw CommandError.usage(
                "--attachments ≥ 1, --readers ≥ 0, --max-size ≥ 0, --max-delay ≥ 0, rates in 0…1 summing to at most 1")
        }
        let seed: UInt64
        if let text = parsed[.seed] {
            guard let value = UInt64(text) else { throw CommandError.usage("--seed must be a whole number ≥ 0") }
            seed = value
        } else {
            seed = UInt64.random(in: 0...UInt64(UInt32.max))
        }
        var random = SplitMix64(seed: seed)
        let sourceRoot = try ContainerSupport.root(parsed, context)
        // An explicit --root that does not exist is a mistake worth naming (stress only reads it);
        // the default device, even empty, is fine: the generic app stands in, as for 'exthost share'.
        if let given = parsed[.root] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sourceRoot.url.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw CommandError.input(
                    "--root \(given): no such device root (\(sourceRoot.url.path) is not a folder); "
                        + "make one with 'exthost device create NAME', or leave --root out for the default device")
            }
        }
        let sourceBundles = sourceRoot.url.appendingPathComponent("Bundles")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exthost-stress-\(seed)-\(UUID().uuidString.prefix(8))")
        let items = work.appendingPathComponent("items")
        let root = work.appendingPathComponent("root")
        defer {
            if !parsed[.keep] { try? FileManager.default.removeItem(at: work) }
        }
        do {
            try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        } catch {
            throw CommandError.failed("cannot prepare a scratch folder \(work.path): \(error.localizedDescription)")
        }
        if FileManager.default.fileExists(atPath: sourceBundles.path) {
            do {
                try FileManager.default.copyItem(at: sourceBundles, to: root.appendingPathComponent("Bundles"))
            } catch {
                throw CommandError.failed(
                    "cannot copy the apps of the device root \(parsed[.root] ?? sourceRoot.url.path) "
                        + "(\(sourceBundles.path)): \(error.localizedDescription)")
            }
        }
        if !parsed[.json] {
            context.print("stress: seed \(seed), \(count) attachments, \(readers) readers (replay with --seed \(seed))")
        }
        let plans = try makeItems(
            in: items, count: count, random: &random, rates: (failureRate, cancelRate),
            maxSize: maxSize, maxDelay: maxDelay)

        let device = DeviceRoot(url: root)
        let bundle: URL
        if let first = device.bundleURLs().first(where: { $0.pathExtension == "appex" }) {
            bundle = first
        } else {
            // Nothing installed: the generic app and its share extension, in the scratch copy only.
            bundle = try ContainerSupport.mapped { try GenericApp.install(on: device) }
            if !parsed[.json] {
                context.printError(
                    "note: no extension is installed on \(sourceRoot.url.path); stressing exthost's generic app's "
                        + "share extension \(GenericApp.extensionIdentifier) (App Group \(GenericApp.group))")
            }
        }
        let identity = try ContainerSupport.mapped { try BundleIdentity.load(bundle: bundle) }
        guard let group = identity.applicationGroups.first else {
            throw CommandError.input("\(identity.bundleIdentifier) is entitled to no App Group")
        }
        let programs = try Executables.programs()
        let stopFile = work.appendingPathComponent("stop").path
        let exthost = try Executables.exthost(of: programs)
        var children: [(ChildProcess, FileDescriptor)] = []
        defer {
            for (child, output) in children {
                try? child.send(.kill)
                try? output.close()
            }
        }
        for _ in 0..<readers {
            do throws(Errno) {
                let pipe = try FileDescriptor.pipe()
                var spawn = Spawn(
                    executable: exthost,
                    arguments: [readerName, "--group", group, "--root", root.path, "--stop-file", stopFile])
                spawn.descriptors = [1: pipe.writeEnd, 2: pipe.writeEnd]
                defer { try? pipe.writeEnd.close() }
                do throws(Errno) {
                    children.append((try ChildProcess(spawning: spawn), pipe.readEnd))
                } catch {
                    try? pipe.readEnd.close()
                    throw error
                }
            } catch {
                throw CommandError.failed("cannot start a reader (\(exthost)): \(error)")
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
        var readerResults: [(seen: [Int], torn: [String])] = []
        for (child, output) in children {
            let text = String(decoding: (try? output.readAll(limit: 64 << 20)) ?? [], as: UTF8.self)
            let status = await child.exitStatus()
            guard let result = try? JSONDecoder().decode(ReaderReport.self, from: Data(text.utf8)) else {
                problems.append("a reader ended \(status) without a result: \(text.prefix(300))")
                continue
            }
            readerResults.append((result.seen, result.torn))
        }
        children.removeAll()

        let report = try? shared.get()
        let attachments = report?.attachments ?? []
        if report == nil || attachments.count != count {
            let why: String =
                switch shared {
                case .success(let report): report.extension.map { "\($0.outcome): \($0.reason)" } ?? "not activated"
                case .failure(let error): error.message
                }
            problems.append("the share reported \(attachments.count) of \(count) attachments: \(why.prefix(500))")
        }
        // A sanitizer build of the extension reports into its captured output.
        let log = report?.log ?? ""
        for marker in ["WARNING: ThreadSanitizer", "ERROR: AddressSanitizer"] where log.contains(marker) {
            problems.append("the extension's log holds a sanitizer report (\(marker)): \(log.prefix(2000))")
        }
        let store = try ContainerSupport.mapped {
            try AppGroupStore.recovering(try ContainerSupport.group(group), root: device)
        }
        let entries = try ContainerSupport.mapped { try store.entries() }
        let byPath = Dictionary(entries.map { ($0.path.description, $0) }, uniquingKeysWith: { first, _ in first })
        var committedPaths = Set<String>()
        var injected = 0
        for (plan, row) in zip(plans, attachments) {
            let error = row.error
            let destination = row.destination
            switch plan.fault {
            case .failure(let reason), .cancellation(let reason):
                injected += 1
                if error?.contains(reason) != true {
                    problems.append(
                        "\(plan.fileName): expected the injected error '\(reason)', got \(error ?? "success")")
                }
                if let destination, byPath[destination] != nil {
                    problems.append("\(plan.fileName): failed on purpose but committed as \(destination)")
                }
            case .none:
                guard let destination, let entry = byPath[destination] else {
                    problems.append("\(plan.fileName): not committed (\(error ?? "no destination"))")
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
        if entries.count != count - injected {
            problems.append("\(entries.count) entries committed, expected \(count - injected)")
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
        let verified = try ContainerSupport.mapped { try store.verify() }
        if !verified.isClean { problems.append("container verify: \(verified)") }

        let seconds = elapsed.milliseconds / 1000
        if parsed[.json] {
            try context.printJSON(
                encoding: Summary(
                    seed: String(seed), attachments: count, readers: readers, committed: entries.count,
                    injected: injected, seconds: (seconds * 1000).rounded() / 1000, problems: problems,
                    work: parsed[.keep] ? work.path : nil))
        } else {
            context.print(
                "stress: \(entries.count) committed exactly once, \(injected) failed on purpose and reported, "
                    + "\(readerResults.count) readers saw every entry, share took \((seconds * 100).rounded() / 100) s")
            if parsed[.keep] { context.print("stress: kept \(work.path)") }
            for problem in problems { context.printError("stress: \(problem)") }
            context.print(
                problems.isEmpty ? "stress: OK (seed \(seed))" : "stress: \(problems.count) problems (seed \(seed))")
        }
        return problems.isEmpty ? .success : .failure
    }

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
            do {
                try Data(bytes).write(to: folder.appendingPathComponent(fileName))
            } catch {
                throw CommandError.failed("cannot write \(fileName): \(error.localizedDescription)")
            }
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
        do {
            let data = try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: folder.appendingPathComponent("share.json"))
        } catch {
            throw CommandError.failed("cannot write share.json: \(error.localizedDescription)")
        }
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
