import Foundation

// libFuzzer target for App Intents metadata (Metadata.appintents/extract.actionsdata, JSON): any
// bytes as the file IntentCatalog.appIntents reads (actions keyed by type name, parameters with
// their primitive type identifiers). It must refuse or accept without trapping, and every intent it
// accepts has a class name. Built by Scripts/fuzz with Shortcuts and what it imports.
@testable import Shortcuts

private let file = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("exthost-fuzz-appintents-\(getpid())/extract.actionsdata")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppIntents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? bytes.write(to: file)) != nil else { return 0 }
    do {
        for intent in try IntentCatalog.appIntents(file) {
            guard !intent.className.isEmpty else { preconditionFailure("an intent without a class name: \(intent)") }
            _ = (intent.name, intent.title, intent.parameters.map(\.type))
        }
    } catch {
        _ = error.description
    }
    return 0
}
