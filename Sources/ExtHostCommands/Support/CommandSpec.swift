/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// The long name without dashes (`json`, `declarations`).
    public var name: String
    /// A one-letter alias, if any (`h` for `help`).
    public var short: Character?
    /// The placeholder of its value (`PLIST`), or nil for a flag.
    public var value: String?
    /// Whether it may be given several times (values accumulate; a value may also be followed by
    /// more values up to the next option, as in `--declarations A.plist B.plist`).
    public var repeatable: Bool
    /// One line of help.
    public var help: String
    /// Whether a repeatable option also takes the words that follow its value, up to the next
    /// option (`--declarations A.plist B.plist`).
    public var greedy: Bool = false
    /// Whether the word after the option is its value whatever it is, even one beginning with `-`
    /// (`--extension-argument --verbose` passes `--verbose` on).
    public var takesAnyValue: Bool = false

    /// A flag (no value).
    public static func flag(_ key: OptionKey<Bool>, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: key.name, short: short, value: nil, repeatable: false, help: help, greedy: false)
    }

    /// An option with one value, read as text.
    public static func value(_ key: OptionKey<String>, _ placeholder: String, _ help: String) -> OptionSpec {
        single(key.name, placeholder, help)
    }

    /// An option with one whole-number value (the lookup refuses anything else).
    public static func value(_ key: OptionKey<Int>, _ placeholder: String, _ help: String) -> OptionSpec {
        single(key.name, placeholder, help)
    }

    /// An option with one finite number as its value.
    public static func value(_ key: OptionKey<Double>, _ placeholder: String, _ help: String) -> OptionSpec {
        single(key.name, placeholder, help)
    }

    /// An option that may be repeated and takes one or more values; with `anyValue`, the word after
    /// it is its value even when it begins with `-`.
    public static func values(
        _ key: OptionKey<[String]>, _ placeholder: String, _ help: String, greedy: Bool = false,
        anyValue: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: key.name, short: nil, value: placeholder, repeatable: true, help: help, greedy: greedy,
            takesAnyValue: anyValue)
    }

    private static func single(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, value: placeholder, repeatable: false, help: help, greedy: false)
    }
}

/// The name of an option, typed by how its value is read: `Bool` for a flag, `String`, `Int` or
/// `Double` for one value, `[String]` for a repeatable option. The keys are declared once
/// (OptionKeys.swift); ``OptionSpec`` declarations and ``ParsedArguments`` lookups take them.
public struct OptionKey<Value>: Sendable, Hashable {
    /// The long name without dashes (`json`, `max-size`).
    public let name: String

    /// A key for `--name`.
    public init(_ name: String) { self.name = name }
}

/// One command of the table: its words, arguments, help and body.
public struct CommandSpec: Sendable {
    /// The words that name it (`["types", "show"]`).
    public var path: [String]
    /// One line saying what it does.
    public var summary: String
    /// Positional arguments, as shown in usage (`ID`, `RULE.plist [ITEMS]`).
    public var arguments: String
    /// The fewest and most positional arguments it takes.
    public var positionalCount: ClosedRange<Int>
    /// Its options (`--help` is added to every command).
    public var options: [OptionSpec]
    /// More text for `--help`, after the options.
    public var discussion: String
    /// Command lines a newcomer can type in an empty folder (with the default device), shown in
    /// `--help` under "Example"; each must work there (a test runs them all).
    public var examples: [String]
    /// The body.
    public var run: @Sendable (ParsedArguments, CommandContext) async throws -> ExitCode

    /// Creates a command.
    public init(
        _ path: [String], summary: String, arguments: String = "", positionalCount: ClosedRange<Int> = 0...0,
        options: [OptionSpec] = [], discussion: String = "", examples: [String] = [],
        run: @escaping @Sendable (ParsedArguments, CommandContext) async throws -> ExitCode
    ) {
        self.path = path
        self.summary = summary
        self.arguments = arguments
        self.positionalCount = positionalCount
        self.options = options
        self.discussion = discussion
        self.examples = examples
        self.run = run
    }

    /// `exthost types show ID [options]`.
    var usageLine: String {
        var parts = ["exthost"] + path
        if !arguments.isEmpty { parts.append(arguments) }
        if !options.isEmpty { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    /// The full `--help` text.
    var helpText: String {
        var text = "\(summary)\n\nUsage: \(usageLine)\n"
        let all = options + [.flag(.help, short: "h", "Show this help.")]
        text += "\nOptions:\n"
        let labels = all.map { option -> String in
            var label = "--\(option.name)"
            if let short = option.short { label = "-\(short), " + label }
            if let value = option.value { label += option.greedy ? " \(value)…" : " \(value)" }
            return label
        }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (label, option) in zip(labels, all) {
            text += "  \(label.column(width))\(option.help)\n"
        }
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += Self.examplesSection(examples)
        text += "\n\(ExitCode.documentation)\n"
        return text
    }

    /// The "Example" section of `--help` (empty without examples).
    static func examplesSection(_ examples: [String]) -> String {
        guard !examples.isEmpty else { return "" }
        let title = examples.count == 1 ? "Example" : "Examples"
        return "\n\(title) (in an empty folder):\n" + examples.map { "  \($0)\n" }.joined()
    }
}
