import Foundation

// libFuzzer target for shortcut property lists (.shortcut): any bytes as the file Shortcut.load
// reads (the located-document reader's XML property list with line and column, then
// WFWorkflowActions, If/Otherwise/End If pairing, parameters). It must refuse or accept without
// trapping, an error must name a line and column inside the input, and a shortcut it accepts must
// describe itself. Built by Scripts/fuzz with Shortcuts and what it imports as their own testable
// modules.
@testable import Shortcuts

private let file = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("exthost-fuzz-shortcuts-\(getpid())/Fuzz.shortcut")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShortcuts(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? bytes.write(to: file)) != nil else { return 0 }
    do {
        let shortcut = try Shortcut.load(contentsOf: file)
        _ = (shortcut.name, shortcut.showsInShareSheet, shortcut.inputClasses)
        for action in shortcut.actions { _ = action.identifier }
        for (_, block) in shortcut.blocks {
            guard block.start < shortcut.actions.count, block.end < shortcut.actions.count,
                (block.otherwise ?? block.start) < shortcut.actions.count
            else { preconditionFailure("an If block points past the actions: \(block)") }
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
