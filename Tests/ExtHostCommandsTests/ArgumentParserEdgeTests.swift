import Testing

@testable import ExtHostCommands

/// The argument parser's short options, `-h`, negative numbers as arguments, numeric values that
/// are not numbers, and the argument-count messages for open and closed ranges.
struct ArgumentParserEdgeTests {
    static let spec = CommandSpec(
        ["demo", "numbers"], summary: "A demo.", arguments: "N…", positionalCount: 1...Int.max,
        options: [
            .flag(.json, short: "j", "Machine output."),
            .value(.limit, "S", "Seconds."),
            .value(.repeatCount, "N", "Times."),
        ]
    ) { _, _ in .success }

    static let pair = CommandSpec(
        ["demo", "pair"], summary: "A demo.", arguments: "A [B]", positionalCount: 1...2, options: []
    ) { _, _ in .success }

    func message(_ words: [String], _ spec: CommandSpec = Self.spec) -> String? {
        do {
            _ = try ArgumentParser.parse(words, for: spec)
            return nil
        } catch {
            return (error as? CommandError)?.message
        }
    }

    @Test func shortOptionsHelpAndNegativeNumbers() throws {
        let parsed = try ArgumentParser.parse(["-j", "-3", "-0.5", "7"], for: Self.spec)
        #expect(parsed[.json] && parsed.positionals == ["-3", "-0.5", "7"])
        let help = try ArgumentParser.parse(["-h"], for: Self.spec)
        #expect(help.options["help"] != nil, "-h asks for help even where no argument is given")
        #expect(message(["1", "-z"]) == "unknown option '-z'")
        #expect(message(["1", "-jx"]) == "unknown option '-jx'")
    }

    @Test func numbersThatAreNotNumbersAreNamed() throws {
        let parsed = try ArgumentParser.parse(["1", "--repeat", "three", "--limit", "inf"], for: Self.spec)
        #expect(throws: CommandError.self) { try parsed.value(.repeatCount) }
        #expect((try? parsed.value(.repeatCount)) == nil)
        do {
            _ = try parsed.value(.repeatCount)
        } catch let error as CommandError {
            #expect(error.message == "--repeat takes a whole number, not 'three'")
        }
        do {
            _ = try parsed.value(.limit)
            Issue.record("an infinite limit was accepted")
        } catch let error as CommandError {
            #expect(error.message == "--limit takes a number, not 'inf'")
        }
    }

    @Test func argumentCountsAreExplained() {
        #expect(message([]) == "expected at least 1 argument(s) (N…), got none")
        #expect(message(["a", "b", "c"], Self.pair) == "expected 1 to 2 arguments (A [B]), got 'a' 'b' 'c'")
    }
}
