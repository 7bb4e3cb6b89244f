import ActivationRules
import Foundation
import Payloads
import UniformTypes

/// `exthost rule …`: activation rules (`NSExtensionActivationRule`) checked, explained, linted and
/// tabulated against payloads, with the device's semantics.
enum RuleCommands {
    static var all: [CommandSpec] { [check, explain, lint, matrix] }

    // MARK: - Shared options

    static let json = OptionSpec.flag(.json, "Print one JSON object instead of text.")
    static let payloadJSON = OptionSpec.value(
        .payloadJSON, "FILE", "Evaluate against this JSON payload: {\"extensionItems\": [...], \"webpage\": true}.")
    static let payloadName = OptionSpec.value(
        .payload, "NAME", "Evaluate against a named payload preset ('exthost payload presets' lists them).")
    static let declarations = OptionSpec.values(
        .declarations, "PLIST", "Add the type declarations of an Info.plist or bundle directory (repeatable).",
        greedy: true)
    static let allowDevelopment = OptionSpec.flag(
        .allowDevelopmentRules, "Accept TRUEPREDICATE and mistyped dictionary values (warnings, not errors).")
    static let noWebpageRetry = OptionSpec.flag(
        .noWebpageRetry, "Do not retry a failed web-page share on its active-webpage or webarchive items only.")

    static let discussion = """
        RULE.plist is an extension Info.plist (NSExtension → NSExtensionAttributes → NSExtensionActivationRule),
        a plist with a top-level NSExtensionActivationRule, or a plist that is the rule itself; XML or binary.
        The rule is a predicate string or a dictionary of NSExtensionActivationSupports… keys; a dictionary is
        turned into the equivalent predicate, which is printed. Types come from the system table, the rule's own
        Info.plist and, for an extension inside an app, the app's Info.plist, plus every --declarations file.
        The payload is ITEMS (a folder, archive or file, read as 'exthost payload show' shows it; its types are
        typed with the rule's declarations too), a preset (--payload NAME), or a payload JSON file holding
        {"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": [...]}]}]} and optionally
        "webpage": true for a Safari page share. The rule sees each attachment's registeredTypeIdentifiers in
        registration order, hidden representations left out. Device adjustments: types are de-duplicated,
        a web page's public.url attachments get com.apple.active-webpage, and a failing web-page share is
        retried on its active-webpage items, then on its webarchive items (--no-webpage-retry turns that off).
        TRUEPREDICATE and dictionary values of the wrong plist type are errors because App Store upload rejects
        them; --allow-development-rules accepts them.
        """

    // MARK: - Commands

    static let check = CommandSpec(
        ["rule", "check"], summary: "Whether a rule activates for a payload (exit 0 yes, 3 no, 2 broken).",
        arguments: "RULE.plist [ITEMS]", positionalCount: 1...2,
        options: [payloadJSON, payloadName, declarations, allowDevelopment, noWebpageRetry, json],
        discussion: discussion,
        examples: ["exthost init Demo && exthost rule check Demo/rule.plist Demo/items"]
    ) { parsed, context in
        try evaluate(parsed, context, explaining: false)
    }

    static let explain = CommandSpec(
        ["rule", "explain"], summary: "Why a rule does or does not activate, as a tree (exit 0, 3, 2 as check).",
        arguments: "RULE.plist [ITEMS]", positionalCount: 1...2,
        options: [payloadJSON, payloadName, declarations, allowDevelopment, noWebpageRetry, json],
        discussion: discussion
            + "\n\nThe tree shows every evaluated node with its value; * marks the nodes that decided their parent, and"
            + "\n'← decided here' the deepest of them. Long lists are shortened; --json prints the whole tree."
    ) { parsed, context in
        try evaluate(parsed, context, explaining: true)
    }

