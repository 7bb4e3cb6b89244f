// exthost-example-extension: a share extension of your own, built on ExtensionRuntime — what a
// user writes instead of exthost's built-in save-to-group extension. Run it with
//   exthost share ITEMS --extension-executable .build/debug/exthost-example-extension
//
// It loads every attachment concurrently (a task group whose child tasks run on the main actor,
// where the item providers live), reads open-in-place files between start/stop of their security
// scope, and commits one summary entry ("share-summary.txt": one line per attachment with its
// type, size and the first bytes) into its App Group, then completes the request.

import AppGroups
import ExtensionIPC
import ExtensionRuntime
import Foundation
import HostSystem
import ItemProviders

/// What one attachment turned out to be (Sendable: it crosses out of the child task).
struct Summary: Sendable {
    var index: Int
    var line: String
    var outcome: AttachmentOutcome
}

@MainActor
func summarize(_ provider: ItemProvider, index: Int, environment: ExtensionRuntime.Environment) async -> Summary {
    let name = provider.suggestedName ?? "attachment-\(index)"
    guard let type = provider.registeredTypeIdentifiers.first else {
        return Summary(index: index, line: "\(name): no representation", outcome: AttachmentOutcome(attachment: index))
    }
    let start = ContinuousClock.now
    do {
        let bytes: Data
        let kind: RepresentationKind
        if provider.hasRepresentationConforming(toTypeIdentifier: type, fileOptions: .openInPlace) {
            let (url, _) = try await provider.loadInPlaceFileRepresentation(for: type)
            guard url.startAccessingSecurityScopedResource() else {
                throw ItemProviderError(.fileReadNoPermission, "the host refused the security scope of \(name)")
            }
            defer { url.stopAccessingSecurityScopedResource() }
            bytes = try SecurityScopedAccess.read(contentsOf: url)
            kind = .openInPlace
        } else {
            bytes = try await provider.withFileRepresentation(for: type) { url in try Data(contentsOf: url) }
            kind = .file
        }
        let elapsed = ContinuousClock.now - start
        let head = String(decoding: bytes.prefix(16), as: UTF8.self).replacingOccurrences(of: "\n", with: "⏎")
        return Summary(
            index: index, line: "\(name)\t\(type)\t\(bytes.count)\t\(head)",
            outcome: AttachmentOutcome(
                attachment: index, typeIdentifier: type, kind: kind, byteCount: Int64(bytes.count),
                milliseconds: elapsed.milliseconds))
    } catch {
        environment.log("\(name): \(error)", level: .error)
        return Summary(
            index: index, line: "\(name)\t\(type)\tFAILED\t\(error)",
            outcome: AttachmentOutcome(
                attachment: index, typeIdentifier: type,
                error: WireError(code: WireError.unknownError, message: "\(error)")))
    }
}

@MainActor
func handle(_ context: ExtensionContext, _ environment: ExtensionRuntime.Environment) async throws {
    let providers = context.inputItems.flatMap { $0.attachments ?? [] }
    environment.log("example extension: \(providers.count) attachment(s)")
    var summaries: [Summary] = []
    await withTaskGroup(of: Summary.self) { group in
        for (index, provider) in providers.enumerated() {
            group.addTask { @MainActor @Sendable in await summarize(provider, index: index, environment: environment) }
        }
        for await summary in group { summaries.append(summary) }
    }
    summaries.sort { $0.index < $1.index }
    let store = try environment.openGroup()
    let text = summaries.map(\.line).joined(separator: "\n") + "\n"
    let entry = try store.commit(
        name: "share-summary.txt", typeIdentifier: "public.plain-text", bytes: Array(text.utf8))
    var outcomes = summaries.map(\.outcome)
    for index in outcomes.indices where outcomes[index].error == nil {
        outcomes[index].destination = entry.path.description
    }
    environment.report(outcomes)
    context.completeRequest(returningItems: nil)
}

let status = await ExtensionRuntime.main(name: "exthost-example-extension") { context, environment in
    try await handle(context, environment)
}
exit(status)
