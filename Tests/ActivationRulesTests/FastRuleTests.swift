import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// The specialised evaluator against the general one: the same answer for every rule shape it
/// takes, on payloads with every oddity the general one handles (missing keys, empty lists, case,
/// undeclared and dynamic types).
struct FastRuleTests {
    static let specialised: [String] = [
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count >= 1).@count == 1"#,
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image" OR ANY $a.registeredTypeIdentifiers UTI-EQUALS "PUBLIC.URL").@count == $e.attachments.@count).@count >= 1"#,
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ALL $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data").@count > 0).@count == extensionItems.@count"#,
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, NONE $a.registeredTypeIdentifiers == "public.url").@count != 0).@count < 2"#,
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, SUBQUERY($a.registeredTypeIdentifiers, $t, $t UTI-CONFORMS-TO "public.url" AND NOT $t UTI-CONFORMS-TO "public.file-url").@count > 0).@count > 0).@count > 0"#,
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, $a.registeredTypeIdentifiers.@count >= 2 AND ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "dyn.ah62d4rv4ge80c7py").@count <= 1).@count == 1"#,
        #"1 == extensionItems.@count AND extensionItems.@sum.attachments.@count >= 2"#,
        #"NOT (SUBQUERY(extensionItems, $e, $e.attachments.@count == 0).@count > 0) OR FALSEPREDICATE"#,
        "TRUEPREDICATE",
    ]

    static let general: [String] = [
        #"ANY extensionItems.attachments.@count == 1"#,
        #"SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers CONTAINS[c] "JPEG").@count > 0"#,
        #"SUBQUERY(extensionItems, $e, attachments.@count > 0).@count > 0"#,
        #"extensionItems[0].attachments.@count == 1"#,
        // Inside a SUBQUERY, a bare key path reads the element, so this inner extensionItems is nil.
        #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, SUBQUERY(extensionItems, $f, $f.attachments.@count > 1).@count > 0 AND ANY $a.registeredTypeIdentifiers == "public.jpeg").@count > 0).@count > 0"#,
        #"SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers ==[c] "PUBLIC.JPEG").@count == 1"#,
    ]

    static let types = [
        "public.jpeg", "PUBLIC.JPEG", "public.png", "public.url", "public.file-url", "com.adobe.pdf",
        "public.plain-text",
        "public.mpeg-4", "com.example.thing", "dyn.ah62d4rv4ge80c7py", "com.apple.active-webpage",
        "com.apple.webarchive",
        "public.image", "com.example.carddrop.card",
    ]

    /// Deterministic payloads: items with no `attachments`, empty ones, attachments without types.
    static let payloads: [ActivationPayload] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var result: [ActivationPayload] = [
            ActivationPayload(items: []), ActivationPayload(items: [ActivationPayload.Item(nil)]),
        ]
        for _ in 0..<60 {
            let items = (0..<next(4)).map { _ -> ActivationPayload.Item in
                if next(6) == 0 { return ActivationPayload.Item(nil) }
                let attachments = (0..<next(4)).map { _ in
                    ActivationPayload.Attachment((0..<next(4)).map { _ in types[next(types.count)] })
                }
                return ActivationPayload.Item(attachments)
            }
            result.append(ActivationPayload(items: items, isWebpage: next(3) == 0))
        }
        return result
    }()

    @Test(arguments: specialised) func specialisedShapesAgreeWithTheGeneralEvaluator(_ text: String) {
        for options in [
            ActivationOptions(allowDevelopmentRules: true),
            ActivationOptions(allowDevelopmentRules: true, deduplicatesTypes: false),
        ] {
            let rule = ActivationRule(predicate: text, registry: Fixture.registry, options: options)
            let specialised = rule.usesSpecialisedEvaluator
            #expect(specialised, "\(text) should take the specialised path")
            for payload in Self.payloads {
                let prepared = PreparedPayload(payload, options: options)
                let (fast, general) = (rule.activates(prepared), rule.activatesUsingGeneralEvaluator(prepared))
                #expect(fast == general, "\(payload)")
            }
        }
    }

    @Test(arguments: general) func otherShapesUseTheGeneralEvaluator(_ text: String) {
        let rule = ActivationRule(predicate: text, registry: Fixture.registry)
        let specialised = rule.usesSpecialisedEvaluator
        #expect(!specialised)
        for payload in Self.payloads.prefix(10) {
            let prepared = PreparedPayload(payload)
            let (fast, general) = (rule.activates(prepared), rule.activatesUsingGeneralEvaluator(prepared))
            #expect(fast == general)
        }
    }

    @Test func dictionaryRulesAgreeOnRandomPayloads() {
        let dictionaries: [[String: PlistValue]] = [
            ["NSExtensionActivationSupportsImageWithMaxCount": 2, "NSExtensionActivationSupportsText": true],
            [
                "NSExtensionActivationSupportsFileWithMaxCount": 3, "NSExtensionActivationSupportsImageWithMaxCount": 0,
                "NSExtensionActivationSupportsWebURLWithMaxCount": 1, "NSExtensionActivationDictionaryVersion": 2,
            ],
            [
                "NSExtensionActivationSupportsAttachmentsWithMaxCount": 4,
                "NSExtensionActivationSupportsWebPageWithMaxCount": 0,
                "NSExtensionActivationSupportsAttachmentsWithMinCount": 2,
            ],
            [
                "NSExtensionActivationSupportsWebPageWithMaxCount": 1,
                "NSExtensionActivationSupportsMovieWithMaxCount": 1,
                "NSExtensionActivationDictionaryVersion": 2, "NSExtensionActivationUsesStrictMatching": true,
            ],
        ]
        for keys in dictionaries {
            let rule = ActivationRule(dictionary: keys, registry: Fixture.registry)
            for payload in Self.payloads {
                let outcome = rule.checkedActivates(payload)
                #expect(outcome != nil)
            }
        }
    }
}
