import Predicates
import Testing

struct FixtureTests {
    @Test func loadsEveryFixtureLine() {
        #expect(Fixtures.cases.count == 301)
    }

    /// The 14 UTI-CONFORMS-TO / UTI-EQUALS cases need the real type registry; the ActivationRules
    /// tests run them. Every other case must match Apple's result or be listed in deviations.json.
    @Test func exactlyTheListedCasesDeviateFromApple() {
        let relevant = Fixtures.cases.filter { !$0.usesUTIOperator }
        #expect(Fixtures.cases.count - relevant.count == 14)
        let deviating = Set(relevant.filter { $0.actual() != $0.expected }.map(\.id))
        let listed = Set(Fixtures.deviations.map(\.id))
        #expect(deviating.subtracting(listed).sorted() == [], "unexpected deviations")
        #expect(listed.subtracting(deviating).sorted() == [], "listed deviations that now pass: update deviations.json")
    }

    @Test func printerRoundTripsEveryFixturePredicateThatParses() throws {
        var parsed = 0
        for fixture in Fixtures.cases {
            guard let node = try? PredicateParser.parse(fixture.predicate) else { continue }
            parsed += 1
            let printed = PredicatePrinter.print(node)
            let reparsed = try PredicateParser.parse(printed)
            #expect(reparsed == node, "\(fixture.id): \(printed)")
            #expect(PredicatePrinter.print(reparsed) == printed, "\(fixture.id): printing is not stable")
        }
        #expect(parsed > 200)
    }
}

extension FixtureTests {
    /// The traced evaluation takes the general path everywhere; the fast path must agree with it.
    @Test func tracedAndFastEvaluationAgreeOnEveryFixture() throws {
        let conforms: @Sendable (String, String) -> Bool = { $0 == $1 || ($0 == "public.jpeg" && $1 == "public.image") }
        for fixture in Fixtures.cases {
            guard let compiled = try? CompiledPredicate(parsing: fixture.predicate) else { continue }
            let environment = EvaluationEnvironment(
                variables: fixture.variables, arguments: fixture.arguments, conforms: conforms)
            let fast = try? compiled.evaluate(fixture.object, environment: environment)
            let traced = try? compiled.trace(fixture.object, environment: environment).result.get()
            #expect(fast == traced, "\(fixture.id)")
        }
    }
}
