import Foundation
import Predicates
import Testing

struct EvaluatorTests {
    struct Case: Sendable, CustomStringConvertible {
        var predicate: String
        var object: PlistValue
        var expected: Bool?  // nil: evaluation error
        var description: String { predicate }
    }

    static let person: PlistValue = [
        "name": "Zoë Straße", "age": 42, "height": 1.8, "tags": ["a", "b"], "active": true,
        "scores": [3, 1, 2], "nested": ["x": ["y": 7]], "map": ["k": "v", "n": 2],
        "items": [["price": 2, "tags": ["p", "q"]], ["price": 5, "tags": ["q"]], ["price": 3]],
    ]

    @Test(arguments: [
        // comparison operators and spellings
        Case(predicate: "age = 42 AND age == 42 AND age != 1 AND age <> 1", object: person, expected: true),
        Case(
            predicate: "age < 43 AND age <= 42 AND age =< 42 AND age > 41 AND age >= 42 AND age => 42", object: person,
            expected: true),
        Case(predicate: "height == 1.8 AND active == 1 AND active == YES", object: person, expected: true),
        Case(predicate: "age == '42'", object: person, expected: false),
        Case(predicate: "age < 'x'", object: person, expected: nil),
        Case(predicate: "missing < 1 OR missing > 1 OR missing == 1", object: person, expected: false),
        // BETWEEN is inclusive
        Case(predicate: "age BETWEEN {42, 50} AND age BETWEEN {1, 42}", object: person, expected: true),
        Case(predicate: "age BETWEEN {43, 50}", object: person, expected: false),
        Case(predicate: "age BETWEEN {1, 2, 3}", object: person, expected: nil),
        // IN on arrays, dictionaries, strings
        Case(predicate: "'a' IN tags AND 'v' IN map AND 2 IN map AND 'Zo' IN name", object: person, expected: true),
        Case(predicate: "'k' IN map", object: person, expected: false),
        Case(predicate: "'A' IN[c] tags", object: person, expected: true),
        // CONTAINS on strings and collections, string options incl. diacritics
        Case(
            predicate: "name CONTAINS 'Str' AND tags CONTAINS 'b' AND scores CONTAINS 1.0", object: person,
            expected: true),
        Case(
            predicate: "name CONTAINS[c] 'straße' AND name BEGINSWITH[cd] 'zoe' AND name ENDSWITH[d] 'Straße'",
            object: person, expected: true),
        Case(predicate: "name BEGINSWITH 'zoë' OR name ==[c] 'zoe straße'", object: person, expected: false),
        Case(predicate: "name ==[cd] 'ZOE STRASSE' OR name ==[cd] 'zoe straße'", object: person, expected: true),
        Case(predicate: "age CONTAINS 'x'", object: person, expected: nil),
        // LIKE and MATCHES
        Case(
            predicate: "name LIKE 'Z?? *' AND name LIKE '*e' AND name LIKE[c] 'zoë*' AND NOT name LIKE 'Z?'",
            object: person, expected: true),
        Case(predicate: "'a*b' LIKE 'a\\\\*b' AND NOT 'axb' LIKE 'a\\\\*b'", object: nil, expected: true),
        Case(
            predicate: "name MATCHES 'Z.*e' AND name MATCHES[c] 'zoë.*' AND NOT name MATCHES 'Zo'", object: person,
            expected: true),
        Case(predicate: "'ab' MATCHES 'a|ab'", object: nil, expected: true),
        Case(predicate: "name MATCHES '(['", object: person, expected: nil),
        // key paths mapping over arrays, indexes, collection operators
        Case(
            predicate: "nested.x.y == 7 AND items.price == {2, 5, 3} AND items.tags == {{'p', 'q'}, {'q'}, nil}",
            object: person, expected: true),
        Case(
            predicate:
                "items[0].price == 2 AND items[LAST].price == 3 AND items[FIRST].price == 2 AND items[SIZE] == 3 AND map['k'] == 'v'",
            object: person, expected: true),
        Case(predicate: "items[3].price == 1", object: person, expected: nil),
        Case(predicate: "name.length == 1", object: person, expected: nil),
        Case(
            predicate:
                "items.@count == 3 AND items.@sum.price == 10 AND items.@max.price == 5 AND items.@min.price == 2 AND scores.@avg == 2",
            object: person, expected: true),
        Case(
            predicate:
                "items.@unionOfArrays.tags == {'p', 'q', 'q'} AND items.@distinctUnionOfArrays.tags == {'p', 'q'} AND items.@distinctUnionOfObjects.price == {2, 5, 3}",
            object: person, expected: true),
        Case(predicate: "map.@count == 2 AND missing.@count == nil", object: person, expected: true),
        Case(predicate: "name.@count == 1", object: person, expected: nil),
        // quantifiers
        Case(
            predicate: "ANY scores > 2 AND ALL scores > 0 AND NONE scores > 3 AND SOME tags == 'b'", object: person,
            expected: true),
        Case(predicate: "ANY items.tags CONTAINS 'p'", object: person, expected: true),
        Case(predicate: "ALL missing > 1 AND NOT ANY missing > 1", object: person, expected: true),
        Case(predicate: "ANY age > 1", object: person, expected: nil),
        // SUBQUERY
        Case(predicate: "SUBQUERY(items, $i, $i.price > 2).@count == 2", object: person, expected: true),
        Case(predicate: "SUBQUERY(items, $i, ANY $i.tags == 'q').price == {5}", object: nil, expected: false),
        Case(predicate: "SUBQUERY(items, $i, ANY $i.tags == 'q').price == {2, 5}", object: person, expected: true),
        Case(
            predicate: "SUBQUERY(items, $i, SUBQUERY($i.tags, $t, $t == 'q' AND $i.price > 4).@count > 0).@count == 1",
            object: person, expected: true),
        Case(predicate: "SUBQUERY(age, $i, TRUEPREDICATE).@count == 0", object: person, expected: nil),
        // arithmetic
        Case(
            predicate: "age + 1 == 43 AND age - 2 * 3 == 36 AND 2 ** 3 ** 2 == 512 AND -age == -42 AND age / 4 == 10.5",
            object: person, expected: true),
        Case(predicate: "9223372036854775807 + 1 > 0", object: nil, expected: true),
        Case(predicate: "age / 0 == 1", object: person, expected: nil),
        Case(predicate: "10 ** 400 == 1", object: nil, expected: nil),
        Case(predicate: "name + 1 == 1", object: person, expected: nil),
        // variables, SELF, nil
        Case(predicate: "$undefined == 1", object: person, expected: nil),
        Case(predicate: "SELF.age == 42 AND SELF != nil AND nil == nil", object: person, expected: true),
        // unsupported constructs evaluate to errors
        Case(predicate: "FUNCTION(age, 'x') == 1", object: person, expected: nil),
        Case(predicate: "CAST(age, 'NSString') == '42'", object: person, expected: nil),
        Case(predicate: "a == %@", object: person, expected: nil),
    ])
    func evaluates(_ testCase: Case) throws {
        let compiled = try CompiledPredicate(parsing: testCase.predicate)
        if let expected = testCase.expected {
            #expect(try compiled.evaluate(testCase.object) == expected)
        } else {
            #expect(throws: PredicateEvaluationError.self) { try compiled.evaluate(testCase.object) }
        }
    }

