import ActivationRules
import Testing

/// The one "did you mean", shared by the rule linter and the command line: its order of tries.
struct SuggestionTests {
    @Test func aCaseVariantComesFirstThenAPrefixThenATypo() {
        let keys = ["NSExtensionActivationSupportsText", "NSExtensionActivationSupportsImageWithMaxCount"]
        #expect(Suggestion.nearest(to: "nsextensionactivationsupportstext", in: keys) == keys[0])
        #expect(Suggestion.nearest(to: "NSExtensionActivationSupportsImage", in: keys) == keys[1])
        #expect(Suggestion.nearest(to: "NSExtensionActivationSupportsTxet", in: keys) == keys[0])
        #expect(Suggestion.nearest(to: "JSON", in: ["json", "jsonl"]) == "json")
    }

    @Test func neverTheWordItselfNorAFarOne() {
        #expect(Suggestion.nearest(to: "NSExtension", in: ["NSExtension"]) == nil)
        #expect(
            Suggestion.nearest(to: "NSExtension", in: ["NSExtension", "NSExtensionAttributes"])
                == "NSExtensionAttributes")
        #expect(Suggestion.nearest(to: "", in: ["types"]) == nil)
        #expect(Suggestion.nearest(to: "zzzzzz", in: ["types", "rule"]) == nil)
    }
}
