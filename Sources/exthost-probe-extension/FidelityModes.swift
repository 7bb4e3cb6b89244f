// Modes of exthost-probe-extension that check what real extensions rely on (first argument):
//   bundle      print what Bundle.main says: PROBE bundle id=<bundleIdentifier> path=<bundlePath>
//               info=<CFBundleIdentifier from the Info.plist> executable=<executableURL's name>
//   file-names  load every attachment's first registered type with loadFileRepresentation and print the
//               temporary copy's name: PROBE name <index> <file name>|error:<domain> <code>
//   file-url    for every attachment with public.file-url, loadItem the URL and read it as extensions do:
//               PROBE file-url <index> readable=<isReadableFile> read=<bytes|failed:code> copy=<ok|failed:code>
//   links       run NSDataDetector over every text attachment for links, phone numbers, addresses and
//               dates, spelt as Apple spells them: PROBE found <type> <what> isLink=<resultType == .link>
//   inputs      print its arguments (PROBE arguments <arguments>) and the request's items as the extension
//               sees them: PROBE items <count>, then per item
//               PROBE item <index> attachments=<count> title=<attributedTitle> text=<attributedContentText>, and
//               for a property list PROBE plist <its JSON> (Safari's NSExtensionJavaScriptPreprocessingResultsKey)
//   pasteboard  read UIPasteboard.general, set its string to "from the extension", read it again:
//               PROBE pasteboard before count=<changeCount> string=<string|nil>, then
//               PROBE pasteboard after count=<changeCount> string=<string|nil>
// The ends of a request (second argument: the App Group to write marker files into):
//   end-writes  start a data load of every attachment whose completion handler writes late-<index> into
//               the group, then complete the request at once
//   end-await   the same with async/await: each child task of a task group awaits its load and then writes
//               late-<index>; the request completes as soon as the first load has come back
//   end-after   what a device lets run after completeRequest: a main-queue block queued before it writes
//               queued-before; completeRequest's completion handler writes completion-handler; the code
//               after the call, in the same function, writes sync-after
//   end-in-handler  complete the request from the completion handler of the first attachment's load (on
//               the load queue), then write in-handler-after in the same handler

import Foundation
import UIKit
import UniformTypeIdentifiers

