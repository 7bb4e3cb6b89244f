// libFuzzer target for the rule-plist loader: any bytes as an Info.plist / rule plist (XML or binary),
// then lint, explain and evaluate against a fixed payload. Built by Scripts/fuzz with UniformTypes,
// Predicates and ActivationRules compiled as their own modules (so the imports below are real).
import ActivationRules
import Foundation

private let payload = ActivationPayload(
    items: [
        .init([.init(["public.jpeg"]), .init(["public.url", "public.plain-text"])]),
        .init([.init(["com.adobe.pdf"])]),
    ])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let rule = ActivationRule(plistData: bytes, file: "fuzz.plist")
    // Every diagnostic must render; an evaluable rule must explain and evaluate without trapping.
    for diagnostic in rule.diagnostics { _ = diagnostic.description }
    _ = rule.description
    if rule.isEvaluable {
        _ = rule.explain(payload)
    }
    return 0
}
