import ActivationRules
import Testing

@testable import ExtHostCommands

struct ArgumentParserTests {
    static let spec = CommandSpec(
        ["demo", "run"], summary: "A demo.", arguments: "FILE", positionalCount: 1...1,
        options: [
            .flag(.json, "Machine output."),
            .value(.timeout, "S", "Seconds."),
            .values(.declarations, "PLIST", "Declarations.", greedy: true),
        ]
    ) { _, _ in .success }

    @Test func parsesFlagsValuesAndGreedyLists() throws {
        let parsed = try ArgumentParser.parse(
            ["a.plist", "--json", "--timeout=5", "--declarations", "x.plist", "y.plist"], for: Self.spec)
        #expect(parsed.positionals == ["a.plist"])
        #expect(parsed[.json])
        #expect(try parsed.value(.timeout) == 5)
        #expect(parsed[.declarations] == ["x.plist", "y.plist"])
    }

    @Test func suggestsTheNearestOption() {
        #expect {
            try ArgumentParser.parse(["a", "--jsno"], for: Self.spec)
        } throws: { error in
            (error as? CommandError)?.message.contains("did you mean '--json'?") == true
        }
    }

    @Test func refusesAMissingValueAndWrongArgumentCount() {
        #expect(throws: CommandError.self) { try ArgumentParser.parse(["a", "--timeout"], for: Self.spec) }
        #expect(throws: CommandError.self) { try ArgumentParser.parse([], for: Self.spec) }
        #expect(throws: CommandError.self) { try ArgumentParser.parse(["a", "b"], for: Self.spec) }
        #expect(throws: CommandError.self) { try ArgumentParser.parse(["a", "--json=1"], for: Self.spec) }
    }

    @Test func editDistanceCountsTranspositionsOnce() {
        #expect(Suggestion.editDistance("conforms", "confroms") == 1)
        #expect(Suggestion.nearest(to: "tpyes", in: ["types", "rule", "share"]) == "types")
        #expect(Suggestion.nearest(to: "zzzzzz", in: ["types", "rule"]) == nil)
    }

    @Test func unknownCommandSuggestsAndExitsTwo() async {
        let context = CommandContext.collecting()
        let code = await ExtHostCommands.main(arguments: ["hlep"], context: context)
        #expect(code == .usage)
        #expect(context.collectedError.contains("did you mean 'help'?"))
    }

    @Test func jsonRendersInOrderWithEscapes() {
        let value = JSONValue.object([("b", .int(1)), ("a", .string("x\"\n")), ("c", .array([.bool(true), .null]))])
        #expect(value.rendered(pretty: false) == #"{"b":1,"a":"x\"\n","c":[true,null]}"#)
    }

    @Test(arguments: [0, 1, 3, 40_000])
    func aStreamedObjectPrintsExactlyAsTheWholeValue(count: Int) {
        let pairs: [(String, JSONValue)] = [
            ("group", .string("g\u{1}\"")), ("nested", .object([("k", .array([.int(1)]))])),
        ]
        func element(_ index: Int) -> JSONValue {
            .object([("sequence", .int(index)), ("name", .string("file \(index)\t.txt")), ("tags", .array([]))])
        }
        let trailing: [(String, JSONValue)] = [
            ("log", .string("a\nb")), ("timings", .object([("total", .double(1.5))])),
        ]
        let whole = JSONValue.object(pairs + [("items", .array((0..<count).map(element)))] + trailing).rendered()
        var chunks: [String] = []
        JSONValue.streamObject(pairs, array: "items", count: count, element: element, trailing: trailing) {
            chunks.append($0)
        }
        #expect(chunks.joined() == whole)
        #expect(count < 40_000 || chunks.count > 1)  // a large array arrives in several chunks
    }
}
