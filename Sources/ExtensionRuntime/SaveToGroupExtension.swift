import AppGroups
import ExtensionIPC
import Foundation
import HostSystem
public import ItemProviders

/// The built-in share extension ("save to group"): every attachment into the App Group container.
///
/// The attachments load concurrently in one task group whose child tasks run on the main actor
/// (the providers are not Sendable and never leave it; only the Sendable outcomes cross), a
/// sliding window of at most ``maximumConcurrentLoads`` loads, ``maximumConcurrentFileLoads`` of
/// them file loads. For each it picks the data representation for text and URLs registered as
/// data and the file representation for everything else and writes the result into a staged file
/// of the group container. Staged entries are committed in batches of ``batchSize`` (64), each
/// batch one commit (fsync, rename, directory fsync, journal append, commit notification), the
/// last batch when every load has finished; the request then completes with one outcome per
/// attachment.
public enum SaveToGroupExtension {
    /// Runs the extension on `context` (what `exthost-builtin-extension __extension` does).
    /// - Throws: when the group cannot be opened (the request is then cancelled with that error).
    @MainActor
    public static func run(_ context: ExtensionContext, _ environment: ExtensionRuntime.Environment) async throws {
        let store = try environment.openGroup()
        let providers = context.inputItems.flatMap { $0.attachments ?? [] }
        let staging = Staging(store: store, batchSize: batchSize)
        let started = ContinuousClock.now
        // Outcomes whose entry is staged but not yet committed wait here; each is reported as soon
        // as its batch is committed (or fails), so no per-attachment state outlives its batch.
        var waiting: [Int: AttachmentOutcome] = [:]
        func reportSettled() {
            var settled: [AttachmentOutcome] = []
            for (attachment, outcome) in waiting {
                var outcome = outcome
                if let error = staging.takeFailure(attachment) {
                    outcome.error = error
                } else if let destination = staging.takeDestination(attachment) {
                    outcome.destination = destination
                } else {
                    continue
                }
                settled.append(outcome)
                waiting[attachment] = nil
            }
            if !settled.isEmpty { environment.report(settled.sorted { $0.attachment < $1.attachment }) }
        }
        await withTaskGroup(of: AttachmentOutcome.self) { group in
            // A sliding window: the next load starts as soon as one finishes; file loads (which
            // hold descriptors) have a smaller window than data loads. A provider is looked at only
            // when its turn comes (a lightweight one of a paged context is filled then), and only
            // the loads in flight are remembered.
            var kinds: [Int: RepresentationKind] = [:]
            var nextKind: RepresentationKind?
            var next = 0
            var inFlight = 0
            var filesInFlight = 0
            var commits = 0
            while true {
                while next < providers.count, inFlight < maximumConcurrentLoads {
                    let kind = nextKind ?? choice(for: providers[next])?.kind ?? .data
                    guard kind == .data || filesInFlight < maximumConcurrentFileLoads else {
                        nextKind = kind
                        break
                    }
                    nextKind = nil
                    let provider = providers[next]
                    let index = next
                    group.addTask { @MainActor @Sendable in
                        await stage(provider, index: index, staging: staging, environment: environment)
                    }
                    inFlight += 1
                    kinds[index] = kind
                    if kind != .data { filesInFlight += 1 }
                    next += 1
                }
                guard let outcome = await group.next() else { break }
                inFlight -= 1
                if kinds.removeValue(forKey: outcome.attachment) != .data { filesInFlight -= 1 }
                if outcome.error != nil {
                    environment.report([outcome])
                } else {
                    waiting[outcome.attachment] = outcome
                }
                if staging.commits != commits {
                    commits = staging.commits
                    reportSettled()
                }
            }
        }
        staging.flush()
        reportSettled()
        if !waiting.isEmpty { environment.report(waiting.values.sorted { $0.attachment < $1.attachment }) }
        let loading = ContinuousClock.now - started - staging.commitTime
        environment.log(
            "save-to-group: \(providers.count) attachment(s) loaded in \(milliseconds(loading)) ms, "
                + "committed in \(staging.commits) batch(es) taking \(milliseconds(staging.commitTime)) ms; "
                + "\(staging.moved) file(s) moved into the group, not copied, "
                + "\(staging.digestedWhileCopied) committed with the digest made while copying, not read again")
        context.completeRequest(returningItems: nil)
    }

    /// How many attachments load at once.
    public static let maximumConcurrentLoads = 512
    /// How many file representations load at once: each holds a few descriptors (the one received
    /// from the host, the temporary copy, the staged entry), and the extension's open-file limit
    /// is 256 by default.
    public static let maximumConcurrentFileLoads = 48
    /// How many staged entries are committed together (one journal append and fsync per batch).
    public static let batchSize = 64

