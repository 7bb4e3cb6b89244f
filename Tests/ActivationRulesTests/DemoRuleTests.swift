import ActivationRules
import Foundation
import Predicates
import Testing
import UniformTypes

/// The demo extension's rule (Containers/Bundles/CardDrop.app/PlugIns/Share.appex/Info.plist)
/// against the types of the demo items in Containers/Bundles/DemoItems.
struct DemoRuleTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var payload: ActivationPayload
        var expected: Bool
        var description: String { name }
    }

    /// photo.png, menu.pdf, note.txt and alice.card, as a file share registers them.
    static let photo = ["public.png"]
    static let menu = ["com.adobe.pdf"]
    static let note = ["public.plain-text"]
    static let card = ["com.example.carddrop.card"]

    static let cases: [Case] = [
        Case(name: "photo.png", payload: ActivationPayload(items: [item(photo)]), expected: true),
        Case(name: "menu.pdf", payload: ActivationPayload(items: [item(menu)]), expected: true),
        Case(name: "note.txt", payload: ActivationPayload(items: [item(note)]), expected: true),
        Case(name: "alice.card", payload: ActivationPayload(items: [item(card)]), expected: true),
        Case(
            name: "all four in one item", payload: ActivationPayload(items: [item(photo, menu, note, card)]),
            expected: true),
        Case(
            name: "a web page", payload: ActivationPayload(items: [item(["public.url"])], isWebpage: true),
            expected: true),
        Case(name: "a movie", payload: ActivationPayload(items: [item(["public.mpeg-4"])]), expected: false),
        Case(
            name: "a photo and a movie", payload: ActivationPayload(items: [item(photo, ["public.mpeg-4"])]),
            expected: false),
        Case(
            name: "a movie item and a photo item",
            payload: ActivationPayload(items: [item(["public.mpeg-4"]), item(photo)]),
            expected: true),
        Case(name: "nothing shared", payload: ActivationPayload(items: []), expected: false),
    ]

    @Test(arguments: cases) func demoRuleAgainstDemoItems(_ testCase: Case) throws {
        let rule = try ActivationRule.load(contentsOf: Fixture.demoRule, registry: Fixture.registry)
        #expect(rule.form == .predicate)
        #expect(rule.diagnostics.isEmpty, "\(rule.diagnostics)")
        #expect(rule.usesSpecialisedEvaluator)
        #expect(rule.checkedActivates(testCase.payload) == testCase.expected)
    }

    @Test func withoutTheAppsDeclarationsTheCardTypeIsUnknown() throws {
        let rule = try ActivationRule.load(contentsOf: Fixture.demoRule)
        #expect(rule.diagnostics.map(\.code) == [.unknownType])
        // An undeclared identifier still equals itself.
        #expect(rule.checkedActivates(ActivationPayload(items: [item(Self.card)])) == true)
    }

    @Test func theDemoItemsExist() {
        for name in ["photo.png", "menu.pdf", "note.txt", "alice.card"] {
            let path = Fixture.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems/\(name)").path
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }
}
