import Foundation
import Predicates
import Testing
import UniformTypes

@testable import ActivationRules

/// The dictionary form: each key and mode, Apple's documented examples, and the derived
/// predicate agreeing with the key-by-key model on every case.
struct DictionaryRuleTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var keys: [String: PlistValue]
        var payload: ActivationPayload
        var expected: Bool

        init(_ name: String, _ keys: [String: PlistValue], _ payload: ActivationPayload, _ expected: Bool) {
            self.name = name
            self.keys = keys
            self.payload = payload
            self.expected = expected
        }

        var description: String { name }
    }

    static let image = "NSExtensionActivationSupportsImageWithMaxCount"
    static let movie = "NSExtensionActivationSupportsMovieWithMaxCount"
    static let file = "NSExtensionActivationSupportsFileWithMaxCount"
    static let webURL = "NSExtensionActivationSupportsWebURLWithMaxCount"
    static let webPage = "NSExtensionActivationSupportsWebPageWithMaxCount"
    static let text = "NSExtensionActivationSupportsText"
    static let attachmentsMax = "NSExtensionActivationSupportsAttachmentsWithMaxCount"
    static let attachmentsMin = "NSExtensionActivationSupportsAttachmentsWithMinCount"
    static let version = "NSExtensionActivationDictionaryVersion"
    static let strict = "NSExtensionActivationUsesStrictMatching"

    static let cases: [Case] = [
        // AttachmentsWithMaxCount = 1 alone accepts one attachment of any kind.
        Case("attachments 1 accepts an image", [attachmentsMax: 1], payload(["public.jpeg"]), true),
        Case("attachments 1 accepts an undeclared type", [attachmentsMax: 1], payload(["com.example.thing"]), true),
        Case("attachments 1 refuses two", [attachmentsMax: 1], payload(["public.jpeg", "com.adobe.pdf"]), false),
        Case(
            "attachments max counts over all items", [attachmentsMax: 2],
            payload(["public.jpeg", "public.png"], ["public.url"]), false),
        Case(
            "attachments max over items within bound", [attachmentsMax: 2], payload(["public.jpeg"], ["public.url"]),
            true),
        Case("attachments min not reached", [attachmentsMax: 5, attachmentsMin: 2], payload(["public.jpeg"]), false),
        Case(
            "attachments min reached", [attachmentsMax: 5, attachmentsMin: 2], payload(["public.jpeg", "public.png"]),
            true),
        // FileWithMaxCount = 5 alone accepts images and movies too.
        Case("file accepts a PDF", [file: 5], payload(["com.adobe.pdf"]), true),
        Case("file accepts an image", [file: 5], payload(["public.jpeg"]), true),
        Case("file accepts a movie", [file: 5], payload(["public.mpeg-4"]), true),
        Case("file does not accept a web URL", [file: 5], payload(["public.url"]), false),
        Case("file does not accept text", [file: 5], payload(["public.plain-text"]), false),
        Case("file accepts a file URL", [file: 1], payload(["public.file-url"]), true),
        // an explicit key overrides its parent.
        Case("file 5 image 0 accepts a PDF", [file: 5, image: 0], payload(["com.adobe.pdf"]), true),
        Case("file 5 image 0 rejects an image", [file: 5, image: 0], payload(["public.jpeg"]), false),
        Case("file 5 image 0 accepts a movie", [file: 5, image: 0], payload(["public.mpeg-4"]), true),
        Case("attachments 0 image 3 accepts an image", [attachmentsMax: 0, image: 3], payload(["public.jpeg"]), true),
        Case("attachments 0 image 3 rejects a PDF", [attachmentsMax: 0, image: 3], payload(["com.adobe.pdf"]), false),
        // counts pool upwards, per item.
        Case("pooled within both", [image: 2, file: 2], payload(["public.jpeg", "public.png"]), true),
        Case(
            "pooled file count exceeded", [image: 2, file: 2], payload(["public.jpeg", "com.adobe.pdf", "public.png"]),
            false),
        Case(
            "image count exceeded", [image: 2, file: 9], payload(["public.jpeg", "public.png", "public.heic"]), false),
        Case("counts are per item", [image: 1], payload(["public.jpeg"], ["public.png"]), true),
        Case("one item over the count", [image: 1], payload(["public.jpeg", "public.png"]), false),
        // Categories.
        Case("movie accepts MPEG-4", [movie: 1], payload(["public.mpeg-4"]), true),
        Case("movie does not accept audio", [movie: 1], payload(["public.mp3"]), false),
        Case("text accepts plain text", [text: true], payload(["public.plain-text"]), true),
        Case("text accepts JSON", [text: true], payload(["public.json"]), true),
        Case("text does not accept an image", [text: true], payload(["public.jpeg"]), false),
        Case("text has no count", [text: true], payload(["public.plain-text", "public.html", "public.rtf"]), true),
        Case("web URL accepts a URL", [webURL: 1], payload(["public.url"]), true),
        Case("web URL does not count file URLs", [webURL: 1], payload(["public.file-url"]), false),
        Case("web URL count exceeded", [webURL: 1], payload(["public.url", "public.url"]), false),
        Case(
            "web page accepts an active web page", [webPage: 1],
            ActivationPayload(items: [item(["public.url", "com.apple.active-webpage"])]), true),
        Case(
            "web page inherits web URL", [webURL: 1],
            ActivationPayload(items: [item(["public.url", "com.apple.active-webpage"])]), true),
        Case(
            "web page 0 rejects a page", [webURL: 1, webPage: 0],
            ActivationPayload(items: [item(["public.url", "com.apple.active-webpage"])]), false),
        Case("web page 0 still accepts a plain URL", [webURL: 1, webPage: 0], payload(["public.url"]), true),
        Case("an undeclared type reaches no category", [file: 1], payload(["com.example.thing"]), false),
        Case(
            "the first category a type reaches wins", [image: 1],
            ActivationPayload(items: [item(["public.url", "public.jpeg"])]), false),
        // Modes.
        Case("strict by default", [image: 1], payload(["public.jpeg", "public.url"]), false),
        Case("version 2 is fuzzy", [image: 1, version: 2], payload(["public.jpeg", "public.url"]), true),
        Case(
            "version 2 with strict matching", [image: 1, version: 2, strict: true],
            payload(["public.jpeg", "public.url"]), false),
        Case(
            "strict false without version stays strict", [image: 1, strict: false],
            payload(["public.jpeg", "public.url"]), false),
        Case("fuzzy needs one accepted", [image: 1, version: 2], payload(["public.url"]), false),
        Case(
            "fuzzy: a rejected category still fails", [image: 1, webURL: 0, version: 2],
            payload(["public.jpeg", "public.url"]), false),
        Case(
            "fuzzy still counts", [image: 1, version: 2], payload(["public.jpeg", "public.png", "public.url"]), false),
        // Never.
        Case("all zero never activates", [image: 0, text: false], payload(["public.jpeg"]), false),
        Case(
            "no attachments never activates", [attachmentsMax: 5],
            ActivationPayload(items: [ActivationPayload.Item(nil)]), false),
        Case("no items never activates", [attachmentsMax: 5], ActivationPayload(items: []), false),
        Case("empty attachments never activate", [attachmentsMax: 5], payload([]), false),
        // intValue / boolValue reading.
        Case("a string of digits counts", [image: "2"], payload(["public.jpeg", "public.png"]), true),
        Case("true counts as 1", [image: true], payload(["public.jpeg"]), true),
        Case("true counts as 1, not 2", [image: true], payload(["public.jpeg", "public.png"]), false),
        Case("a word counts as 0", [image: "lots", file: 1], payload(["public.jpeg"]), false),
        Case("a version string counts", [image: 1, version: "2"], payload(["public.jpeg", "public.url"]), true),
        Case("text as the number 1", [text: 1], payload(["public.plain-text"]), true),
        Case("text as the string YES reads 0", [text: "YES", image: 1], payload(["public.plain-text"]), false),
    ]

    @Test(arguments: cases) func evaluatesLikeTheDevice(_ testCase: Case) throws {
        let rule = ActivationRule(
            dictionary: testCase.keys, registry: Fixture.registry, options: .init(allowDevelopmentRules: true))
        #expect(rule.form == .dictionary)
        #expect(rule.checkedActivates(testCase.payload) == testCase.expected)
        let dictionary = try #require(rule.dictionary)
        let (modelOutcome, _) = dictionary.explain(testCase.payload.adjusted(rule.options), relations: rule.relations)
        #expect(modelOutcome == testCase.expected, "the key-by-key model disagrees with the derived predicate")
    }

    @Test(arguments: cases) func derivedPredicatePrintsCanonicallyAndParsesBack(_ testCase: Case) throws {
        let rule = ActivationRule(dictionary: testCase.keys, options: .init(allowDevelopmentRules: true))
        let predicate = try #require(rule.predicate)
        let text = try #require(rule.canonicalText)
        #expect(try PredicateParser.parse(text) == predicate)
        #expect(rule.usesSpecialisedEvaluator)
    }

    @Test func strictnessFollowsVersionAndFlag() {
        #expect(DictionaryRule(values: [:]).isStrict)
        #expect(DictionaryRule(values: [:], version: 1).isStrict)
        #expect(!DictionaryRule(values: [:], version: 2).isStrict)
        #expect(DictionaryRule(values: [:], version: 2, usesStrictMatching: true).isStrict)
    }

    @Test func decisionsInheritFromTheNearestPresentKey() {
        let rule = DictionaryRule(values: [.file: 5, .image: 0])
        #expect(rule.decision(for: .movie) == .accepted(by: .file))
        #expect(rule.decision(for: .image) == .rejected(by: .image))
        #expect(rule.decision(for: .text) == .unspecified)
        #expect(rule.decision(for: .webPage) == .unspecified)
    }

    @Test func allZeroAndNothingAcceptedDeriveFalsePredicate() {
        #expect(ActivationRule(dictionary: [Self.image: 0]).canonicalText == "FALSEPREDICATE")
        #expect(ActivationRule(dictionary: [Self.attachmentsMin: 2]).canonicalText == "FALSEPREDICATE")
        let zero = ActivationRule(dictionary: [Self.image: 0, Self.text: false])
        #expect(zero.diagnostics.map(\.code) == [.neverActivates])
    }

    @Test func derivedPredicateOfASimpleRuleReadsAsExpected() {
        let rule = ActivationRule(dictionary: [Self.attachmentsMax: 3])
        #expect(
            rule.canonicalText
                == "extensionItems.@sum.attachments.@count >= 1 AND extensionItems.@sum.attachments.@count <= 3")
    }

    @Test func explanationNamesCategoriesAndKeys() throws {
        let rule = ActivationRule(dictionary: [Self.file: 5, Self.image: 0], registry: Fixture.registry)
        let result = rule.explain(payload(["com.adobe.pdf", "public.jpeg"]))
        #expect(result.activated == false)
        let lines = flatten(result.explanation)
        #expect(
            lines.contains {
                $0.contains(
                    "attachment 1 [com.adobe.pdf]: file (com.adobe.pdf conforms to public.data) → accepted by SupportsFileWithMaxCount = 5"
                )
            })
        #expect(
            lines.contains {
                $0.contains(
                    "attachment 2 [public.jpeg]: image (public.jpeg conforms to public.image) → rejected by SupportsImageWithMaxCount = 0"
                )
            })
        let deciding = try #require(result.explanation.decidingPath.last)
        #expect(deciding.text.hasPrefix("attachment 2 [public.jpeg]"))
    }

    private func flatten(_ node: Explanation) -> [String] {
        [node.text] + node.children.flatMap(flatten)
    }
}
