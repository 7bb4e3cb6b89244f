import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// The device's adjustments of a payload, each on by default and each switchable.
struct DeviceAdjustmentTests {
    static let webPageOnly = ActivationRule(dictionary: ["NSExtensionActivationSupportsWebPageWithMaxCount": 1])
    static let urlAndTextPage = ActivationPayload(
        items: [item(["public.url"]), item(["public.plain-text"])], isWebpage: true)

    @Test func aWebPageGetsActiveWebpageOnItsURLAttachments() {
        let adjusted = Self.urlAndTextPage.adjusted(.device)
        #expect(
            adjusted.items[0].attachments?[0].registeredTypeIdentifiers == ["public.url", "com.apple.active-webpage"])
        #expect(adjusted.items[1].attachments?[0].registeredTypeIdentifiers == ["public.plain-text"])
        let off = Self.urlAndTextPage.adjusted(ActivationOptions(addsActiveWebpage: false))
        #expect(off.items[0].attachments?[0].registeredTypeIdentifiers == ["public.url"])
        let notAPage = ActivationPayload(items: [item(["public.url"])]).adjusted(.device)
        #expect(notAPage.items[0].attachments?[0].registeredTypeIdentifiers == ["public.url"])
    }

    @Test func aFailedWebPageShareIsRetriedOnItsActiveWebpageItems() {
        // Strict: the text item fails the whole payload; the retry on the page item alone succeeds.
        #expect(Self.webPageOnly.checkedActivates(Self.urlAndTextPage) == true)
        let noRetry = ActivationRule(
            dictionary: ["NSExtensionActivationSupportsWebPageWithMaxCount": 1],
            options: ActivationOptions(retriesWebpageItems: false))
        #expect(noRetry.checkedActivates(Self.urlAndTextPage) == false)
        let noPage = ActivationRule(
            dictionary: ["NSExtensionActivationSupportsWebPageWithMaxCount": 1],
            options: ActivationOptions(addsActiveWebpage: false))
        #expect(noPage.checkedActivates(Self.urlAndTextPage) == false)
    }

    @Test func thenOnItsWebarchiveItems() {
        let archiveRule = ActivationRule(
            predicate:
                #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.apple.webarchive").@count >= 1).@count == extensionItems.@count"#
        )
        let share = ActivationPayload(
            items: [item(["public.url"]), item(["com.apple.webarchive"]), item(["public.plain-text"])], isWebpage: true)
        let attempts = share.attempts(.device)
        #expect(attempts.count == 3)
        #expect(attempts[1].label.hasPrefix("retry on only the items with com.apple.active-webpage"))
        #expect(attempts[2].label.hasPrefix("retry on only the items with com.apple.webarchive"))
        #expect(archiveRule.checkedActivates(share) == true)
        let explained = archiveRule.explain(share)
        #expect(explained.explanation.children.map(\.value) == ["false", "false", "true"])
        #expect(explained.explanation.children.map(\.isDecisive) == [false, false, true])
        let noRetry = ActivationRule(source: archiveRule, options: ActivationOptions(retriesWebpageItems: false))
        #expect(noRetry.checkedActivates(share) == false)
    }

    @Test func aPayloadWithoutSuchItemsIsTriedOnce() {
        #expect(payload(["public.jpeg"]).attempts(.device).count == 1)
        // When every item has the page, the retry would be the same payload: skipped.
        #expect(ActivationPayload(items: [item(["public.url"])], isWebpage: true).attempts(.device).count == 1)
    }

    @Test func registeredTypesAreDeduplicated() {
        let twice = ActivationPayload(items: [item(["public.jpeg", "public.jpeg", "public.png", "public.jpeg"])])
        #expect(
            twice.adjusted(.device).items[0].attachments?[0].registeredTypeIdentifiers == ["public.jpeg", "public.png"])
        let rule = ActivationRule(
            predicate:
                "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, $a.registeredTypeIdentifiers.@count == 2).@count == 1).@count == 1"
        )
        // 2 distinct types after de-duplication, 4 before.
        #expect(rule.checkedActivates(twice) == true)
        let keeping = ActivationRule(source: rule, options: ActivationOptions(deduplicatesTypes: false))
        #expect(keeping.checkedActivates(twice) == false)
    }
}

extension ActivationRule {
    /// The same rule text loaded with other options.
    fileprivate init(source rule: ActivationRule, options: ActivationOptions) {
        if let text = rule.source {
            self.init(predicate: text, options: options)
        } else {
            self.init(predicate: rule.canonicalText ?? "FALSEPREDICATE", options: options)
        }
    }
}
