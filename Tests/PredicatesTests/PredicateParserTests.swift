import Foundation
import Predicates
import Testing

struct PredicateParserTests {
    struct Diagnostic: Sendable, CustomStringConvertible {
        var source: String
        var code: PredicateSyntaxError.Code
        var line: Int
        var column: Int
        var messageContains: String
        var description: String { source }
    }

    @Test(arguments: [
        Diagnostic(
            source: "name == \u{201C}x\u{201D}", code: .typographicQuote, line: 1, column: 9,
            messageContains: "typographic quote \u{201C} is not a string delimiter; use \""),
        Diagnostic(
            source: "name == \"x\u{201D}", code: .typographicQuote, line: 1, column: 11,
            messageContains: "typographic quote \u{201D} is not a string delimiter; use \""),
        Diagnostic(
            source: "a == 1 // note", code: .comment, line: 1, column: 8, messageContains: "comments are not allowed"),
        Diagnostic(source: "a == 1\n  /* x */", code: .comment, line: 2, column: 3, messageContains: "comments"),
        Diagnostic(
            source: "name == 'abc", code: .unterminatedString, line: 1, column: 9,
            messageContains: "unterminated string"),
        Diagnostic(
            source: "a ==", code: .unexpectedEnd, line: 1, column: 3, messageContains: "after '==', but the input ends"),
        Diagnostic(source: "a == 1 AND", code: .unexpectedEnd, line: 1, column: 8, messageContains: "after AND"),
        Diagnostic(
            source: "((a == 1)", code: .unclosedParenthesis, line: 1, column: 1, messageContains: "unclosed '('"),
        Diagnostic(
            source: "(a == 1))", code: .unmatchedParenthesis, line: 1, column: 9, messageContains: "unmatched ')'"),
        Diagnostic(source: "a == 1;", code: .unknownCharacter, line: 1, column: 7, messageContains: "';'"),
        Diagnostic(source: "", code: .emptyInput, line: 1, column: 1, messageContains: "empty"),
        Diagnostic(source: "  \n ", code: .emptyInput, line: 2, column: 2, messageContains: "empty"),
        Diagnostic(source: "a", code: .expectedPredicate, line: 1, column: 1, messageContains: "not a predicate"),
        Diagnostic(source: "a 1", code: .unexpectedToken, line: 1, column: 3, messageContains: "comparison operator"),
        Diagnostic(
            source: "name ==[x] 'a'", code: .invalidOption, line: 1, column: 9,
            messageContains: "unknown string option 'x'"),
        Diagnostic(
            source: "SUBQUERY(items, x, x > 1).@count == 1", code: .invalidSubquery, line: 1, column: 17,
            messageContains: "$variable"),
        Diagnostic(source: "a == %", code: .invalidArgument, line: 1, column: 6, messageContains: "format argument"),
        Diagnostic(source: "$ == 1", code: .missingName, line: 1, column: 1, messageContains: "variable name"),
        Diagnostic(
            source: "a..b == 1", code: .unexpectedToken, line: 1, column: 2, messageContains: "empty key path component"
        ),
        Diagnostic(source: "a IN {1,,2}", code: .unexpectedToken, line: 1, column: 9, messageContains: "empty element"),
    ])
    func reportsLocatedSyntaxErrors(_ diagnostic: Diagnostic) {
        #expect(throws: PredicateSyntaxError.self) { try PredicateParser.parse(diagnostic.source) }
        do {
            _ = try PredicateParser.parse(diagnostic.source)
        } catch {
            #expect(error.code == diagnostic.code, "\(error)")
            #expect(error.line == diagnostic.line, "\(error)")
            #expect(error.column == diagnostic.column, "\(error)")
            #expect(error.message.contains(diagnostic.messageContains), "\(error)")
        }
    }