extension ProbeHandler {
    /// Runs one of the modes above; false for another mode.
    func runFidelityMode(_ context: NSExtensionContext, _ providers: [NSItemProvider]) -> Bool {
        switch Self.mode {
        case "pasteboard":
            let pasteboard = UIPasteboard.general
            say("PROBE pasteboard before count=\(pasteboard.changeCount) string=\(pasteboard.string ?? "nil")")
            pasteboard.string = "from the extension"
            say("PROBE pasteboard after count=\(pasteboard.changeCount) string=\(pasteboard.string ?? "nil")")
            context.completeRequest(returningItems: nil, completionHandler: nil)
        case "bundle":
            let main = Bundle.main
            say(
                "PROBE bundle id=\(main.bundleIdentifier ?? "nil") path=\(main.bundlePath) "
                    + "info=\(main.object(forInfoDictionaryKey: "CFBundleIdentifier") as? String ?? "nil") "
                    + "executable=\(main.executableURL?.lastPathComponent ?? "nil")")
            context.completeRequest(returningItems: nil, completionHandler: nil)
        case "file-names":
            Task { @MainActor in
                for (index, provider) in providers.enumerated() {
                    guard let type = provider.registeredTypeIdentifiers.first else { continue }
                    say("PROBE name \(index) \(await Self.temporaryName(provider, type))")
                }
                context.completeRequest(returningItems: nil, completionHandler: nil)
            }
        case "file-url":
            Task { @MainActor in
                for (index, provider) in providers.enumerated()
                where provider.hasItemConformingToTypeIdentifier(UTType.fileURL.identifier) {
                    guard let url = try? await provider.loadItem(forTypeIdentifier: UTType.fileURL.identifier) as? URL
                    else {
                        say("PROBE file-url \(index) no-url")
                        continue
                    }
                    say("PROBE file-url \(index) \(Self.readAsExtensionsDo(url))")
                }
                context.completeRequest(returningItems: nil, completionHandler: nil)
            }
        case "links":
            Task { @MainActor in
                for provider in providers where provider.hasItemConformingToTypeIdentifier(UTType.plainText.identifier)
                {
                    let item = try? await provider.loadItem(forTypeIdentifier: UTType.plainText.identifier)
                    // Text shared as a string, or as a file.
                    guard
                        let text = item as? String
                            ?? (item as? URL).flatMap({ try? String(contentsOf: $0, encoding: .utf8) })
                    else { continue }
                    Self.detect(in: text, spelling: AppleSpelling.self)
                }
                context.completeRequest(returningItems: nil, completionHandler: nil)
            }
        case "inputs":
            let items = context.inputItems.compactMap { $0 as? NSExtensionItem }
            say("PROBE arguments \(CommandLine.arguments.dropFirst().joined(separator: " "))")
            say("PROBE items \(items.count)")
            for (index, item) in items.enumerated() {
                say(
                    "PROBE item \(index) attachments=\(item.attachments?.count ?? 0) "
                        + "title=\(item.attributedTitle?.string ?? "nil") text=\(item.attributedContentText?.string ?? "nil")"
                )
            }
            Task { @MainActor in
                for provider in providers
                where provider.hasItemConformingToTypeIdentifier(UTType.propertyList.identifier) {
                    let item = try? await provider.loadItem(forTypeIdentifier: UTType.propertyList.identifier)
                    // What extensions do with Safari's results: cast to a dictionary, read the key.
                    if let dictionary = item as? [String: Any],
                        let json = try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])
                    {
                        say("PROBE plist \(String(decoding: json, as: UTF8.self))")
                    } else {
                        say("PROBE plist not-a-dictionary \(type(of: item))")
                    }
                }
                context.completeRequest(returningItems: nil, completionHandler: nil)
            }
        case "end-writes", "end-await", "end-after", "end-in-handler":
            runEndMode(context, providers)
        default:
            return false
        }
        return true
    }

    /// The App Group the `end-…` modes write into (second argument).
    nonisolated static var endGroup: URL? {
        guard let group = CommandLine.arguments.dropFirst(2).first else { return nil }
        return FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)
    }

    /// Writes a marker file into the group.
    nonisolated static func mark(_ name: String) {
        guard let folder = endGroup else { return say("PROBE no group") }
        try? Data(name.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
    }

    func runEndMode(_ context: NSExtensionContext, _ providers: [NSItemProvider]) {
        let loadable = providers.enumerated().compactMap { index, provider in
            provider.registeredTypeIdentifiers.first.map { (index, provider, $0) }
        }
        switch Self.mode {
        case "end-writes":
            for (index, provider, type) in loadable {
                _ = provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
                    if data != nil { Self.mark("late-\(index)") }
                }
            }
            context.completeRequest(returningItems: nil, completionHandler: nil)
        case "end-await":
            Task { @MainActor in
                await withTaskGroup(of: Void.self) { group in
                    for (index, provider, type) in loadable {
                        group.addTask { @MainActor @Sendable in
                            let data = await withCheckedContinuation { continuation in
                                _ = provider.loadDataRepresentation(forTypeIdentifier: type) { data, _ in
                                    continuation.resume(returning: data)
                                }
                            }
                            if data != nil { Self.mark("late-\(index)") }
                        }
                    }
                    // Complete as soon as the first load is back, without waiting for the others.
                    _ = await group.next()
                    context.completeRequest(returningItems: nil, completionHandler: nil)
                }
            }
        case "end-after":
            DispatchQueue.main.async { Self.mark("queued-before") }
            context.completeRequest(returningItems: nil) { expired in
                Self.mark("completion-handler")
                say("PROBE expired=\(expired)")
            }
            Self.mark("sync-after")
        default:  // end-in-handler
            guard let (_, provider, type) = loadable.first else {
                context.completeRequest(returningItems: nil, completionHandler: nil)
                return
            }
            _ = provider.loadDataRepresentation(forTypeIdentifier: type) { _, _ in
                context.completeRequest(returningItems: nil, completionHandler: nil)
                Thread.sleep(forTimeInterval: 0.05)
                Self.mark("in-handler-after")
            }
        }
    }

    /// The name of the temporary copy `loadFileRepresentation` hands over.
    static func temporaryName(_ provider: NSItemProvider, _ type: String) async -> String {
        await withCheckedContinuation { continuation in
            _ = provider.loadFileRepresentation(forTypeIdentifier: type) { url, error in
                if let url {
                    continuation.resume(returning: url.lastPathComponent)
                } else {
                    let error = (error ?? CocoaError(.fileReadUnknown)) as NSError
                    continuation.resume(returning: "error:\(error.domain) \(error.code)")
                }
            }
        }
    }

    /// Reads a file URL an extension was given, as extensions do: is it readable, its bytes, a copy
    /// into the extension's own temporary folder.
    static func readAsExtensionsDo(_ url: URL) -> String {
        let readable = FileManager.default.isReadableFile(atPath: url.path)
        let read: String
        do {
            read = "\(try Data(contentsOf: url).count)"
        } catch {
            read = "failed:\((error as NSError).code)"
        }
        let copy: String
        let target = FileManager.default.temporaryDirectory.appendingPathComponent(
            "copy-\(UUID().uuidString)-\(url.lastPathComponent)")
        do {
            try FileManager.default.copyItem(at: url, to: target)
            copy = "ok"
        } catch {
            copy = "failed:\((error as NSError).code)"
        }
        return "readable=\(readable) read=\(read) copy=\(copy)"
    }

    /// Prints every link, phone number, address and date the detector finds in `text`.
    static func detect<Spelling: CheckingTypeSpelling>(in text: String, spelling: Spelling.Type) {
        let types = Spelling.link | Spelling.phoneNumber | Spelling.address | Spelling.date
        guard let detector = try? NSDataDetector(types: types) else {
            say("PROBE detector failed")
            return
        }
        let range = NSRange(text.startIndex..., in: text)
        for match in detector.matches(in: text, options: [], range: range) {
            let found = (text as NSString).substring(with: match.range)
            let isLink = Spelling.isLink(match)
            if let url = match.url {
                say("PROBE found link \(url.absoluteString) isLink=\(isLink)")
            } else if let number = match.phoneNumber {
                say("PROBE found phoneNumber \(number) isLink=\(isLink)")
            } else if let components = match.addressComponents {
                say("PROBE found address \(components[.city] ?? "-") isLink=\(isLink)")
            } else if let date = match.date {
                say("PROBE found date \(ISO8601DateFormatter().string(from: date)) [\(found)] isLink=\(isLink)")
            } else {
                say("PROBE found other \(found) isLink=\(isLink)")
            }
        }
    }
}

