import AppGroups
import ExtensionIPC
import Foundation
import HostSystem
public import ItemProviders

/// The built-in share extension ("save to group"): every attachment into the App Group container.
///
/// All attachments load concurrently in one task group whose child tasks run on the main actor
/// (the providers are not Sendable and never leave it; only the Sendable outcomes cross). For each
/// it picks the data representation for text and URLs and the file representation for everything
/// else, writes the result into a staged file of the group container, then commits every staged
/// entry in one batch (fsync, rename, directory fsync, journal append, commit notification) and
/// completes the request with one outcome per attachment.
public enum SaveToGroupExtension {
    /// Runs the extension on `context` (what `exthost __extension` does).
    /// - Throws: when the group cannot be opened (the request is then cancelled with that error).
    @MainActor
    public static func run(_ context: ExtensionContext) async throws {
        guard let environment = ExtensionRuntime.current else {
            throw ItemProviderError(.unknown, "SaveToGroupExtension runs inside ExtensionRuntime.main")
        }
        let store = try environment.openGroup()
        let providers = context.inputItems.flatMap { $0.attachments ?? [] }
        let staging = Staging()
        var outcomes: [AttachmentOutcome] = []
        await withTaskGroup(of: AttachmentOutcome.self) { group in
            for (index, provider) in providers.enumerated() {
                group.addTask { @MainActor @Sendable in
                    await stage(provider, index: index, store: store, staging: staging)
                }
            }
            for await outcome in group { outcomes.append(outcome) }
        }
        outcomes.sort { $0.attachment < $1.attachment }
        let staged = staging.writers.sorted { $0.key < $1.key }
        do {
            let entries = try store.commit(staged.map(\.value))
            for (position, (index, _)) in staged.enumerated() where position < entries.count {
                if let at = outcomes.firstIndex(where: { $0.attachment == index }) {
                    outcomes[at].destination = entries[position].path.description
                }
            }
        } catch {
            for (index, _) in staged {
                if let at = outcomes.firstIndex(where: { $0.attachment == index }) {
                    outcomes[at].error = wireError(error)
                    outcomes[at].destination = nil
                }
            }
        }
        ExtensionRuntime.report(outcomes)
        context.completeRequest(returningItems: nil)
    }

    /// What a share extension would choose: data for text and URLs, a file for everything else.
    static func choice(for provider: ItemProvider) -> (type: String, kind: RepresentationKind)? {
        let types = provider.registeredTypeIdentifiers
        guard let first = types.first else { return nil }
        for textual in ["public.url", "public.plain-text"] where provider.hasItemConformingToTypeIdentifier(textual) {
            if let representation = provider.representation(answering: textual) {
                return (representation.typeIdentifier, .data)
            }
        }
        return (first, .file)
    }

    @MainActor
    static func stage(_ provider: ItemProvider, index: Int, store: AppGroupStore, staging: Staging) async
        -> AttachmentOutcome
    {
        let start = ContinuousClock.now
        var outcome = AttachmentOutcome(attachment: index)
        func elapsed() -> Double {
            let duration = ContinuousClock.now - start
            return Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
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
                ExtensionRuntime.activity("loading data representation of \(name) (\(type))")
                let data = try await provider.loadDataRepresentation(for: type)
                let writer = try store.makeEntry(name: name, typeIdentifier: type)
                try writer.write([UInt8](data))
                outcome.byteCount = Int64(data.count)
                staging.writers[index] = writer
            case .file, .openInPlace:
                ExtensionRuntime.activity("loading file representation of \(name) (\(type))")
                // The temporary copy goes away when the body returns; an open descriptor keeps it.
                let (descriptor, fileName) = try await provider.withFileRepresentation(for: type) { url in
                    (try FileDescriptor.open(url.path), url.lastPathComponent)
                }
                defer { try? descriptor.close() }
                let writer = try store.makeEntry(name: fileName, typeIdentifier: type)
                try writer.copy(from: descriptor)
                outcome.byteCount = try descriptor.status().size
                staging.writers[index] = writer
            }
        } catch {
            outcome.error = wireError(error)
        }
        outcome.milliseconds = elapsed()
        return outcome
    }
}

/// The staged entries, by attachment index; main-actor isolated like the providers.
@MainActor
final class Staging {
    var writers: [Int: EntryWriter] = [:]
}