    @Test func rendersTheSourceLineWithACaret() throws {
        let source = "a == 1 AND\nname == \u{201C}x\u{201D}"
        let error = try #require(throws: PredicateSyntaxError.self) { try PredicateParser.parse(source) }
        #expect(
            error.render(source: source) == """
                2:9: typographic-quote: typographic quote \u{201C} is not a string delimiter; use "
                    name == \u{201C}x\u{201D}
                            ^
                """)
    }

    @Test func acceptsThousandNestedParenthesesLikeApple() throws {
        let source = String(repeating: "(", count: 1000) + "a == 1" + String(repeating: ")", count: 1000)
        let node = try PredicateParser.parse(source)
        #expect(node == (try PredicateParser.parse("a == 1")))
    }

    @Test func rejectsFiveHundredDeepNestingCleanlyUnderATighterLimit() throws {
        let source = String(repeating: "(", count: 500) + "a == 1" + String(repeating: ")", count: 500)
        let error = try #require(throws: PredicateSyntaxError.self) {
            try PredicateParser.parse(source, limits: ParserLimits(maxDepth: 256))
        }
        #expect(error.code == .nestingTooDeep)
        #expect(error.column == 257)
    }

    /// Deep nesting is refused at the limit, not by exhausting the stack (how fast is bench-rules' business:
    /// tests never assert on wall time).
    @Test func rejectsHundredThousandParentheses() throws {
        for opener in ["(", "NOT ", "-", "{", "a[", "!"] {
            let source = String(repeating: opener, count: 100_000) + "1"
            let error = try #require(throws: PredicateSyntaxError.self) { try PredicateParser.parse(source) }
            #expect(error.code == .nestingTooDeep, "\(opener): \(error)")
        }
        let chain = Array(repeating: "1", count: 100_000).joined(separator: " + ") + " == 1"
        let error = try #require(throws: PredicateSyntaxError.self) { try PredicateParser.parse(chain) }
        #expect(error.code == .nestingTooDeep)
    }

    @Test func rejectsOverlongInput() throws {
        let source = "a == '" + String(repeating: "x", count: 1 << 20) + "'"
        let error = try #require(throws: PredicateSyntaxError.self) { try PredicateParser.parse(source) }
        #expect(error.code == .inputTooLong)
    }

    @Test func parsesKeywordsCaseInsensitivelyAndEscapedKeys() throws {
        let lower = try PredicateParser.parse("any a.#size in {1} and not b beginswith[cd] 'x' or truepredicate")
        #expect(lower.description == "ANY a.#size IN {1} AND NOT b BEGINSWITH[cd] \"x\" OR TRUEPREDICATE")
    }

    @Test func parsesNumbersInEveryBase() throws {
        let node = try PredicateParser.parse("a == 0x1F + 0o17 + 0b101 + 1.5e-1 + 2E3")
        #expect(node.description == "a == 31 + 15 + 5 + 0.15 + 2000.0")
    }

    @Test func representsUnsupportedConstructsForLocatedReporting() throws {
        let node = try PredicateParser.parse("FUNCTION(a, 'x') == CAST(1, 'NSNumber') AND $v := 2 == %@ AND %K == 1")
        guard case .and(let parts) = node.kind, case .comparison(let first) = parts[0].kind,
            case .comparison(let second) = parts[1].kind
        else {
            Issue.record("unexpected shape \(node)")
            return
        }
        #expect(first.left.kind == .function(name: "FUNCTION", arguments: first.left.functionArguments))
        #expect(first.left.range == SourceRange(0..<16))
        if case .assignment(let name, _) = second.left.kind {
            #expect(name == "v")
        } else {
            Issue.record("no assignment")
        }
        if case .argument(let index, let specifier) = second.right.kind {
            #expect(index == 0 && specifier == "@")
        } else {
            Issue.record("no argument")
        }
    }

    @Test func precedenceIsNotThenAndThenOr() throws {
        let node = try PredicateParser.parse("a == 1 OR b == 2 AND NOT c == 3")
        guard case .or(let children) = node.kind, case .and(let conjuncts) = children[1].kind,
            case .not = conjuncts[1].kind
        else {
            Issue.record("wrong precedence: \(node)")
            return
        }
        #expect(children.count == 2)
    }
}

extension ExpressionNode {
    fileprivate var functionArguments: [ExpressionNode] {
        if case .function(_, let arguments) = kind { return arguments }
        return []
    }
}

extension PredicateParserTests {
    @Test(arguments: [
        "a == -1 AND b == -(c + 1) AND d == (1 - 2) - 3 AND e == 1 - (2 - 3) AND f == 2 ** (3 ** 2) AND g == (2 ** 3) ** 2",
        "name == \"tab\\tquote\\\"back\\\\slash\\u0001\" AND 'it\\'s' != nil",
        "%K == %@ AND FUNCTION(SELF, 'x', 1) == CAST('1', 'NSNumber') AND $v := 3 == 3",
        "NOT (a == 1 OR b == 2) AND (c == 3 OR d == 4) AND NOT NOT TRUEPREDICATE",
        "SOME a.@sum.b[FIRST][LAST][SIZE][0]['k'].#in == SELF[1] AND $x.#self.@count == {1, {2, 'x'}, {}}",
        "a.b == (1 + 2).c",
    ])
    func printerOutputParsesToTheSameTree(_ source: String) throws {
        let node = try PredicateParser.parse(source)
        let printed = PredicatePrinter.print(node)
        #expect(try PredicateParser.parse(printed) == node, "\(printed)")
    }

    @Test func deepPredicatesEvaluateTraceAndPrintWithoutExhaustingTheStack() throws {
        let source = String(repeating: "NOT ", count: 1000) + "a == 1"
        let compiled = try CompiledPredicate(parsing: source)
        #expect(try compiled.evaluate(["a": 1]))
        #expect((try? compiled.trace(["a": 1]).result.get()) == true)
        #expect(PredicatePrinter.print(compiled.predicate).count == source.count)
    }
}
