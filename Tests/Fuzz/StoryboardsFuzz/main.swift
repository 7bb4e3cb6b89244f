// libFuzzer target for the storyboard reader: LocatedXML, the located XML parser that reads an
// extension's MainInterface.storyboard before UIKit makes anything from it. Built by Scripts/fuzz
// against Sources/UIKit/Storyboard/LocatedXML.swift compiled as its own module (it needs nothing
// else). It may refuse any input, at a line and column inside it, but never trap.
@testable import StoryboardXML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoryboards(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let root = try LocatedXML.parse(bytes)
        // Walk what a storyboard load reads: names, attributes, text, keyed children.
        var stack = [root]
        var visited = 0
        while let element = stack.popLast(), visited < 100_000 {
            visited += 1
            _ = element["customClass"]
            _ = element.child("view", key: "view")
            _ = element.text.count
            precondition(element.line >= 1 && element.column >= 1, "an element outside the input")
            stack += element.children
        }
    } catch let error as LocatedXML.SyntaxError {
        precondition(error.line >= 1 && error.column >= 1, "an error located outside the input")
    } catch {
        preconditionFailure("LocatedXML threw something that is not a located SyntaxError: \(error)")
    }
    return 0
}
