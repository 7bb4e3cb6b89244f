import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// Each lint of a predicate or dictionary rule, with its code, severity and place.
struct LintTests {
    struct Case: Sendable, CustomStringConvertible {
        var predicate: String
        var code: RuleDiagnostic.Code
        var severity: RuleDiagnostic.Severity
        var column: Int
        var description: String { "\(code): \(predicate)" }
    }

    static let cases: [Case] = [
        Case(predicate: "TRUEPREDICATE", code: .truePredicate, severity: .error, column: 1),
        Case(predicate: "FALSEPREDICATE", code: .neverActivates, severity: .warning, column: 1),
        Case(predicate: "extensionItems.@count == %@", code: .formatArgument, severity: .error, column: 26),
        Case(predicate: "extensionItems.%K == 1", code: .formatArgument, severity: .error, column: 1),
        Case(predicate: "FUNCTION(SELF, 'x') == 1", code: .function, severity: .error, column: 1),
        Case(predicate: "CAST('1', 'NSNumber') == 1", code: .cast, severity: .error, column: 1),
        Case(
            predicate: "SUBQUERY(extensionItems, $x, ($y := 1) == 1).@count == 1", code: .assignment, severity: .error,
            column: 31),
        Case(
            predicate: #"ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO "public.imag""#,
            code: .unknownType, severity: .warning, column: 74),
        Case(
            predicate: #"ANY $a.registeredTypeIdentifiers == "public.jpg""#, code: .unknownType, severity: .warning,
            column: 37),
        Case(
            predicate: #""public.file-url" UTI-CONFORMS-TO "public.image""#, code: .unreachableType, severity: .warning,
            column: 1),
        Case(
            predicate:
                #"SUBQUERY(extensionItems.registeredTypeIdentifiers, $t, $t UTI-CONFORMS-TO "public.image" AND $t UTI-EQUALS "public.file-url").@count > 0"#,
            code: .unreachableType, severity: .warning, column: 56),
        Case(
            predicate:
                #"SUBQUERY(extensionItems.registeredTypeIdentifiers, $t, $t UTI-CONFORMS-TO "public.url" AND NOT $t UTI-CONFORMS-TO "public.data").@count > 0"#,
            code: .unreachableType, severity: .warning, column: 56),
        Case(
            predicate: "ANY NSExtensionItems.attachments.contentTypeUTI == 'public.url'", code: .unknownKeyPath,
            severity: .warning, column: 5),
        Case(
            predicate: "ANY extensionItems.attachments.registeredTypeIdentifiers == “public.url”",
            code: "typographic-quote", severity: .error, column: 61),
        Case(predicate: "extensionItems.@count == 1 // one item", code: "comment", severity: .error, column: 28),
        Case(predicate: "extensionItems.@count == 'one", code: "unterminated-string", severity: .error, column: 26),
    ]

    @Test(arguments: cases) func reportsEachLint(_ testCase: Case) throws {
        let rule = ActivationRule(predicate: testCase.predicate)
        let diagnostic = try #require(rule.diagnostics.first { $0.code == testCase.code }, "\(rule.diagnostics)")
        #expect(diagnostic.severity == testCase.severity)
        #expect(diagnostic.line == 1)
        #expect(diagnostic.column == testCase.column)
        #expect(diagnostic.excerpt != nil)
    }

    @Test func developmentRulesTurnTruePredicateIntoAWarning() {
        let rule = ActivationRule(predicate: "TRUEPREDICATE", options: ActivationOptions(allowDevelopmentRules: true))
        #expect(rule.diagnostics.map(\.severity) == [.warning])
        #expect(rule.activates(payload(["public.jpeg"])) == true)
    }

    @Test func refusedConstructsCannotBeEvaluated() {
        let rule = ActivationRule(predicate: "TRUEPREDICATE OR FUNCTION(SELF, 'x') == 1")
        #expect(rule.activates(payload(["public.jpeg"])) == nil)
        let result = rule.explain(payload(["public.jpeg"]))
        #expect(result.activated == nil)
        #expect(result.explanation.value == "refused")
    }

    @Test func knownTypesAndRealKeysAreNotReported() {
        let rule = ActivationRule(
            predicate:
                #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.carddrop.card" AND $e.userInfo.anything == 1).@count > 0).@count == 1"#,
            registry: Fixture.registry)
        #expect(rule.diagnostics.isEmpty, "\(rule.diagnostics)")
        let withoutDeclarations = ActivationRule(
            predicate: #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.carddrop.card""#)
        #expect(withoutDeclarations.diagnostics.map(\.code) == [.unknownType])
    }

    @Test func dictionaryKeyLints() throws {
        let misspelt = try Fixture.load("misspelt-keys")
        let messages = misspelt.diagnostics.map(\.message)
        #expect(misspelt.diagnostics.map(\.code) == [.misplacedKey, .unknownKey, .unknownKey])
        #expect(messages[1].contains("did you mean 'NSExtensionActivationSupportsMovieWithMaxCount'?"))
        #expect(messages[2].contains("did you mean 'NSExtensionActivationSupportsWebURLWithMaxCount'?"))
        #expect(misspelt.diagnostics.map(\.line) == [13, 7, 9])
    }

    @Test func dictionaryValueTypesUseTheAppStoreWording() throws {
        let rule = try Fixture.load("wrong-value-types")
        let byKey = Dictionary(
            rule.diagnostics.map { ($0.line ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byKey[7]?.code == .valueType)
        #expect(byKey[7]?.severity == .error)
        #expect(
            byKey[7]?.message.hasPrefix(
                "value type for the key 'NSExtensionActivationSupportsImageWithMaxCount' is not integer") == true)
        #expect(
            byKey[9]?.message.hasPrefix("value type for the key 'NSExtensionActivationSupportsText' is not boolean")
                == true)
        #expect(byKey[11]?.code == .valueType)
        #expect(byKey[13]?.code == .coercedValue)
        #expect(byKey[13]?.severity == .error)
        let relaxed = try Fixture.load("wrong-value-types", options: ActivationOptions(allowDevelopmentRules: true))
        #expect(!relaxed.diagnostics.containsError)
    }

    @Test func strictMatchingFalseWithoutVersionTwoIsReported() {
        let rule = ActivationRule(dictionary: [
            "NSExtensionActivationSupportsImageWithMaxCount": 1, "NSExtensionActivationUsesStrictMatching": false,
        ])
        #expect(rule.diagnostics.map(\.code) == [.strictMatchingIgnored])
    }

    @Test func negativeCountsAndTheLocationKey() {
        let rule = ActivationRule(dictionary: [
            "NSExtensionActivationSupportsImageWithMaxCount": -1,
            "NSExtensionActivationSupportsLocationWithMaxCount": 1,
            "NSExtensionActivationSupportsText": true,
        ])
        #expect(Set(rule.diagnostics.map(\.code)) == [.negativeCount, .unsupportedKey])
        #expect(rule.activates(payload(["public.jpeg"])) == false)
    }
}
