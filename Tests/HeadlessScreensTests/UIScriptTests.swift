import HeadlessScreens
import Testing

struct UIScriptTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var actions: [UIScript.Step.Action]
        var description: String { text }
    }

    @Test(arguments: [
        Case(text: "tap Post", actions: [.tap(.title("Post"))]),
        Case(text: "  tap   Save draft  ", actions: [.tap(.title("Save draft"))]),
        Case(text: "tap #saveButton", actions: [.tap(.identifier("saveButton"))]),
        Case(text: "tap \"#1 choice\"", actions: [.tap(.title("#1 choice"))]),
        Case(text: "type Hello, world", actions: [.type("Hello, world")]),
        Case(text: "type \"  two\\tspaces\\n\"", actions: [.type("  two\tspaces\n")]),
        Case(text: "alert OK", actions: [.alert("OK")]),
        Case(text: "select 3", actions: [.select(.number(3))]),
        Case(text: "select Work", actions: [.select(.title("Work"))]),
        Case(text: "select \"2\"", actions: [.select(.title("2"))]),
        Case(text: "wait", actions: [.wait(seconds: nil)]),
        Case(text: "WAIT 2.5", actions: [.wait(seconds: 2.5)]),
        Case(
            text: "tap Title; type Trip; tap \"Post;Now\"",
            actions: [.tap(.title("Title")), .type("Trip"), .tap(.title("Post;Now"))]),
        Case(text: "# a comment\n\n   # indented comment\ntap Post\r\n", actions: [.tap(.title("Post"))]),
    ])
    func parses(_ example: Case) throws {
        #expect(try UIScript.parse(example.text).steps.map(\.action) == example.actions)
    }

    @Test func stepsKeepTheirLineColumnAndSource() throws {
        let script = try UIScript.parse("# title\n  tap Title ; type Trip  \nwait")
        #expect(script.steps.map(\.line) == [2, 2, 3])
        #expect(script.steps.map(\.column) == [3, 15, 1])
        #expect(script.steps.map(\.source) == ["tap Title", "type Trip", "wait"])
        #expect(script.steps[1].description == "line 2: type Trip")
    }

    struct Mistake: Sendable, CustomStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var message: String
        var description: String { text }
    }

    @Test(arguments: [
        Mistake(
            text: "click Post", line: 1, column: 1,
            message: "unknown step 'click'; expected tap, type, alert, select or wait"),
        Mistake(text: "tap Post\n  press", line: 2, column: 3, message: "unknown step 'press'"),
        Mistake(text: "tap", line: 1, column: 4, message: "'tap' needs a title"),
        Mistake(text: "tap #", line: 1, column: 5, message: "'tap #' needs an identifier"),
        Mistake(text: "type   ", line: 1, column: 8, message: "'type' needs the text to type"),
        Mistake(text: "alert", line: 1, column: 6, message: "'alert' needs the title"),
        Mistake(text: "select 0", line: 1, column: 8, message: "rows count from 1"),
        Mistake(text: "wait soon", line: 1, column: 6, message: "'wait' takes a number of seconds"),
        Mistake(text: "type \"open", line: 1, column: 6, message: "this quote is not closed"),
        Mistake(text: "type \"a\" b", line: 1, column: 10, message: "unexpected text after the closing quote"),
        Mistake(text: "type \"a\\q\"", line: 1, column: 8, message: "unknown escape '\\q'"),
        Mistake(text: "tap2 x", line: 1, column: 1, message: "unknown step 'tap2'"),
    ])
    func reportsMistakesWithLineAndColumn(_ mistake: Mistake) {
        do {
            _ = try UIScript.parse(mistake.text, source: "steps.txt")
            Issue.record("parsed \(mistake.text)")
        } catch {
            #expect(error.line == mistake.line)
            #expect(error.column == mistake.column)
            #expect(error.message.hasPrefix(mistake.message), "\(error.message)")
            #expect(error.description.hasPrefix("steps.txt:\(mistake.line):\(mistake.column): "))
        }
    }

    @Test func anInlineScriptsErrorNamesLineAndColumn() {
        #expect(
            throws: UIScriptError(
                line: 1, column: 1, message: "unknown step 'jump'; expected tap, type, alert, select or wait")
        ) {
            try UIScript.parse("jump")
        }
        #expect(UIScriptError(line: 2, column: 3, message: "m").description == "line 2, column 3: m")
    }

    @Test func aStepWrittenBackParsesToItself() throws {
        let actions: [UIScript.Step.Action] = [
            .tap(.title("Post")), .tap(.title(" spaced ")), .tap(.title("#hash")), .tap(.identifier("id")),
            .type("a;b\nc"), .alert("OK"), .select(.number(2)), .select(.title("Work")), .wait(seconds: nil),
            .wait(seconds: 1.5),
        ]
        for action in actions {
            let written = UIScript.Step(action).source
            #expect(try UIScript.parse(written).steps.map(\.action) == [action], "\(written)")
        }
    }
}
