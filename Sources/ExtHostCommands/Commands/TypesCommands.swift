import ActivationRules
import Foundation
import LaunchServices
import UniformTypes

/// `exthost types …`: the uniform type registry (system types plus bundles' declarations).
enum TypesCommands {
    static var all: [CommandSpec] { [show, conforms, forExtension, forMIME, list] }

    // MARK: - Shared options

    static let json = OptionSpec.flag(.json, "Print JSON instead of text.")
    static let declarations = OptionSpec.values(
        .declarations, "PLIST", "Add the type declarations of an Info.plist or app bundle directory (repeatable).",
        greedy: true)
    static let conformingTo = OptionSpec.value(
        .conformingTo, "ID", "Only consider types conforming to this type (default public.data).")
    static let allMatches = OptionSpec.flag(.all, "Print every matching type, best first, one per line.")

    static let registryDiscussion = """
        Types come from the built-in system table; --declarations adds the UTExportedTypeDeclarations and
        UTImportedTypeDeclarations of each Info.plist (or bundle directory) given, exported winning over imported.
        A declaration that tries to change a system type is not applied; such problems are printed to stderr.
        --declarations takes every following word up to the next option: put it last, or end its list with --.
        """

    // MARK: - Commands

    static let show = CommandSpec(
        ["types", "show"], summary: "Show a type: parents, all supertypes, tags, where it is declared.",
        arguments: "ID", positionalCount: 1...1, options: [json, declarations],
        discussion: registryDiscussion + "\nA dyn.… identifier is decoded: it shows the tags it encodes.",
        examples: ["exthost types show public.jpeg"]
    ) { parsed, context in
        let registry = try loadRegistry(parsed, context)
        let id = try resolve(parsed.positionals[0], in: registry)
        guard let declaration = registry.declaration(for: id) else {
            throw CommandError.failed("'\(id)' resolved but has no declaration")  // resolve() guarantees one
        }
        if parsed[.json] {
            try context.printJSON(encoding: TypesReports.Declaration(declaration, registry))
        } else {
            context.print(text(declaration, registry))
        }
        return .success
    }

    static let conforms = CommandSpec(
        ["types", "conforms"], summary: "Whether type A conforms to type B (exit 0 yes, 3 no).",
        arguments: "A B", positionalCount: 2...2, options: [json, declarations],
        discussion: registryDiscussion
            + "\nConformance is reflexive and transitive over every declared parent; case does not matter.",
        examples: ["exthost types conforms public.png public.image"]
    ) { parsed, context in
        let registry = try loadRegistry(parsed, context)
        let type = try resolve(parsed.positionals[0], in: registry)
        let target = try resolve(parsed.positionals[1], in: registry)
        let path = registry.conformancePath(from: type, to: target)
        let answer = registry.conforms(type, to: target)
        let (a, b) = (registry.canonical(type).rawValue, registry.canonical(target).rawValue)
        if parsed[.json] {
            try context.printJSON(
                encoding: TypesReports.Conformance(
                    type: a, supertype: b, conforms: answer, path: path.map { $0.map(\.rawValue) }))
        } else if answer {
            let chain = path.map { $0.count > 2 ? " (\($0.map(\.rawValue).joined(separator: " → ")))" : "" } ?? ""
            context.print("yes: \(a) conforms to \(b)\(chain)")
        } else {
            context.print("no: \(a) does not conform to \(b)")
        }
        return answer ? .success : .no
    }

