import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// Finding the rule in the three plist shapes, XML and binary, and reporting
/// what is wrong with the file around it.
struct RuleLoadingTests {
    static let imageRule =
        #"SUBQUERY(extensionItems, $extensionItem, SUBQUERY($extensionItem.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count >= 1).@count == 1"#

    struct Shape: Sendable, CustomStringConvertible {
        var file: String
        var form: ActivationRule.Form
        var description: String { file }
    }

    static let shapes: [Shape] = ["shape1-info", "shape2-top-level", "shape3-root"].flatMap { shape in
        ["", "-binary"].flatMap { format in
            [
                Shape(file: "\(shape)-string\(format)", form: .predicate),
                Shape(file: "\(shape)-dictionary\(format)", form: .dictionary),
            ]
        }
    }

    @Test(arguments: shapes) func findsTheRuleInEveryShapeAndFormat(_ shape: Shape) throws {
        let rule = try Fixture.load(shape.file)
        #expect(rule.form == shape.form)
        #expect(rule.diagnostics.isEmpty, "\(rule.diagnostics)")
        if shape.form == .predicate {
            #expect(rule.source == Self.imageRule)
            #expect(rule.predicate == (try PredicateParser.parse(Self.imageRule)))
        } else {
            #expect(rule.dictionary?.values == [.image: 2])
        }
        #expect(rule.checkedActivates(payload(["public.jpeg"])) == true)
        #expect(rule.checkedActivates(payload(["public.url"])) == false)
    }

    @Test func binaryAndXMLGiveTheSameRule() throws {
        for name in ["shape1-info-string", "shape3-root-dictionary"] {
            let xml = try Fixture.load(name)
            let binary = try Fixture.load(name + "-binary")
            #expect(xml.canonicalText == binary.canonicalText)
        }
    }

    @Test func warnsAboutADuplicateKeyWithItsLines() throws {
        let rule = try Fixture.load("duplicate-key")
        let duplicate = try #require(rule.diagnostics.first { $0.code == .duplicateKey })
        #expect(duplicate.severity == .warning)
        #expect(duplicate.line == 11)
        #expect(duplicate.column == 3)
        #expect(
            duplicate.message
                == "duplicate key NSExtensionActivationSupportsImageWithMaxCount in NSExtensionActivationRule (first on line 7), the last one is used"
        )
        // The last value (5) is the one used.
        #expect(rule.dictionary?.values[.image] == 5)
        #expect(rule.checkedActivates(payload(["public.jpeg"])) == true)
    }

    @Test func aMissingRuleNeverActivates() throws {
        let rule = try Fixture.load("missing-rule")
        #expect(rule.form == nil)
        #expect(rule.diagnostics.map(\.code) == [.misplacedKey, .misplacedKey, .missingRule])
        #expect(rule.diagnostics.first?.line == 13)
        #expect(rule.activates(payload(["public.jpeg"])) == false)
        #expect(rule.explain(payload(["public.jpeg"])).activated == false)
    }

    @Test func aRuleOfTheWrongTypeIsAnError() throws {
        let rule = try Fixture.load("not-a-rule")
        #expect(rule.form == nil)
        #expect(rule.diagnostics.map(\.code) == [.invalidRuleType])
        #expect(rule.diagnostics.first?.severity == .error)
    }

    @Test func aMalformedPlistIsADiagnostic() throws {
        let rule = try Fixture.load("malformed")
        #expect(rule.diagnostics.map(\.code) == [.malformedPlist])
        #expect(rule.diagnostics.first?.message.contains("line 5") == true)
    }

    @Test func anUnreadableFileThrows() {
        #expect(throws: ActivationRuleError.self) {
            try ActivationRule.load(contentsOf: Fixture.rule("no-such-rule"))
        }
    }

    @Test func syntaxErrorsPointAtTheFileLineAndColumn() throws {
        let rule = try Fixture.load("typographic-quote")
        let error = try #require(rule.diagnostics.first)
        #expect(error.code == "typographic-quote")
        #expect(error.severity == .error)
        // Line 9 of the file, after an &quot; entity: the column is the file's, not the predicate's.
        #expect(error.line == 9)
        #expect(error.column == 85)
        #expect(error.file == "typographic-quote.plist")
        #expect(error.excerpt?.contains("^") == true)
        #expect(rule.explain(payload(["public.jpeg"])).activated == nil)
        #expect(rule.activates(payload(["public.jpeg"])) == nil)
    }

    @Test func aRuleWithoutAFileIsLocatedInItsOwnText() {
        let rule = ActivationRule(predicate: "a ==\n  b ==")
        let error = rule.diagnostics.first
        #expect(error?.line == 2)
        #expect(error?.file == nil)
    }

    @Test func bundleDeclarationFilesIncludeTheContainingApp() {
        let files = ActivationRule.bundleDeclarationFiles(for: Fixture.demoRule).map(\.lastPathComponent)
        #expect(files == ["Info.plist", "Info.plist"])
        #expect(ActivationRule.bundleDeclarationFiles(for: Fixture.rule("shape1-info-string")).isEmpty)
    }
}

/// Truncated and corrupted rule files: always a rule with diagnostics, never a trap.
struct RuleLoadingRobustnessTests {
    static let names = [
        "duplicate-key", "typographic-quote", "shape1-info-string", "shape1-info-string-binary", "misspelt-keys",
        "wrong-value-types",
    ]

    @Test(arguments: names) func everyPrefixLoadsWithoutTrapping(_ name: String) throws {
        let data = try Data(contentsOf: Fixture.rule(name))
        for length in stride(from: 0, through: data.count, by: 5) {
            let rule = ActivationRule(plistData: data.prefix(length), file: name)
            if rule.form == nil { #expect(rule.diagnostics.containsError) }
            _ = rule.explain(payload(["public.jpeg"]))
        }
    }

    @Test(arguments: names) func corruptedBytesLoadWithoutTrapping(_ name: String) throws {
        var data = try Data(contentsOf: Fixture.rule(name))
        var state: UInt64 = 42
        for _ in 0..<200 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let index = Int((state >> 33) % UInt64(data.count))
            data[index] = UInt8(truncatingIfNeeded: state >> 17)
            let rule = ActivationRule(plistData: data, file: name)
            _ = rule.activates(payload(["public.jpeg"], ["public.url"]))
        }
    }
}
