/// What a scripted user does to an extension's screen, one step a line:
///
/// ```
/// # a comment
/// tap Post                 a control, bar button or alert action by its title (or accessibility label)
/// tap #saveButton          … or by its accessibilityIdentifier
/// type Hello, world        into the field that has the keyboard (a compose sheet's text view)
/// alert Open               the action of the alert on screen
/// select 2                 the second row of the table on screen (or: select Work, by the row's text)
/// wait                     until something on screen changes or the request ends (at most 5 s; wait 2.5)
/// ```
///
/// Several steps can share a line, separated by `;`. An argument may be quoted (`type "  two spaces"`,
/// `tap "Post;Now"`); inside quotes `\"`, `\\`, `\n` (return) and `\t` are escapes.
public struct UIScript: Codable, Sendable, Equatable {
    /// One step, with where it was written.
    public struct Step: Codable, Sendable, Equatable, CustomStringConvertible {
        /// What a `tap` names.
        public enum Target: Codable, Sendable, Equatable {
            /// A title or accessibility label.
            case title(String)
            /// An `accessibilityIdentifier` (`#name`).
            case identifier(String)
        }

        /// What a `select` names.
        public enum Row: Codable, Sendable, Equatable {
            /// The n-th row of the table, counting from 1 across its sections.
            case number(Int)
            /// The first row whose text is this.
            case title(String)
        }

        /// What the step does.
        public enum Action: Codable, Sendable, Equatable {
            /// Tap a control.
            case tap(Target)
            /// Type text into the field that has the keyboard.
            case type(String)
            /// Choose an action of the alert on screen.
            case alert(String)
            /// Select a row of the table on screen.
            case select(Row)
            /// Wait until the screen changes or the request ends, at most `seconds` (default 5).
            case wait(seconds: Double?)
        }

        /// What the step does.
        public var action: Action
        /// The line it was written on (from 1).
        public var line: Int
        /// The column its verb starts at (from 1).
        public var column: Int
        /// The step as written.
        public var source: String

        /// A step.
        public init(_ action: Action, line: Int = 0, column: Int = 0, source: String? = nil) {
            self.action = action
            self.line = line
            self.column = column
            self.source = source ?? Step.render(action)
        }

        /// `line 3: tap Post`, or the step alone when it was not read from a script.
        public var description: String { line > 0 ? "line \(line): \(source)" : source }

        /// The step written as a script line.
        static func render(_ action: Action) -> String {
            switch action {
            case .tap(.title(let title)): "tap \(quoteIfNeeded(title))"
            case .tap(.identifier(let identifier)): "tap #\(identifier)"
            case .type(let text): "type \(quoteIfNeeded(text))"
            case .alert(let title): "alert \(quoteIfNeeded(title))"
            case .select(.number(let number)): "select \(number)"
            case .select(.title(let title)): "select \(quoteIfNeeded(title))"
            case .wait(let seconds): seconds.map { "wait \(ViewNode.Frame.number($0))" } ?? "wait"
            }
        }

        static func quoteIfNeeded(_ text: String) -> String {
            let needs =
                text.isEmpty || text.first == " " || text.last == " " || text.first == "\"" || text.first == "#"
                || text.contains(where: { $0 == ";" || $0 == "\n" || $0 == "\t" })
            return needs ? TextQuote.quote(text) : text
        }
    }

    /// The steps, in order.
    public var steps: [Step]

    /// A script of `steps`.
    public init(steps: [Step]) { self.steps = steps }

    /// What a person does when no script is given: a compose sheet gets `tap Post`; any other
    /// view controller is left alone (`[]`).
    public static let composeSheetDefault = UIScript(steps: [Step(.tap(.title("Post")))])

    /// Reads a script.
    /// - Parameters:
    ///   - text: the steps, one a line (`;` separates steps on one line; `#` starts a comment line).
    ///   - source: the file the script came from, named in errors (nil: inline).
    /// - Throws: ``UIScriptError`` naming the line and column of the first mistake.
    public static func parse(_ text: String, source: String? = nil) throws(UIScriptError) -> UIScript {
        var steps: [Step] = []
        var lineNumber = 0
        // "\r\n" is one Character in Swift: both end a line.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = Array(rawLine)
            var reader = LineReader(characters: line, line: lineNumber, source: source)
            try reader.readSteps(into: &steps)
        }
        return UIScript(steps: steps)
    }
}

/// Reads the steps of one line.
private struct LineReader {
    let characters: [Character]
    let line: Int
    let source: String?
    var index = 0

    init(characters: [Character], line: Int, source: String?) {
        self.characters = characters
        self.line = line
        self.source = source
    }

    func error(_ message: String, at index: Int) -> UIScriptError {
        UIScriptError(source: source, line: line, column: index + 1, message: message)
    }

    mutating func skipSpaces() {
        while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
    }

