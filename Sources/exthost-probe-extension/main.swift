// exthost-probe-extension: a share extension written only against Apple's names (Foundation,
// UniformTypeIdentifiers and UIKit), as it would be for iOS. The tests run it through the real pipeline.
//
// Modes (first argument; when installed with none, its bundle's ProbeMode Info.plist key):
//   (none)          for every attachment, load the first registered type with the legacy loadItem and
//                   print what the item is — the class a device returns — one line per attachment:
//                   PROBE <index> <type> <url|file-url|string|data|dictionary|attributed-string|image|
//                   other:<class>|error:<domain> <code>>
//   early           start every load, then complete the request at once (the loads are abandoned)
//   twice           load everything, then complete the request twice
//   never           load everything and never complete the request
//   last-finisher   complete the request from the completion handler of the last attachment, keeping
//                   what finished before it: right only when loads finish in the order they started
//   url-cast        keep only items that cast `as? URL` (what code written for files does)
//   in-place        load the first attachment in place and read it with Data(contentsOf:) and fopen, without
//                   calling startAccessingSecurityScopedResource()
//   in-place-scoped the same between start and stop, appending a line to the original; then reads again
//                   after the stop
//   action          an action extension: loads the first attachment's text, and returns it upper-cased
//                   as a new item (title "Uppercased") with completeRequest(returningItems:)
//   (more in FidelityModes.swift: bundle, file-names, file-url, links, and the ends of a request)

import Foundation
import UniformTypeIdentifiers

@MainActor
final class ProbeHandler: NSObject, @preconcurrency NSExtensionRequestHandling {
    /// The first argument; installed in a bundle (a device passes no arguments), the bundle's
    /// `ProbeMode` Info.plist key, read through Bundle.main as iOS code reads its own keys.
    static let mode =
        CommandLine.arguments.dropFirst().first ?? Bundle.main.object(forInfoDictionaryKey: "ProbeMode") as? String
        ?? "classes"

    func beginRequest(with context: NSExtensionContext) {
        let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
        let providers = items.flatMap { $0.attachments ?? [] }
        if runFidelityMode(context, providers) { return }
        switch Self.mode {
        case "early":
            for provider in providers {
                guard let type = provider.registeredTypeIdentifiers.first else { continue }
                _ = provider.loadDataRepresentation(forTypeIdentifier: type) { _, _ in }
            }
            context.completeRequest(returningItems: nil, completionHandler: nil)
        case "last-finisher":
            let collected = Collected()
            let total = providers.count
            for (index, provider) in providers.enumerated() {
                guard let type = provider.registeredTypeIdentifiers.first else { continue }
                let isLast = index == providers.count - 1
                _ = provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
                    let count = collected.add(data?.count ?? 0)
                    if isLast {
                        say("PROBE completed with \(count) of \(total)")
                        context.completeRequest(returningItems: nil, completionHandler: nil)
                    }
                }
            }
        case "action":
            guard
                let provider = providers.first(where: {
                    $0.hasItemConformingToTypeIdentifier(UTType.plainText.identifier)
                })
            else {
                context.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
                return
            }
            _ = provider.loadObject(ofClass: String.self) { text, error in
                guard let text else {
                    context.cancelRequest(
                        withError: error ?? NSError(domain: NSCocoaErrorDomain, code: NSFileReadUnknownError))
                    return
                }
                let item = NSExtensionItem()
                item.attributedTitle = NSAttributedString(string: "Uppercased")
                item.attachments = [
                    NSItemProvider(item: text.uppercased() as NSString, typeIdentifier: UTType.plainText.identifier)
                ]
                context.completeRequest(returningItems: [item], completionHandler: nil)
            }
        case "in-place", "in-place-scoped":
            guard let provider = providers.first, let type = provider.registeredTypeIdentifiers.first else {
                context.completeRequest(returningItems: nil, completionHandler: nil)
                return
            }
            let scoped = Self.mode == "in-place-scoped"
            _ = provider.loadInPlaceFileRepresentation(forTypeIdentifier: type) { url, inPlace, error in
                guard let url else {
                    say("PROBE in-place load failed: \(String(describing: error))")
                    context.completeRequest(returningItems: nil, completionHandler: nil)
                    return
                }
                say("PROBE in-place \(inPlace) \(url.path)")
                let started = scoped ? url.startAccessingSecurityScopedResource() : false
                say("PROBE started \(started)")
                Self.read(url, "during")
                if started {
                    if let handle = try? FileHandle(forUpdating: url) {
                        _ = try? handle.seekToEnd()
                        try? handle.write(contentsOf: Data("edited in place\n".utf8))
                        try? handle.close()
                        say("PROBE wrote")
                    } else {
                        say("PROBE write failed")
                    }
                    url.stopAccessingSecurityScopedResource()
                    Self.read(url, "after-stop")
                }
                context.completeRequest(returningItems: nil, completionHandler: nil)
            }
        default:
            Task { @MainActor in
                for (index, provider) in providers.enumerated() {
                    guard let type = provider.registeredTypeIdentifiers.first else {
                        say("PROBE \(index) - none")
                        continue
                    }
                    do {
                        let item = try await provider.loadItem(forTypeIdentifier: type)
                        if Self.mode == "url-cast" {
                            if let url = item as? URL { say("PROBE \(index) kept \(url.lastPathComponent)") }
                            continue
                        }
                        say("PROBE \(index) \(type) \(Self.kind(of: item))")
                    } catch {
                        let error = error as NSError
                        say("PROBE \(index) \(type) error:\(error.domain) \(error.code)")
                    }
                }
                switch Self.mode {
                case "never": return
                case "twice":
                    context.completeRequest(returningItems: nil, completionHandler: nil)
                    context.completeRequest(returningItems: nil, completionHandler: nil)
                default: context.completeRequest(returningItems: nil, completionHandler: nil)
                }
            }
        }
    }

    /// Reads `url` with Foundation and with C's `fopen`, printing what each got.
    nonisolated static func read(_ url: URL, _ when: String) {
        do {
            let data = try Data(contentsOf: url)
            say("PROBE \(when) foundation read \(data.count) bytes")
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            say("PROBE \(when) foundation failed \(underlying?.code ?? (error as NSError).code)")
        }
        if let file = fopen(url.path, "r") {
            fclose(file)
            say("PROBE \(when) fopen ok")
        } else {
            say("PROBE \(when) fopen errno \(errno)")
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

/// One line to standard output, unbuffered: it reaches the report even if the process is killed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// What the completion handlers collected (they run on background queues).
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one finished load; returns how many have finished.
    func add(_ bytes: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

exit(NSExtensionMain(ProbeHandler.self))