    @Test func utiOperatorsUseTheEnvironmentRelations() throws {
        let environment = EvaluationEnvironment(
            conforms: { type, parent in type == parent || (type == "public.jpeg" && parent == "public.image") },
            equalTypes: { $0 == $1 })
        let object: PlistValue = ["types": ["public.jpeg"], "one": "public.jpeg"]
        let any = try CompiledPredicate(parsing: "ANY types UTI-CONFORMS-TO 'public.image'")
        #expect(try any.evaluate(object, environment: environment))
        #expect(
            try !CompiledPredicate(parsing: "one UTI-EQUALS 'public.image'").evaluate(object, environment: environment))
        #expect(
            try !CompiledPredicate(parsing: "missing UTI-CONFORMS-TO 'public.image'").evaluate(
                object, environment: environment))
        let withoutAny = try CompiledPredicate(parsing: "types UTI-CONFORMS-TO 'public.image'")
        let error = try #require(throws: PredicateEvaluationError.self) {
            try withoutAny.evaluate(object, environment: environment)
        }
        #expect(error.kind == .typeMismatch)
        #expect(error.message.contains("use ANY"))
        // The default relation is case-insensitive equality only.
        #expect(try CompiledPredicate(parsing: "one UTI-CONFORMS-TO 'PUBLIC.JPEG'").evaluate(object))
        #expect(try !any.evaluate(object))
    }

    @Test func substitutesFormatArgumentsWhenGiven() throws {
        let compiled = try CompiledPredicate(parsing: "%K == %@ AND b == %d")
        let environment = EvaluationEnvironment(arguments: ["a", 1, 2])
        #expect(try compiled.evaluate(["a": 1, "b": 2], environment: environment))
        let error = try #require(throws: PredicateEvaluationError.self) {
            try compiled.evaluate(["a": 1], environment: EvaluationEnvironment(arguments: ["a"]))
        }
        #expect(error.kind == .missingArgument)
    }

    @Test func evaluationErrorsCarryTheNodeRange() throws {
        let source = "a == 1 AND $nope == 2"
        let error = try #require(throws: PredicateEvaluationError.self) {
            try CompiledPredicate(parsing: source).evaluate(["a": 1])
        }
        #expect(error.kind == .undefinedVariable)
        #expect(error.range == SourceRange(11..<16))
    }

    @Test func runawayEvaluationStopsAtTheStepBudget() throws {
        let big = PlistValue.array(Array(repeating: PlistValue.array(Array(repeating: 1, count: 1000)), count: 1000))
        let compiled = try CompiledPredicate(
            parsing:
                "SUBQUERY(SELF, $a, SUBQUERY($a, $b, SUBQUERY($a, $c, TRUEPREDICATE).@count > 0).@count > 0).@count > 0"
        )
        let error = try #require(throws: PredicateEvaluationError.self) {
            try compiled.evaluate(big, environment: EvaluationEnvironment(maxSteps: 100_000))
        }
        #expect(error.kind == .budgetExceeded)
    }

    @Test func traceRecordsValuesAndTheDecisiveChild() throws {
        let compiled = try CompiledPredicate(parsing: "a == 1 AND (ANY tags == 'x' OR b > 2)")
        let trace = compiled.trace(["a": 1, "tags": ["y", "x"], "b": 0])
        #expect((try? trace.result.get()) == true)
        #expect(trace.root.text == "a == 1 AND (ANY tags == \"x\" OR b > 2)")
        #expect(trace.root.children.count == 2)
        let or = trace.root.children[1]
        #expect(or.text == "ANY tags == \"x\" OR b > 2")
        #expect(or.children.count == 1)
        let any = or.children[0]
        #expect(any.isDecisive)
        #expect(any.children.map(\.text) == ["tags", "\"x\"", "[0] \"y\"", "[1] \"x\""])
        #expect(any.children.last?.isDecisive == true)
        let failing = compiled.trace(["a": 2])
        #expect((try? failing.result.get()) == false)
        #expect(failing.root.children.count == 1)
        #expect(failing.root.children[0].isDecisive)
        if case .bool(false) = failing.root.children[0].value {} else { Issue.record("expected false") }
    }

    @Test func convertsJSONSerializationOutput() throws {
        let json = #"{"b": true, "i": 1, "r": 1.5, "s": "x", "n": null, "a": [1, "y"]}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let value = try #require(PlistValue(json: object))
        #expect(value == ["b": true, "i": 1, "r": 1.5, "s": "x", "n": nil, "a": [1, "y"]])
        #expect(PlistValue(plist: ["d": Data([1]), "t": true] as [String: Any]) == ["d": .data(Data([1])), "t": true])
    }
}