    mutating func readSteps(into steps: inout [UIScript.Step]) throws(UIScriptError) {
        skipSpaces()
        if index == characters.count || characters[index] == "#" { return }
        while true {
            skipSpaces()
            if index == characters.count { return }
            if characters[index] == ";" {
                index += 1
                continue
            }
            steps.append(try readStep())
        }
    }

    mutating func readStep() throws(UIScriptError) -> UIScript.Step {
        let start = index
        while index < characters.count, characters[index].isLetter { index += 1 }
        let verb = String(characters[start..<index]).lowercased()
        let verbs = ["tap", "type", "alert", "select", "wait"]
        guard verbs.contains(verb), index == characters.count || [" ", "\t", ";"].contains(characters[index]) else {
            var end = index
            while end < characters.count, ![" ", "\t", ";"].contains(characters[end]) { end += 1 }
            let word = String(characters[start..<end])
            throw error(
                word.isEmpty
                    ? "expected a step (tap, type, alert, select or wait)"
                    : "unknown step '\(word)'; expected tap, type, alert, select or wait", at: start)
        }
        skipSpaces()
        let argumentStart = index
        let argument = try readArgument()
        let end = index
        let source = String(characters[start..<end]).trimmingTrailingSpaces
        func step(_ action: UIScript.Step.Action) -> UIScript.Step {
            UIScript.Step(action, line: line, column: start + 1, source: source)
        }
        switch verb {
        case "tap":
            guard let argument, !argument.text.isEmpty else {
                throw error("'tap' needs a title (tap Post) or an identifier (tap #save)", at: argumentStart)
            }
            if !argument.quoted, argument.text.hasPrefix("#") {
                let identifier = String(argument.text.dropFirst())
                guard !identifier.isEmpty else {
                    throw error("'tap #' needs an identifier after '#'", at: argumentStart)
                }
                return step(.tap(.identifier(identifier)))
            }
            return step(.tap(.title(argument.text)))
        case "type":
            guard let argument, !argument.text.isEmpty else {
                throw error("'type' needs the text to type", at: argumentStart)
            }
            return step(.type(argument.text))
        case "alert":
            guard let argument, !argument.text.isEmpty else {
                throw error("'alert' needs the title of the alert's action (alert OK)", at: argumentStart)
            }
            return step(.alert(argument.text))
        case "select":
            guard let argument, !argument.text.isEmpty else {
                throw error("'select' needs a row number (from 1) or the row's text", at: argumentStart)
            }
            if !argument.quoted, let number = Int(argument.text) {
                guard number >= 1 else { throw error("rows count from 1; '\(number)' is not a row", at: argumentStart) }
                return step(.select(.number(number)))
            }
            return step(.select(.title(argument.text)))
        default:
            guard let argument else { return step(.wait(seconds: nil)) }
            guard !argument.quoted, let seconds = Double(argument.text), seconds.isFinite, seconds >= 0 else {
                throw error("'wait' takes a number of seconds (wait 2.5), not '\(argument.text)'", at: argumentStart)
            }
            return step(.wait(seconds: seconds))
        }
    }

    /// The rest of the step up to `;` or the end of the line, unquoted; nil when there is none.
    mutating func readArgument() throws(UIScriptError) -> (text: String, quoted: Bool)? {
        guard index < characters.count, characters[index] != ";" else { return nil }
        if characters[index] == "\"" {
            let open = index
            index += 1
            var text = ""
            while true {
                guard index < characters.count else {
                    throw error("this quote is not closed before the end of the line", at: open)
                }
                let character = characters[index]
                index += 1
                if character == "\"" { break }
                if character == "\\" {
                    guard index < characters.count else {
                        throw error("'\\' at the end of the line escapes nothing", at: index - 1)
                    }
                    let escaped = characters[index]
                    switch escaped {
                    case "\"", "\\": text.append(escaped)
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    default: throw error("unknown escape '\\\(escaped)'; use \\\", \\\\, \\n or \\t", at: index - 1)
                    }
                    index += 1
                } else {
                    text.append(character)
                }
            }
            skipSpaces()
            if index < characters.count, characters[index] != ";" {
                throw error("unexpected text after the closing quote", at: index)
            }
            return (text, true)
        }
        let start = index
        while index < characters.count, characters[index] != ";" { index += 1 }
        let raw = String(characters[start..<index])
        return (raw.trimmingTrailingSpaces, false)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var copy = self
        while let last = copy.last, last == " " || last == "\t" { copy.removeLast() }
        return copy
    }
}

/// A mistake in a script, or a step that could not be done, with where it was written.
public struct UIScriptError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// The script's file (nil: inline).
    public var source: String?
    /// The line (from 1).
    public var line: Int
    /// The column (from 1).
    public var column: Int
    /// What is wrong.
    public var message: String

    /// An error at `line`:`column`.
    public init(source: String? = nil, line: Int, column: Int, message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message` (`line L, column C: message` for an inline script).
    public var description: String {
        if let source { return "\(source):\(line):\(column): \(message)" }
        return "line \(line), column \(column): \(message)"
    }
}