/// The checking types as iOS code spells them (`NSTextCheckingResult.CheckingType.link.rawValue`,
/// `resultType == .link`). swift-corelibs-foundation marks those names deprecated, and this package
/// builds with warnings as errors, so the spellings live in deprecated witnesses of a protocol: the
/// code is exactly what an iOS extension writes, and the calls through the protocol do not warn.
protocol CheckingTypeSpelling {
    static var link: UInt64 { get }
    static var phoneNumber: UInt64 { get }
    static var address: UInt64 { get }
    static var date: UInt64 { get }
    static func isLink(_ result: NSTextCheckingResult) -> Bool
}

enum AppleSpelling: CheckingTypeSpelling {
    @available(*, deprecated, message: "corelibs deprecates the name; iOS code spells it so")
    static var link: UInt64 { NSTextCheckingResult.CheckingType.link.rawValue }
    @available(*, deprecated, message: "corelibs deprecates the name; iOS code spells it so")
    static var phoneNumber: UInt64 { NSTextCheckingResult.CheckingType.phoneNumber.rawValue }
    @available(*, deprecated, message: "corelibs deprecates the name; iOS code spells it so")
    static var address: UInt64 { NSTextCheckingResult.CheckingType.address.rawValue }
    @available(*, deprecated, message: "corelibs deprecates the name; iOS code spells it so")
    static var date: UInt64 { NSTextCheckingResult.CheckingType.date.rawValue }
    @available(*, deprecated, message: "corelibs deprecates the name; iOS code spells it so")
    static func isLink(_ result: NSTextCheckingResult) -> Bool { result.resultType == .link }
}
