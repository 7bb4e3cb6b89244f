import ActivationRules
import Foundation
import Predicates
import Testing

/// Explanations: the trace made readable, the deciding node, evaluation errors located.
struct ExplanationTests {
    @Test func theDecidingNodeIsTheAttachmentThatFailed() throws {
        let rule = try ActivationRule.load(contentsOf: Fixture.demoRule, registry: Fixture.registry)
        let result = rule.explain(ActivationPayload(items: [item(["public.mpeg-4"], ["public.jpeg"])]))
        #expect(result.activated == false)
        let path = result.explanation.decidingPath.map(\.text)
        #expect(path.contains { $0.hasPrefix(#"[0] $attachment = {"registeredTypeIdentifiers": {"public.mpeg-4"}}"#) })
        let last = try #require(result.explanation.decidingPath.last)
        #expect(last.value == "false")
        #expect(last.text.hasPrefix("ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\" OR"))
    }

    @Test func literalsAndVariableLookupsAreLeftOut() {
        let rule = ActivationRule(predicate: #"ANY extensionItems.attachments.@count == 1"#)
        let result = rule.explain(payload(["public.jpeg"]))
        func texts(_ node: Explanation) -> [String] { [node.text] + node.children.flatMap(texts) }
        let all = texts(result.explanation)
        #expect(!all.contains("1"))
        #expect(!all.contains("SELF"))
    }

    @Test func anEvaluationErrorIsLocatedAndCannotBeEvaluated() throws {
        let source =
            #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count > 0).@count == 1"#
        let rule = ActivationRule(predicate: source)
        let result = rule.explain(payload(["public.jpeg"]))
        #expect(result.activated == nil)
        let error = try #require(result.diagnostics.first)
        #expect(error.code == .evaluationError)
        #expect(error.column == 59)
        #expect(error.message.contains("use ANY before the left side"))
        #expect(result.explanation.value == "evaluation failed: the extension does not appear")
    }

    @Test func aRuleThatActivatesMarksTheAttemptThatDid() {
        let rule = ActivationRule(predicate: "extensionItems.@count == 1")
        let result = rule.explain(payload(["public.jpeg"]))
        #expect(result.activated == true)
        #expect(result.explanation.value == "activates")
        #expect(result.explanation.children.first?.isDecisive == true)
    }
}
