import Foundation
import UniformTypeIdentifiers

/// A share extension without a user interface, as Xcode shapes a non-UI extension: an `NSObject`
/// adopting `NSExtensionRequestHandling`, named by `NSExtensionPrincipalClass` in the extension's
/// Info.plist (`$(PRODUCT_MODULE_NAME).ShareRequestHandler`) and made with `init()`. Every shared
/// link goes into the App Group as a `.url` file, every other item as a copy of its file; the names
/// go into the group's defaults.
class ShareRequestHandler: NSObject, NSExtensionRequestHandling {
    let group = "group.com.example.MyApp"

    func beginRequest(with context: NSExtensionContext) {
        guard
            let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)?
                .appendingPathComponent("Shared", isDirectory: true)
        else {
            context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSFileNoSuchFileError))
            return
        }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let providers = (context.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        var saved: [String] = []
        let loads = DispatchGroup()
        for provider in providers {
            if provider.hasItemConformingToTypeIdentifier(UTType.url.identifier),
                !provider.hasItemConformingToTypeIdentifier(UTType.fileURL.identifier)
            {
                // A web link arrives as a URL object.
                loads.enter()
                provider.loadItem(forTypeIdentifier: UTType.url.identifier, options: nil) { item, _ in
                    if let url = item as? URL {
                        let name = (url.host ?? "link") + ".url"
                        try? Data("[InternetShortcut]\nURL=\(url.absoluteString)\n".utf8).write(
                            to: folder.appendingPathComponent(name), options: .atomic)
                        DispatchQueue.main.async { saved.append(name) }
                    }
                    DispatchQueue.main.async { loads.leave() }
                }
            } else if let type = provider.registeredTypeIdentifiers.first {
                // Anything else as a file: the temporary copy is deleted when the handler returns.
                let suggested = provider.suggestedName
                loads.enter()
                _ = provider.loadFileRepresentation(forTypeIdentifier: type) { url, _ in
                    var name: String?
                    if let url {
                        let target = folder.appendingPathComponent(suggested ?? url.lastPathComponent)
                        try? FileManager.default.removeItem(at: target)
                        if (try? FileManager.default.copyItem(at: url, to: target)) != nil { name = target.lastPathComponent }
                    }
                    DispatchQueue.main.async {
                        if let name { saved.append(name) }
                        loads.leave()
                    }
                }
            }
        }
        loads.notify(queue: .main) {
            UserDefaults(suiteName: self.group)?.set(saved.sorted(), forKey: "lastShare")
            context.completeRequest(returningItems: nil, completionHandler: nil)
        }
    }
}
