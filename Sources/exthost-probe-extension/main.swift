// exthost-probe-extension: a share extension written only against Apple's names (Foundation and
// UniformTypeIdentifiers), as it would be for iOS. For every attachment it loads the first
// registered type with the legacy loadItem and prints what the item is — the class a device
// returns — one line per attachment:
//   PROBE <index> <type> <url|file-url|string|data|dictionary|attributed-string|image|other:<class>|error:<domain> <code>>
// The tests run it through `exthost share` for every payload preset.

import Foundation
import UniformTypeIdentifiers

final class ProbeHandler: NSObject, NSExtensionRequestHandling {
    func beginRequest(with context: NSExtensionContext) {
        let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
        let providers = items.flatMap { $0.attachments ?? [] }
        Task { @MainActor in
            for (index, provider) in providers.enumerated() {
                guard let type = provider.registeredTypeIdentifiers.first else {
                    print("PROBE \(index) - none")
                    continue
                }
                do {
                    let item = try await provider.loadItem(forTypeIdentifier: type)
                    print("PROBE \(index) \(type) \(Self.kind(of: item))")
                } catch {
                    let error = error as NSError
                    print("PROBE \(index) \(type) error:\(error.domain) \(error.code)")
                }
            }
            context.completeRequest(returningItems: nil)
        }
    }

    static func kind(of item: Any) -> String {
        if let url = item as? URL { return url.isFileURL ? "file-url" : "url" }
        if item is String { return "string" }
        if item is Data { return "data" }
        if item is [String: Any] { return "dictionary" }
        if item is NSAttributedString { return "attributed-string" }
        if item is UIImage { return "image" }
        return "other:\(type(of: item))"
    }
}

exit(NSExtensionMain(ProbeHandler.self))
