// libFuzzer target for the Predicates parser, printer and evaluator. Built by Scripts/fuzz
// against Sources/Predicates compiled as its own module (SwiftPM ignores this directory).
import Predicates

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let node = try? PredicateParser.parse(source) else { return 0 }
    // The printer must round-trip every parsed predicate.
    let printed = PredicatePrinter.print(node)
    guard let reparsed = try? PredicateParser.parse(printed), reparsed == node else {
        preconditionFailure("round trip failed: \(source) -> \(printed)")  // a bug the fuzzer reports
    }
    let object: PlistValue = ["a": 1, "b": ["x", "y"], "c": ["d": [1, 2, 3]], "s": "héllo"]
    _ = try? CompiledPredicate(node).evaluate(object, environment: EvaluationEnvironment(maxSteps: 100_000))
    return 0
}
