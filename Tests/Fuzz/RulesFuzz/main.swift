import Foundation

// libFuzzer target for the rule-plist loader, and a differential check of the rule's verdict: any
// bytes as an Info.plist / rule plist (XML or binary), then lint, explain and evaluate against
// payloads — a fixed set and one the input's last bytes choose. The verdict is decided once (the
// compiled predicate); the specialised evaluator, the traced explanation and a dictionary rule's
// own explanation must agree with it, or the target stops with the disagreement. Built by
// Scripts/fuzz with UniformTypes, Predicates and ActivationRules as their own testable modules;
// .ci/run runs it.
@testable import ActivationRules

private let types = [
    "public.jpeg", "public.png", "public.url", "public.plain-text", "com.adobe.pdf", "public.mpeg-4", "public.file-url",
    "public.vcard", "public.data", "com.example.custom",
]

private let fixed: [ActivationPayload] = [
    ActivationPayload(items: [
        .init([.init(["public.jpeg"]), .init(["public.url", "public.plain-text"])]), .init([.init(["com.adobe.pdf"])]),
    ]),
    ActivationPayload(items: [.init([.init(["public.url"])])], isWebpage: true),
    ActivationPayload(items: [.init([.init(["public.plain-text"])])]),
    ActivationPayload(items: [.init((0..<3).map { _ in .init(["public.png"]) })]),
    ActivationPayload(items: [.init([.init(["public.mpeg-4"]), .init(["public.file-url", "public.data"])])]),
    ActivationPayload(items: [.init([])]),
]

/// A payload from the input's last bytes: up to 3 items of up to 3 attachments, each with 1–2 types.
private func derived(_ bytes: [UInt8]) -> ActivationPayload {
    var tail = Array(bytes.suffix(16))
    func next() -> Int { tail.isEmpty ? 0 : Int(tail.removeLast()) }
    let items = (0..<(1 + next() % 3)).map { _ in
        ActivationPayload.Item(
            (0..<(next() % 4)).map { _ in
                ActivationPayload.Attachment((0..<(1 + next() % 2)).map { _ in types[next() % types.count] })
            })
    }
    return ActivationPayload(items: items, isWebpage: next() % 5 == 0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rule = ActivationRule(plistData: Data(bytes), file: "fuzz.plist")
    // Every diagnostic must render; an evaluable rule must explain and evaluate without trapping.
    for diagnostic in rule.diagnostics { _ = diagnostic.description }
    _ = rule.description
    guard rule.isEvaluable else { return 0 }
    for payload in fixed + [derived(bytes)] {
        let prepared = PreparedPayload(payload, options: rule.options)
        let verdict = rule.activatesUsingGeneralEvaluator(prepared)
        let fast = rule.activates(prepared)
        let explained = rule.explain(prepared).activated
        guard fast == verdict, explained == verdict else {
            preconditionFailure(
                "verdicts disagree: general \(verdict as Any), fast \(fast as Any), explained \(explained as Any)")
        }
        // A dictionary rule explains itself in its own terms; its verdict must be the predicate's.
        if let dictionary = rule.dictionary, let verdict {
            let own = prepared.attempts.contains { dictionary.explain($0.payload, relations: rule.relations).0 }
            guard own == verdict else {
                preconditionFailure("the dictionary's explanation says \(own), the predicate \(verdict)")
            }
        }
    }
    return 0
}
