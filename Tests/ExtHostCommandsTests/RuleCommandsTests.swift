import ActivationRules
import Foundation
import Testing

@testable import ExtHostCommands

/// `exthost rule …`, driven in-process and through the built binary (`swift build` first).
struct RuleCommandsTests {
    static let root = TypesCommandsTests.packageRoot
    static let demo = "Containers/Bundles/CardDrop.app/PlugIns/Share.appex/Info.plist"
    static let rules = "Tests/ActivationRulesTests/Fixtures/rules"

    /// Payload files written once per test process.
    static let payloads: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rule-commands-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = [
            "photo": #"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.png"]}]}]}"#,
            "movie":
                #"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.mpeg-4"]}, {"registeredTypeIdentifiers": ["public.jpeg"]}]}]}"#,
            "safari":
                #"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.url"]}]}, {"attachments": [{"registeredTypeIdentifiers": ["public.plain-text"]}]}], "webpage": true}"#,
            "broken": #"{"extensionItems": [{"attachments": 3}]}"#,
        ]
        for (name, text) in files {
            try? Data(text.utf8).write(to: directory.appendingPathComponent("\(name).json"))
        }
        return directory
    }()

    static func payload(_ name: String) -> String { payloads.appendingPathComponent("\(name).json").path }
    static func rule(_ name: String) -> String { "\(rules)/\(name).plist" }

    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let exit: ExitCode
        var stdoutContains: [String] = []
        var stderrContains: [String] = []
        var stdoutLacks: [String] = []
        var testDescription: String { "exthost " + arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(
            arguments: ["rule", "check", demo, "--payload-json", payload("photo")], exit: .success,
            stdoutContains: ["\(demo): activates (predicate)", "predicate: SUBQUERY(extensionItems, $extensionItem"]),
        Case(
            arguments: ["rule", "check", demo, "--payload-json", payload("movie")], exit: .no,
            stdoutContains: ["does not activate"]),
        Case(
            arguments: ["rule", "check", rule("typographic-quote"), "--payload-json", payload("photo")], exit: .usage,
            stdoutContains: ["cannot be evaluated"],
            stderrContains: [
                "\(rule("typographic-quote")):9:85: error: unterminated string: typographic quote ” is not a string delimiter",
                "[typographic-quote]", "^",
            ]),
        Case(
            arguments: ["rule", "check", rule("true-predicate"), "--payload-json", payload("photo")], exit: .usage,
            stderrContains: ["error: TRUEPREDICATE activates for everything", "[true-predicate]"]),
        Case(
            arguments: [
                "rule", "check", rule("true-predicate"), "--payload-json", payload("photo"),
                "--allow-development-rules",
            ],
            exit: .success, stderrContains: ["warning: TRUEPREDICATE"]),
        Case(
            arguments: ["rule", "check", rule("shape3-root-dictionary"), "--payload-json", payload("photo")],
            exit: .success,
            stdoutContains: [
                "activates (dictionary)", "derived predicate: extensionItems.@sum.attachments.@count >= 1 AND",
            ]),
        Case(
            arguments: ["rule", "check", rule("missing-rule"), "--payload-json", payload("photo")], exit: .usage,
            stdoutContains: ["does not activate (no rule)"], stderrContains: ["[missing-rule]"]),
        // ITEMS: the demo items, typed with the CardDrop app's declarations (alice.card is its card type).
        Case(
            arguments: ["rule", "check", demo, "Containers/Bundles/DemoItems"], exit: .success,
            stdoutContains: ["\(demo): activates (predicate)"]),
        Case(
            arguments: ["rule", "explain", demo, "Containers/Bundles/DemoItems"], exit: .success,
            stdoutContains: ["com.example.carddrop.card"]),
        Case(
            arguments: ["rule", "check", rule("shape1-info-dictionary"), "Containers/Bundles/NoSuchItems"],
            exit: .usage, stderrContains: ["Containers/Bundles/NoSuchItems: no such file or folder"]),
        Case(
            arguments: ["rule", "check", rule("shape3-root-web-page"), "--payload", "safari-webpage"], exit: .success,
            stdoutContains: ["activates (dictionary)"]),
        Case(
            arguments: ["rule", "check", rule("shape3-root-web-page"), "--payload", "photos-video"], exit: .no),
        Case(
            arguments: ["rule", "check", rule("shape1-info-dictionary"), "--payload", "safari"], exit: .usage,
            stderrContains: ["no such preset; known: safari-webpage"]),
        Case(
            arguments: [
                "rule", "check", rule("shape1-info-dictionary"), "Containers/Bundles/DemoItems", "--payload",
                "safari-webpage",
            ],
            exit: .usage, stderrContains: ["give one payload"]),
        Case(
            arguments: ["rule", "check", rule("shape1-info-dictionary")], exit: .usage,
            stderrContains: ["needs a payload: ITEMS, --payload NAME or --payload-json FILE"]),
        Case(
            arguments: ["rule", "check", demo, "--payload-json", payload("broken")], exit: .usage,
            stderrContains: ["extensionItems[0].attachments must be an array, not a number"]),
        Case(
            arguments: ["rule", "check", rule("no-such-rule"), "--payload-json", payload("photo")], exit: .usage,
            stderrContains: ["error: cannot read", "[unreadable]"]),
        Case(
            arguments: [
                "rule", "check", rule("shape1-info-dictionary"), "--payload-json", payload("photo"), "--declarations",
                "nope.plist",
            ],
            exit: .usage, stderrContains: ["nope.plist"]),
        // The web page: the strict web-page rule fails on the whole share and succeeds on the retry.
        Case(
            arguments: ["rule", "explain", rule("shape3-root-web-page"), "--payload-json", payload("safari")],
            exit: .success,
            stdoutContains: ["retry on only the items with com.apple.active-webpage (1 item, 1 attachment) → true"]),
        Case(
            arguments: [
                "rule", "check", rule("shape3-root-web-page"), "--payload-json", payload("safari"),
                "--no-webpage-retry",
            ],
            exit: .no),
        Case(
            arguments: ["rule", "explain", demo, "--payload-json", payload("movie")], exit: .no,
            stdoutContains: [
                "* NSExtensionActivationRule (predicate) → does not activate",
                #"[0] $attachment = {"registeredTypeIdentifiers": {"public.mpeg-4"}} → false"#, "← decided here",
            ],
            stdoutLacks: ["\u{1B}["]),
        Case(
            arguments: ["rule", "explain", rule("shape1-info-dictionary"), "--payload-json", payload("movie")],
            exit: .no,
            stdoutContains: [
                "attachment 1 [public.mpeg-4]: movie (public.mpeg-4 conforms to public.movie) → no key accepts it",
                "← decided here",
            ]),
        Case(
            arguments: ["rule", "lint", rule("shape1-info-string"), rule("misspelt-keys")], exit: .success,
            stdoutContains: [
                "\(rule("shape1-info-string")): no problems",
                "\(rule("misspelt-keys")):7:3: warning: unknown key 'NSExtensionActivationSupportsVideoWithMaxCount'",
                "0 errors, 3 warnings in 2 files",
            ]),
        Case(
            arguments: ["rule", "lint", rule("comment"), rule("refused"), rule("no-such-rule")], exit: .failure,
            stdoutContains: [
                "[comment]", "[format-argument]", "[function]", "[unreadable]", "4 errors, 0 warnings in 3 files",
            ]),
        Case(
            arguments: [
                "rule", "matrix", demo, rule("shape3-root-dictionary"), "--payload-json", payload("photo"),
                payload("movie"),
            ],
            exit: .success,
            stdoutContains: ["rule", "photo", "movie", "yes", "no"]),
        Case(
            arguments: ["rule", "matrix", demo, rule("typographic-quote"), "--payload-json", payload("photo")],
            exit: .usage,
            stdoutContains: ["error"], stderrContains: ["[typographic-quote]"]),
        // No payload options: every preset is a column.
        Case(
            arguments: ["rule", "matrix", demo], exit: .success,
            stdoutContains: ["safari-webpage", "photos-live-photo", "settings-analytics-ips"]),
        Case(
            arguments: [
                "rule", "matrix", demo, "--payload", "photos-video", "contacts-vcard", "--items",
                "Containers/Bundles/DemoItems",
            ],
            exit: .success, stdoutContains: ["photos-video", "contacts-vcard", "DemoItems", "yes", "no"]),
        Case(
            arguments: ["rule", "matrix", demo, "--payload", "safari"], exit: .usage,
            stderrContains: ["no such preset"]),
        Case(arguments: ["rule"], exit: .usage, stdoutContains: ["exthost rule check", "exthost rule matrix"]),
    ]

    @Test(arguments: cases) func commandInProcess(_ c: Case) async {
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(arguments: c.arguments, context: context)
        #expect(code == c.exit, "stderr: \(context.collectedError)")
        for text in c.stdoutContains {
            #expect(context.collectedOutput.contains(text), "stdout: \(context.collectedOutput)")
        }
        for text in c.stdoutLacks { #expect(!context.collectedOutput.contains(text)) }
        for text in c.stderrContains {
            #expect(context.collectedError.contains(text), "stderr: \(context.collectedError)")
        }
    }

    @Test(arguments: cases.filter { $0.arguments.count > 2 }) func commandThroughTheBinary(_ c: Case) async throws {
        let result = try await TypesCommandsTests.runBinary(c.arguments)
        #expect(result.status == c.exit.rawValue, "stderr: \(result.stderr)")
        for text in c.stdoutContains { #expect(result.stdout.contains(text), "stdout: \(result.stdout)") }
        for text in c.stdoutLacks { #expect(!result.stdout.contains(text)) }
        for text in c.stderrContains { #expect(result.stderr.contains(text), "stderr: \(result.stderr)") }
    }

    @Test func checkJSONHasTheContractFields() async throws {
        let result = try await TypesCommandsTests.runBinary([
            "rule", "check", Self.rule("shape3-root-dictionary"), "--payload-json", Self.payload("movie"), "--json",
        ])
        #expect(result.status == 3)
        let report = try JSONDecoder().decode(RuleReports.Evaluation.self, from: Data(result.stdout.utf8))
        #expect(report.form == "dictionary")
        #expect(report.predicate?.hasPrefix("extensionItems.@sum.attachments.@count >= 1") == true)
        #expect(report.activated == false)
        #expect(report.diagnostics.isEmpty)
        let explanation = try #require(report.explanation)
        #expect(explanation.text == "NSExtensionActivationRule (dictionary)")
        #expect(explanation.value == "does not activate")
        #expect(explanation.isDecisive)
        #expect(explanation.children.count == 1)
        // The node's own fields come before its subtree.
        let keys = ["text", "value", "decisive", "children"].compactMap { result.stdout.range(of: "\"\($0)\":") }
        #expect(keys.count == 4 && keys.map(\.lowerBound) == keys.map(\.lowerBound).sorted())
    }

    @Test func checkJSONOfABrokenRuleHasNullAndLocatedDiagnostics() async throws {
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(
            arguments: [
                "rule", "check", Self.rule("typographic-quote"), "--payload-json", Self.payload("photo"), "--json",
            ],
            context: context)
        #expect(code == .usage)
        let output = context.collectedOutput
        let report = try JSONDecoder().decode(RuleReports.Evaluation.self, from: Data(output.utf8))
        #expect(report.activated == nil && output.contains(#""activated": null"#), "present, as null")
        #expect(report.form == "predicate")
        let diagnostic = try #require(report.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.code == "typographic-quote")
        #expect(diagnostic.line == 9)
        #expect(diagnostic.column == 85)
        #expect(diagnostic.file == Self.rule("typographic-quote"))
    }

    @Test func matrixJSONHasRulesPayloadsResultsAndDiagnostics() async throws {
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(
            arguments: [
                "rule", "matrix", Self.demo, Self.rule("comment"), "--payload-json", Self.payload("photo"),
                Self.payload("movie"),
                "--json",
            ], context: context)
        #expect(code == .usage)
        let report = try JSONDecoder().decode(RuleReports.Matrix.self, from: Data(context.collectedOutput.utf8))
        #expect(report.rules == [Self.demo, Self.rule("comment")])
        #expect(report.payloads == [Self.payload("photo"), Self.payload("movie")])
        #expect(report.results.count == 2)
        #expect(report.results.first == [true, false])
        #expect(report.results.last?.isEmpty == false && report.results.last?.allSatisfy { $0 == nil } == true)
        #expect(report.diagnostics[Self.demo]?.isEmpty == true)
        #expect(report.diagnostics[Self.rule("comment")]?.first?.code == "comment")
    }

    @Test func lintJSONListsEveryFile() async throws {
        let context = CommandContext.collecting(currentDirectory: Self.root.path)
        let code = await ExtHostCommands.main(
            arguments: ["rule", "lint", Self.rule("duplicate-key"), Self.rule("all-zero"), "--json"], context: context)
        #expect(code == .success)
        let files = try JSONDecoder().decode(RuleReports.Lint.self, from: Data(context.collectedOutput.utf8)).files
        #expect(files.map(\.file) == [Self.rule("duplicate-key"), Self.rule("all-zero")])
        let first = try #require(files.first?.diagnostics.first)
        #expect(first.code == "duplicate-key")
        #expect(first.line == 11)
    }
}
