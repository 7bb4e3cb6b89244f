import ActivationRules

/// What the parser found for one command: positional arguments and option values.
public struct ParsedArguments: Sendable {
    /// Positional arguments in order.
    public var positionals: [String]
    /// Every value given for each option (flags map to an empty array when present).
    public var options: [String: [String]]

    /// Whether the flag was given.
    public subscript(flag: OptionKey<Bool>) -> Bool { options[flag.name] != nil }

    /// The last value given for the option, if any.
    public subscript(option: OptionKey<String>) -> String? { options[option.name]?.last }

    /// Every value given for the repeatable option, in order.
    public subscript(option: OptionKey<[String]>) -> [String] { options[option.name] ?? [] }

    /// The option's last value as a whole number, if given.
    /// - Throws: ``CommandError/usage(_:)`` when the value is not a whole number.
    public func value(_ option: OptionKey<Int>) throws -> Int? {
        guard let text = options[option.name]?.last else { return nil }
        guard let number = Int(text) else {
            throw CommandError.usage("--\(option.name) takes a whole number, not '\(text)'")
        }
        return number
    }

    /// The option's last value as a finite number, if given.
    /// - Throws: ``CommandError/usage(_:)`` when the value is not a number.
    public func value(_ option: OptionKey<Double>) throws -> Double? {
        guard let text = options[option.name]?.last else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw CommandError.usage("--\(option.name) takes a number, not '\(text)'")
        }
        return number
    }
}

/// The table-driven argument parser: no outside package, "did you mean" for typos.
enum ArgumentParser {
    /// Parses the words after the command path against `spec`.
    /// - Throws: ``CommandError/usage(_:)``.
    static func parse(_ words: [String], for spec: CommandSpec) throws -> ParsedArguments {
        var positionals: [String] = []
        var options: [String: [String]] = [:]
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inline: String?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                let letter = word.dropFirst()
                guard letter.count == 1, let match = spec.options.first(where: { $0.short == letter.first }) else {
                    if word == "-h" {
                        name = "help"
                        options["help"] = []
                        continue
                    }
                    if Double(word) != nil {
                        positionals.append(word)
                        continue
                    }
                    throw CommandError.usage("unknown option '\(word)'")
                }
                name = match.name
            }
            if name == "help" {
                options["help"] = []
                continue
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let names = spec.options.map(\.name) + ["help"]
                var message = "unknown option '--\(name)' for 'exthost \(spec.path.joined(separator: " "))'"
                if let near = Suggestion.nearest(to: name, in: names) { message += "; did you mean '--\(near)'?" }
                throw CommandError.usage(message)
            }
            guard option.value != nil else {
                if inline != nil { throw CommandError.usage("--\(name) is a flag and takes no value") }
                options[name] = []
                continue
            }
            var collected: [String] = []
            if let inline {
                collected.append(inline)
            } else {
                guard index < words.count,
                    option.takesAnyValue || !isOption(words[index], spec: spec) || words[index] == "-"
                else {
                    throw CommandError.usage("--\(name) needs a value (\(option.value ?? "VALUE"))")
                }
                collected.append(words[index])
                index += 1
            }
            if option.greedy && inline == nil {
                // `--declarations A B C`: keep taking words until the next option.
                while index < words.count, !words[index].hasPrefix("-") {
                    collected.append(words[index])
                    index += 1
                }
            }
            if option.repeatable {
                options[name, default: []].append(contentsOf: collected)
            } else {
                options[name] = collected
            }
        }
        if options["help"] == nil && !spec.positionalCount.contains(positionals.count) {
            let range = spec.positionalCount
            let expected: String
            if range.lowerBound == range.upperBound {
                expected = range.lowerBound == 0 ? "no arguments" : "\(range.lowerBound) argument(s)"
            } else if range.upperBound == Int.max {
                expected = "at least \(range.lowerBound) argument(s)"
            } else {
                expected = "\(range.lowerBound) to \(range.upperBound) arguments"
            }
            let given = positionals.isEmpty ? "none" : positionals.map { "'\($0)'" }.joined(separator: " ")
            throw CommandError.usage(
                "expected \(expected) (\(spec.arguments.isEmpty ? "none" : spec.arguments)), got \(given)")
        }
        return ParsedArguments(positionals: positionals, options: options)
    }

    private static func isOption(_ word: String, spec: CommandSpec) -> Bool {
        word.hasPrefix("-") && Double(word) == nil
    }

}
