import Foundation

// libFuzzer target for SiriKit intent definitions (.intentdefinition, a property list): any bytes
// as the file IntentCatalog.definition reads (INIntents, class names, INIntentParameters). It must
// refuse or accept without trapping; an error names a line inside the input; every declared intent
// has a class name. Built by Scripts/fuzz with Shortcuts and what it imports.
@testable import Shortcuts

private let file = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("exthost-fuzz-intents-\(getpid())/Intents.intentdefinition")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIntentDefinitions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? bytes.write(to: file)) != nil else { return 0 }
    do {
        for intent in try IntentCatalog.definition(file) {
            guard !intent.className.isEmpty else { preconditionFailure("an intent without a class name: \(intent)") }
            _ = (intent.name, intent.title, intent.parameters.map(\.name))
        }
    } catch {
        let lines = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        guard error.line <= lines else {
            preconditionFailure("the error names line \(error.line) of \(lines): \(error.description)")
        }
        _ = error.description
    }
    return 0
}
