// bench-rules: how fast a compiled activation rule evaluates (a benchmark, not a test).
//
// Usage: bench-rules [--seconds S] [--root PACKAGE_ROOT]
// Rules: the demo extension's predicate (Containers/Bundles/CardDrop.app/PlugIns/Share.appex/Info.plist,
// with CardDrop.app's type declarations) and a dictionary rule. Payloads: one item with 1, 10 and
// 1 000 attachments of mixed types. Each rule is compiled once; each payload is prepared once.
import ActivationRules
import Foundation
import HostSystem
import Predicates
import UniformTypes

var seconds = 1.0
var root = FileManager.default.currentDirectoryPath
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds": seconds = arguments.popFirst().flatMap(Double.init) ?? seconds
    case "--root": root = arguments.popFirst() ?? root
    default:
        print("usage: bench-rules [--seconds S] [--root PACKAGE_ROOT]")
        exit(2)
    }
}

let app = URL(fileURLWithPath: root).appendingPathComponent("Containers/Bundles/CardDrop.app")
let appex = app.appendingPathComponent("PlugIns/Share.appex/Info.plist")
var registry = TypeRegistry.system
do {
    registry = try registry.adding(declarationsFromPlistAt: app.appendingPathComponent("Info.plist")).0
} catch {
    print("bench-rules: \(error)")
    exit(2)
}
let demo: ActivationRule
do {
    demo = try ActivationRule.load(contentsOf: appex, registry: registry)
} catch {
    print("bench-rules: \(error)")
    exit(2)
}
let dictionary = ActivationRule(
    dictionary: [
        "NSExtensionActivationSupportsImageWithMaxCount": 10,
        "NSExtensionActivationSupportsMovieWithMaxCount": 2,
        "NSExtensionActivationSupportsFileWithMaxCount": 20,
        "NSExtensionActivationSupportsWebURLWithMaxCount": 1,
        "NSExtensionActivationSupportsText": true,
    ], registry: registry)

let kinds: [[String]] = [
    ["public.jpeg"], ["public.heic"], ["com.adobe.pdf", "public.file-url"], ["public.url"],
    ["public.plain-text"], ["com.example.carddrop.card"], ["public.png", "public.image"], ["public.mpeg-4"],
]
func payload(_ count: Int) -> ActivationPayload {
    let attachments = (0..<count).map { ActivationPayload.Attachment(kinds[$0 % kinds.count]) }
    return ActivationPayload(items: [ActivationPayload.Item(attachments)])
}

print("bench-rules: compiled rule reused, payload prepared once; \(seconds) s per row, one core")
print("rule         attachments  activates   evaluations/s   attachment tests/s")
for (name, rule, general) in [
    ("predicate", demo, false), ("dictionary", dictionary, false), ("predicate*", demo, true),
    ("dictionary*", dictionary, true),
] {
    for count in [1, 10, 1000] {
        let prepared = PreparedPayload(payload(count), options: rule.options)
        let evaluate = { general ? rule.activatesUsingGeneralEvaluator(prepared) : rule.activates(prepared) }
        var result = evaluate()
        var evaluations = 0
        let start = ContinuousClock.now
        let limit = Duration.milliseconds(Int(seconds * 1000))
        var elapsed = Duration.zero
        while elapsed < limit {
            for _ in 0..<max(1, 2000 / count) {
                result = evaluate()
                evaluations += 1
            }
            elapsed = ContinuousClock.now - start
        }
        let perSecond = Double(evaluations) / (elapsed.milliseconds / 1000)
        let activates = result.map { String($0) } ?? "error"
        let row = [
            name.padding(toLength: 13, withPad: " ", startingAt: 0),
            String(count).padding(toLength: 13, withPad: " ", startingAt: 0),
            activates.padding(toLength: 12, withPad: " ", startingAt: 0),
            String(format: "%14.0f", perSecond), String(format: "%20.0f", perSecond * Double(count)),
        ]
        print(row.joined())
    }
}
print("* the general predicate evaluator alone (what rules outside the specialised shapes run on)")