    static let lint = CommandSpec(
        ["rule", "lint"], summary: "Diagnostics of one or more rules (exit 1 if any error).",
        arguments: "RULE.plist…", positionalCount: 1...Int.max, options: [declarations, allowDevelopment, json],
        discussion: discussion
    ) { parsed, context in
        let options = try ruleOptions(parsed)
        var all: [(String, [RuleDiagnostic])] = []
        for path in parsed.positionals {
            let (rule, extra) = try loadRule(path, parsed, context, options: options)
            all.append((path, extra + (rule?.diagnostics ?? [])))
        }
        let diagnostics = all.flatMap(\.1)
        if parsed[.json] {
            try context.printJSON(
                encoding: RuleReports.Lint(all.map { (file: $0.0, diagnostics: $0.1) }))
        } else {
            for (path, found) in all {
                if found.isEmpty { context.print("\(path): no problems") }
                for diagnostic in found { context.print(rendered(diagnostic, context)) }
            }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.filter { $0.severity == .warning }.count
            context.print(
                "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") in \(all.count) file\(all.count == 1 ? "" : "s")"
            )
        }
        return diagnostics.containsError ? .failure : .success
    }

    static let matrix = CommandSpec(
        ["rule", "matrix"],
        summary: "Every rule against every payload, as a table (exit 0, or 2 if one could not be evaluated).",
        arguments: "RULE.plist…", positionalCount: 1...Int.max,
        options: [
            .values(.payloadJSONs, "FILE", "A JSON payload (repeatable).", greedy: true),
            .values(.payloads, "NAME", "A payload preset (repeatable).", greedy: true),
            .values(.items, "ITEMS", "A folder, archive or file of items (repeatable).", greedy: true),
            declarations, allowDevelopment, noWebpageRetry, json,
        ],
        discussion: discussion
            + "\n\n--payload-json, --payload and --items take every following word up to the next option; put RULE.plist"
            + "\nfiles first. Without any of them the columns are every preset."
    ) { parsed, context in
        try runMatrix(parsed, context)
    }

    // MARK: - check and explain

    static func evaluate(_ parsed: ParsedArguments, _ context: CommandContext, explaining: Bool) throws -> ExitCode {
        let command = explaining ? "explain" : "check"
        let items = parsed.positionals.count > 1 ? parsed.positionals[1] : nil
        let sources = [items, parsed[.payload], parsed[.payloadJSON]].compactMap { $0 }
        guard sources.count == 1 else {
            throw CommandError.usage(
                sources.isEmpty
                    ? "exthost rule \(command) needs a payload: ITEMS, --payload NAME or --payload-json FILE"
                    : "exthost rule \(command): give one payload (ITEMS, --payload NAME or --payload-json FILE), not \(sources.count)"
            )
        }
        let payload: ActivationPayload
        if let items {
            let registry = payloadRegistry(forRule: parsed.positionals[0], parsed, context)
            let loaded = try PayloadCommands.load(items: items, context, registry: registry)
            payload = loaded.activationPayload()
            loaded.removeExtractedFiles()
        } else if let name = parsed[.payload] {
            payload = try PayloadCommands.load(preset: name).activationPayload()
        } else {
            payload = try loadPayload(parsed[.payloadJSON] ?? "", context)
        }
        let options = try ruleOptions(parsed)
        let path = parsed.positionals[0]
        let (loaded, extra) = try loadRule(path, parsed, context, options: options)
        guard let rule = loaded else {
            // The rule file could not be read at all.
            if parsed[.json] {
                try context.printJSON(
                    encoding: RuleReports.Evaluation(path: path, rule: nil, result: nil, diagnostics: extra))
            } else {
                for diagnostic in extra { context.printError(rendered(diagnostic, context)) }
            }
            return .usage
        }
        let result = rule.explain(payload)
        let diagnostics = extra + rule.diagnostics + result.diagnostics
        if parsed[.json] {
            try context.printJSON(
                encoding: RuleReports.Evaluation(path: path, rule: rule, result: result, diagnostics: diagnostics))
        } else {
            for diagnostic in diagnostics { context.printError(rendered(diagnostic, context)) }
            if explaining {
                context.print(TreeRenderer(colors: context.usesColor).render(result.explanation))
            } else {
                context.print("\(path): \(verdict(result.activated)) (\(rule.form?.rawValue ?? "no rule"))")
            }
            if let text = rule.canonicalText, rule.form == .dictionary || !explaining {
                context.print("\(rule.form == .dictionary ? "derived predicate" : "predicate"): \(text)")
            }
        }
        if diagnostics.containsError { return .usage }
        switch result.activated {
        case true?: return .success
        case false?: return .no
        case nil: return .usage
        }
    }

    static func verdict(_ activated: Bool?) -> String {
        switch activated {
        case true?: return "activates"
        case false?: return "does not activate"
        case nil: return "cannot be evaluated (on a device: does not appear)"
        }
    }

    // MARK: - matrix

    static func runMatrix(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let options = try ruleOptions(parsed)
        var presetNames = parsed[.payloads]
        let itemPaths = parsed[.items]
        let jsonPaths = parsed[.payloadJSONs]
        if presetNames.isEmpty && itemPaths.isEmpty && jsonPaths.isEmpty { presetNames = Payload.presetNames }
        var columns: [(label: String, payload: ActivationPayload)] = []
        for name in presetNames {
            columns.append((name, try PayloadCommands.load(preset: name).activationPayload()))
        }
        let registry = payloadRegistry(forRule: parsed.positionals[0], parsed, context)
        for path in itemPaths {
            let loaded = try PayloadCommands.load(items: path, context, registry: registry)
            columns.append((URL(fileURLWithPath: path).lastPathComponent, loaded.activationPayload()))
            loaded.removeExtractedFiles()
        }
        for path in jsonPaths {
            columns.append(
                (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, try loadPayload(path, context)))
        }
        let payloadPaths = presetNames + itemPaths + jsonPaths
        let payloads = columns.map { PreparedPayload($0.payload, options: options) }
        var rows: [[Bool?]] = []
        var diagnostics: [(String, [RuleDiagnostic])] = []
        for path in parsed.positionals {
            let (loaded, extra) = try loadRule(path, parsed, context, options: options)
            diagnostics.append((path, extra + (loaded?.diagnostics ?? [])))
            guard let rule = loaded else {
                rows.append(Array(repeating: nil, count: payloads.count))
                continue
            }
            rows.append(payloads.map { rule.activates($0) })
        }
        if parsed[.json] {
            try context.printJSON(
                encoding: RuleReports.Matrix(
                    rules: parsed.positionals, payloads: payloadPaths, results: rows,
                    diagnostics: diagnostics))
        } else {
            context.print(
                MatrixTable.render(
                    rules: parsed.positionals, payloads: columns.map(\.label), results: rows, colors: context.usesColor)
            )
            for (_, found) in diagnostics {
                for diagnostic in found where diagnostic.severity >= .warning {
                    context.printError(rendered(diagnostic, context))
                }
            }
        }
        return rows.allSatisfy { $0.allSatisfy { $0 != nil } } ? .success : .usage
    }

    // MARK: - Loading

    static func ruleOptions(_ parsed: ParsedArguments) throws -> ActivationOptions {
        ActivationOptions(
            allowDevelopmentRules: parsed[.allowDevelopmentRules],
            retriesWebpageItems: !parsed[.noWebpageRetry])
    }

    static func loadPayload(_ path: String, _ context: CommandContext) throws -> ActivationPayload {
        do {
            return try ActivationPayload.load(jsonAt: context.resolve(path))
        } catch let error as ActivationRuleError {
            throw CommandError.input(error.message)
        }
    }

    /// The registry ITEMS are typed with: the system's, the `--declarations` files and the rule's bundle
    /// declarations (broken declarations are reported with the rule, and left out here).
    static func payloadRegistry(forRule path: String, _ parsed: ParsedArguments, _ context: CommandContext)
        -> TypeRegistry
    {
        TypeRegistry.declared(
            in: parsed[.declarations].map { context.resolve($0) }
                + ActivationRule.bundleDeclarationFiles(for: context.resolve(path)))
    }

    /// The rule (nil when the file cannot be read) and diagnostics about its type declarations.
    static func loadRule(
        _ path: String, _ parsed: ParsedArguments, _ context: CommandContext, options: ActivationOptions
    ) throws -> (ActivationRule?, [RuleDiagnostic]) {
        do {
            return try ActivationRule.load(
                contentsOf: context.resolve(path), name: path,
                declarations: parsed[.declarations].map { context.resolve($0) }, options: options)
        } catch let error as TypeRegistryError {
            throw CommandError.input(error.message)
        }
    }
}