    /// What a share extension would choose: data for text and URLs the host registered as data
    /// (strings, links), a file for everything else — a `.txt` the Files app shares is a file.
    static func choice(for provider: ItemProvider) -> (type: String, kind: RepresentationKind)? {
        let types = provider.registeredTypeIdentifiers
        guard let first = types.first else { return nil }
        for textual in ["public.url", "public.plain-text"] where provider.hasItemConformingToTypeIdentifier(textual) {
            if let representation = provider.representation(answering: textual), !representation.kind.isFileBacked {
                return (representation.typeIdentifier, .data)
            }
        }
        return (first, .file)
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration.milliseconds)
    }

    @MainActor
    static func stage(
        _ provider: ItemProvider, index: Int, staging: Staging, environment: ExtensionRuntime.Environment
    ) async -> AttachmentOutcome {
        let start = ContinuousClock.now
        var outcome = AttachmentOutcome(attachment: index)
        func elapsed() -> Double { (ContinuousClock.now - start).milliseconds }
        guard let (type, kind) = choice(for: provider) else {
            outcome.error = WireError(code: WireError.itemUnavailable, message: "the attachment has no representation")
            return outcome
        }
        outcome.typeIdentifier = type
        outcome.kind = kind
        let name = provider.suggestedName ?? "attachment-\(index)"
        do {
            switch kind {
            case .data:
                environment.activity("loading data representation of \(name) (\(type))")
                let data = try await provider.loadDataRepresentation(for: type)
                let writer = try staging.store.makeEntry(name: name, typeIdentifier: type)
                try writer.write([UInt8](data))
                outcome.byteCount = Int64(data.count)
                staging.add(index, writer, moved: false)
            case .file, .openInPlace:
                environment.activity("loading file representation of \(name) (\(type))")
                // The temporary copy goes away when the body returns. A copy made for this load is
                // moved into the group before then, as an iOS extension may move the file it was
                // given (no second copy of its bytes); an in-place original, or a copy on another
                // file system, is kept open by a descriptor and copied after.
                let movable = kind == .file
                let loaded = try await provider.withFileRepresentation(for: type) { url in
                    try await MainActor.run { () throws -> LoadedFile in
                        if movable,
                            let writer = try staging.store.makeEntry(
                                name: url.lastPathComponent, typeIdentifier: type, movingFileAt: url)
                        {
                            let size = try writer.size()
                            staging.add(index, writer, moved: true)
                            return .moved(bytes: size)
                        }
                        return .opened(try FileDescriptor.open(url.path), name: url.lastPathComponent)
                    }
                }
                switch loaded {
                case .moved(let bytes):
                    outcome.byteCount = bytes
                case .opened(let descriptor, let fileName):
                    defer { try? descriptor.close() }
                    let writer = try staging.store.makeEntry(name: fileName, typeIdentifier: type)
                    try writer.copy(from: descriptor)
                    outcome.byteCount = try descriptor.status().size
                    staging.add(index, writer, moved: false)
                }
            }
        } catch {
            outcome.error = wireError(error)
        }
        outcome.milliseconds = elapsed()
        return outcome
    }
}

/// What a file load left: the temporary copy moved into the group, or a descriptor to copy from.
private enum LoadedFile: Sendable {
    case moved(bytes: Int64)
    case opened(FileDescriptor, name: String)
}

/// The staged entries, committed in batches (a staged entry holds an open descriptor until its
/// commit); main-actor isolated like the providers.
@MainActor
final class Staging {
    let store: AppGroupStore
    let batchSize: Int
    private var pending: [(index: Int, writer: EntryWriter)] = []
    /// Time spent committing, and how many batches.
    private(set) var commitTime = Duration.zero
    private(set) var commits = 0
    /// Where each committed attachment went, relative to the group container, until it is reported.
    private var destinations: [Int: String] = [:]
    /// Attachments whose batch could not be committed, until they are reported.
    private var failures: [Int: WireError] = [:]

    /// Where `attachment` went, once its batch is committed (and forgets it).
    func takeDestination(_ attachment: Int) -> String? { destinations.removeValue(forKey: attachment) }

    /// Why `attachment`'s batch could not be committed, if it could not (and forgets it).
    func takeFailure(_ attachment: Int) -> WireError? { failures.removeValue(forKey: attachment) }

    init(store: AppGroupStore, batchSize: Int) {
        self.store = store
        self.batchSize = batchSize
    }

    /// How many files were moved into the group rather than copied.
    private(set) var moved = 0
    /// How many committed files kept the digest the loader made while copying them (not hashed again).
    private(set) var digestedWhileCopied = 0

    func add(_ index: Int, _ writer: EntryWriter, moved: Bool) {
        if moved { self.moved += 1 }
        pending.append((index, writer))
        if pending.count >= batchSize { flush() }
    }

    /// Commits what is staged: fsync each file, rename into place, fsync the directory, append
    /// and fsync the journal records, post the notification.
    func flush() {
        guard !pending.isEmpty else { return }
        let start = ContinuousClock.now
        defer {
            commitTime += ContinuousClock.now - start
            commits += 1
        }
        let batch = pending
        pending = []
        do {
            let entries = try store.commit(batch.map(\.writer))
            digestedWhileCopied += batch.count(where: { !$0.writer.wasHashedAtCommit })
            for (position, staged) in batch.enumerated() where position < entries.count {
                destinations[staged.index] = entries[position].path.description
            }
        } catch {
            for staged in batch { failures[staged.index] = wireError(error) }
        }
    }
}