    static let forExtension = CommandSpec(
        ["types", "for-extension"], summary: "The preferred type for a filename extension (a dyn. type if unknown).",
        arguments: "EXT", positionalCount: 1...1,
        options: [
            conformingTo, allMatches, json,
            .flag(.installed, "Use the types the device's installed apps declare; say who won the extension and why."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption, declarations,
        ],
        discussion: registryDiscussion
            + """

            A leading dot is ignored. Only types conforming to --conforming-to (default public.data, as
            UTType(filenameExtension:)) are candidates, so packages such as rtfd need --conforming-to
            com.apple.package. Public types win; when nothing matches, the answer is a dynamic dyn.… type.
            --installed asks the device (--root/--device): when two installed apps declare different types for
            the extension, the later install wins (uninstalling it gives the extension back); bundles found under
            Bundles/ without an install record count as installed first, in folder-name order. Its --json is
            {"extension", "typeIdentifier", "candidates": [{"typeIdentifier", "declaration", "bundleIdentifier",
            "installOrder"}], "reason"}.
            """
    ) { parsed, context in
        var tag = parsed.positionals[0]
        if tag.hasPrefix(".") { tag.removeFirst() }
        guard !tag.isEmpty else { throw CommandError.usage("the filename extension is empty") }
        if parsed[.installed] {
            guard parsed[.declarations].isEmpty, parsed[.conformingTo] == nil, !parsed[.all] else {
                throw CommandError.usage("--installed takes neither --declarations, --conforming-to nor --all")
            }
            let choice = InstalledBundles(root: try ContainerSupport.root(parsed, context))
                .typeChoice(forFilenameExtension: tag)
            if parsed[.json] {
                try context.printJSON(encoding: choice)
            } else {
                context.print(choice.typeIdentifier)
                context.print("  \(choice.reason)")
                for candidate in choice.candidates {
                    let mark = candidate.typeIdentifier == choice.typeIdentifier ? "→" : " "
                    let who = candidate.bundleIdentifier.map { " by \($0) (\(candidate.installOrder ?? ""))" } ?? ""
                    context.print("  \(mark) \(candidate.typeIdentifier): \(candidate.declaration)\(who)")
                }
            }
            return .success
        }
        return try tagLookup(
            tag: tag, label: "extension", parsed: parsed, context: context,
            report: {
                TypesReports.ExtensionLookup(
                    extension: tag, conformingTo: $0, preferred: $1, dynamic: $2, types: $3)
            }
        ) { registry, supertype in
            registry.types(forFilenameExtension: tag, conformingTo: supertype)
        }
    }

    static let forMIME = CommandSpec(
        ["types", "for-mime"], summary: "The preferred type for a MIME type (a dyn. type if unknown).",
        arguments: "MIME", positionalCount: 1...1, options: [conformingTo, allMatches, json, declarations],
        discussion: registryDiscussion
            + """

            Only types conforming to --conforming-to (default public.data) are candidates; public types win;
            when nothing matches, the answer is a dynamic dyn.… type.
            """
    ) { parsed, context in
        let tag = parsed.positionals[0]
        guard !tag.isEmpty else { throw CommandError.usage("the MIME type is empty") }
        return try tagLookup(
            tag: tag, label: "mimeType", parsed: parsed, context: context,
            report: {
                TypesReports.MIMETypeLookup(mimeType: tag, conformingTo: $0, preferred: $1, dynamic: $2, types: $3)
            }
        ) { registry, supertype in
            registry.types(forMIMEType: tag, conformingTo: supertype)
        }
    }

    static let list = CommandSpec(
        ["types", "list"], summary: "List the declared types, optionally only those conforming to a type.",
        options: [.value(.conformingTo, "ID", "Only types conforming to this type."), json, declarations],
        discussion: registryDiscussion
    ) { parsed, context in
        let registry = try loadRegistry(parsed, context)
        let declarations: [TypeDeclaration]
        if let target = parsed[.conformingTo] {
            declarations = registry.declarations(conformingTo: try resolve(target, in: registry))
        } else {
            declarations = registry.allDeclarations
        }
        if parsed[.json] {
            try context.printJSON(encoding: declarations.map { TypesReports.Declaration($0, registry) })
            return .success
        }
        let width = min(48, (declarations.map(\.identifier.rawValue.count).max() ?? 0) + 2)
        for declaration in declarations {
            let id = declaration.identifier.rawValue
            let tags = declaration.filenameExtensions.map { "." + $0 }.joined(separator: " ")
            context.print(tags.isEmpty ? id : id.column(width) + tags)
        }
        return .success
    }

    // MARK: - Helpers

    /// The system registry plus every `--declarations` file; diagnostics go to stderr.
    static func loadRegistry(_ parsed: ParsedArguments, _ context: CommandContext) throws -> TypeRegistry {
        let paths = parsed[.declarations]
        guard !paths.isEmpty else { return .system }
        do {
            let (registry, diagnostics) = try TypeRegistry.system.adding(
                declarationsFromPlistsAt: paths.map { context.resolve($0) })
            for diagnostic in diagnostics {
                context.printError("\(diagnostic.severity.rawValue): \(diagnostic.file ?? ""): \(diagnostic.message)")
            }
            return registry
        } catch let error as TypeRegistryError {
            throw CommandError.input(error.message)
        }
    }

    /// A known (declared or dynamic) type, or exit 2 with the nearest known identifier.
    static func resolve(_ text: String, in registry: TypeRegistry) throws -> UniformTypeIdentifier {
        guard let id = UniformTypeIdentifier(validating: text) else {
            throw CommandError.input(
                "'\(text)' is not a type identifier (reverse-DNS: letters, digits, '-' and '.', like public.jpeg)")
        }
        if registry.declaration(for: id) != nil { return id }
        var message = "unknown type identifier '\(text)'"
        if id.isDynamic {
            message = "'\(text)' is not a valid dyn. identifier (it does not decode to a tag specification)"
        } else if let byExtension = registry.types(forFilenameExtension: text).first, !byExtension.isDynamic {
            message += "; did you mean '\(byExtension)' (the type of .\(text.lowercased()) files)?"
        } else if let near = Suggestion.nearest(to: text, in: registry.allDeclarations.map(\.identifier.rawValue)) {
            message += "; did you mean '\(near)'?"
        } else {
            message += " (types declared by an app need --declarations PATH/Info.plist)"
        }
        throw CommandError.input(message)
    }

    /// The body of `for-extension` and `for-mime`; `report` makes the `--json` report from the
    /// supertype, the preferred type, whether it is dynamic, and every match.
    private static func tagLookup(
        tag: String, label: String, parsed: ParsedArguments, context: CommandContext,
        report: (_ conformingTo: String, _ preferred: String, _ dynamic: Bool, _ types: [String]) -> any Encodable,
        _ lookup: (TypeRegistry, UniformTypeIdentifier) -> [UniformTypeIdentifier]
    ) throws -> ExitCode {
        let registry = try loadRegistry(parsed, context)
        let supertype = try parsed[.conformingTo].map { try resolve($0, in: registry) } ?? .data
        let found = lookup(registry, supertype)
        guard let preferred = found.first else {
            throw CommandError.failed("no type for \(label) '\(tag)'")  // a dyn. type is returned when none matches
        }
        if parsed[.json] {
            try context.printJSON(
                encoding: report(
                    registry.canonical(supertype).rawValue, preferred.rawValue, preferred.isDynamic,
                    found.map(\.rawValue)))
        } else if parsed[.all] {
            for type in found { context.print(type.rawValue) }
        } else {
            context.print(preferred.rawValue)
        }
        return .success
    }

    /// The text of `types show`.
    static func text(_ declaration: TypeDeclaration, _ registry: TypeRegistry) -> String {
        func list(_ values: [String]) -> String { values.isEmpty ? "—" : values.joined(separator: ", ") }
        var lines = [declaration.identifier.rawValue]
        var rows: [(String, String)] = [
            ("conforms to", list(declaration.conformsTo.map { registry.canonical($0).rawValue })),
            ("supertypes", list(registry.supertypes(of: declaration.identifier).map(\.rawValue))),
            ("extensions", list(declaration.filenameExtensions)),
            ("MIME types", list(declaration.mimeTypes)),
        ]
        if let description = declaration.description { rows.append(("description", description)) }
        rows.append(("source", declaration.source.description))
        if declaration.isDynamic, let specification = DynamicTypeSpecification(decoding: declaration.identifier) {
            rows.append(("tag spec", specification.tagSpecification))
            let others = specification.tags.filter {
                $0.tagClass != .filenameExtensionTagClass && $0.tagClass != .mimeTypeTagClass
            }
            if !others.isEmpty {
                rows.append(("other tags", others.map { "\($0.tagClass)=\($0.value)" }.joined(separator: ", ")))
            }
        }
        for (label, value) in rows {
            lines.append("  " + label.padded(13) + value)
        }
        return lines.joined(separator: "\n")
    }
}
