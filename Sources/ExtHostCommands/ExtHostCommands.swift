import ActivationRules

/// The `exthost` command line as a library: `main(arguments:context:)` parses, dispatches through
/// the command table and returns the exit code, so tests drive it without a process.
public enum ExtHostCommands {
    /// Every command, in the order `exthost --help` lists them.
    static var all: [CommandSpec] {
        [helpCommand] + InitCommand.all + ImportCommand.all + ShareCommand.all + SheetCommand.all + OpenCommand.all
            + AirDropCommand.all
            + ShortcutCommands.all
            + PasteboardCommand.all
            + AppLintCommand.all
            + DeviceCommands.all
            + TypesCommands.all
            + RuleCommands.all
            + PayloadCommands.all
            + ContainerCommands.all + AppCommands.all + IPCCommands.all + StressCommand.all + ExtensionCommand.all
    }

    /// The commands `exthost --help` lists (hidden ones, named `__…`, are left out).
    static var listed: [CommandSpec] { all.filter { !($0.path.first ?? "").hasPrefix("__") } }

    /// Runs one invocation; `arguments` excludes the program name.
    public static func main(arguments: [String], context: CommandContext = .process()) async -> ExitCode {
        let commands = all
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] {
            context.print(overview(listed))
            return arguments.isEmpty ? .usage : .success
        }
        if arguments == ["--version"] {
            context.print("exthost \(version)")
            return .success
        }
        // The longest command path that matches the leading words.
        let match = commands.filter { arguments.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
        guard let spec = match else {
            return unknownCommand(arguments, commands: commands, context: context)
        }
        let rest = Array(arguments.dropFirst(spec.path.count))
        do {
            let parsed = try ArgumentParser.parse(rest, for: spec)
            if parsed[.help] {
                context.print(spec.helpText)
                return .success
            }
            return try await spec.run(parsed, context)
        } catch let error as CommandError {
            context.printError("error: \(error.message)")
            if error.showsUsage {
                context.printError(
                    "usage: \(spec.usageLine)\nSee 'exthost \(spec.path.joined(separator: " ")) --help'.")
            }
            return error.exitCode
        } catch {
            context.printError("error: \(error)")
            return .failure
        }
    }

    /// The version printed by `--version`.
    public static let version = "0.1.0"

    private static func unknownCommand(_ arguments: [String], commands: [CommandSpec], context: CommandContext)
        -> ExitCode
    {
        // A group word alone (`exthost types`) lists its subcommands.
        let prefixMatches = commands.filter { $0.path.count > 1 && arguments.starts(with: $0.path.prefix(1)) }
        if !prefixMatches.isEmpty {
            let group = prefixMatches[0].path[0]
            let words = arguments.dropFirst()
            if words.isEmpty || words.first == "--help" || words.first == "-h" {
                context.print(overview(prefixMatches, title: "exthost \(group) — subcommands"))
                return words.isEmpty ? .usage : .success
            }
            let word = words.first ?? ""
            var message = "unknown command 'exthost \(group) \(word)'"
            let names = prefixMatches.map { $0.path[1] }
            if let near = Suggestion.nearest(to: word, in: names) {
                message += "; did you mean 'exthost \(group) \(near)'?"
            }
            context.printError("error: \(message)\nSee 'exthost \(group) --help'.")
            return .usage
        }
        let first = arguments[0]
        var message = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
        let names = Array(Set(commands.map { $0.path[0] })).sorted()
        if let near = Suggestion.nearest(to: first.trimmingLeadingDashes, in: names) {
            message += "; did you mean '\(near)'?"
        }
        context.printError("error: \(message)\nSee 'exthost --help'.")
        return .usage
    }

    static func overview(_ commands: [CommandSpec], title: String? = nil) -> String {
        var text =
            title ?? """
                exthost — the iOS share pipeline on Linux: activation rules, item providers, a sandboxed,
                memory-limited share extension and its App Group container, with the device's failures.
                """
        text += "\n\nUsage: exthost COMMAND [arguments] [options]\n\nCommands:\n"
        let labels = commands.map {
            (["exthost"] + $0.path + ($0.arguments.isEmpty ? [] : [$0.arguments])).joined(separator: " ")
        }
        let width = min(52, (labels.map(\.count).max() ?? 0) + 2)
        for (label, spec) in zip(labels, commands) {
            text += "  \(label.column(width))\(spec.summary)\n"
        }
        text += "\nEvery command takes --help; most take --json for machine output.\n"
        // A group's overview (`exthost device --help`) shows its commands' examples.
        if title != nil { text += CommandSpec.examplesSection(commands.flatMap(\.examples)) }
        text += "\n\(ExitCode.documentation)"
        return text
    }

    static let helpCommand = CommandSpec(
        ["help"], summary: "Show help for a command.", arguments: "[COMMAND…]", positionalCount: 0...Int.max,
        examples: ["exthost help share"]
    ) { parsed, context in
        let words = parsed.positionals
        if words.isEmpty {
            context.print(overview(listed))
            return .success
        }
        if let spec = all.first(where: { $0.path == words }) {
            context.print(spec.helpText)
            return .success
        }
        let group = all.filter { $0.path.starts(with: words) }
        guard !group.isEmpty else { throw CommandError.usage("no command 'exthost \(words.joined(separator: " "))'") }
        context.print(overview(group, title: "exthost \(words.joined(separator: " ")) — subcommands"))
        return .success
    }
}

extension String {
    fileprivate var trimmingLeadingDashes: String { String(drop { $0 == "-" }) }
}
