import Foundation
import UniformTypeIdentifiers

/// The share extension: every shared link, text and file goes into the App Group's `Shared/`
/// folder, and the names of what it saved into the group's defaults — the code you would write
/// for iOS.
final class ShareHandler: NSObject, NSExtensionRequestHandling {
    static let group = "group.com.example.MyApp"

    func beginRequest(with context: NSExtensionContext) {
        let providers = (context.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        Task { @MainActor in
            // Every attachment loads at once; the request completes only when all have finished.
            let saved = await withTaskGroup(of: String?.self) { group in
                for provider in providers {
                    group.addTask { @MainActor @Sendable in await Self.save(provider) }
                }
                var names: [String] = []
                for await name in group {
                    if let name { names.append(name) }
                }
                return names.sorted()
            }
            UserDefaults(suiteName: Self.group)?.set(saved, forKey: "lastShare")
            context.completeRequest(returningItems: nil, completionHandler: nil)
        }
    }

    /// Saves one attachment; returns the file name it was saved under.
    @MainActor
    static func save(_ provider: NSItemProvider) async -> String? {
        guard
            let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?
                .appendingPathComponent("Shared", isDirectory: true)
        else { return nil }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A web link arrives as a URL object.
        if provider.hasItemConformingToTypeIdentifier(UTType.url.identifier),
            !provider.hasItemConformingToTypeIdentifier(UTType.fileURL.identifier)
        {
            guard let url = try? await provider.loadItem(forTypeIdentifier: UTType.url.identifier) as? URL else {
                return nil
            }
            let name = (url.host ?? "link") + ".url"
            try? Data("[InternetShortcut]\nURL=\(url.absoluteString)\n".utf8).write(
                to: folder.appendingPathComponent(name), options: .atomic)
            return name
        }
        // Anything else as a file. The temporary file is deleted when the handler returns: copy it
        // inside the handler.
        guard let type = provider.registeredContentTypes.first else { return nil }
        let suggested = provider.suggestedName
        return await withCheckedContinuation { continuation in
            _ = provider.loadFileRepresentation(for: type) { url, _, _ in
                guard let url else { return continuation.resume(returning: nil) }
                let name = suggested ?? url.lastPathComponent
                let target = folder.appendingPathComponent(name)
                try? FileManager.default.removeItem(at: target)
                do {
                    try FileManager.default.copyItem(at: url, to: target)
                    continuation.resume(returning: name)
                } catch {
                    continuation.resume(returning: nil)
                }
            }
        }
    }
}
