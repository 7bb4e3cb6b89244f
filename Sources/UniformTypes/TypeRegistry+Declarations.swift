import Reporting

// Merging `UTExportedTypeDeclarations` / `UTImportedTypeDeclarations` from an Info.plist.
//
// Precedence (Apple documents only the first rule; the rest is exthost's choice):
// 1. exported beats imported for the same identifier, whatever order the bundles come in;
// 2. a system type is never changed: a bundle's declaration of it is not applied and is reported
//    (a warning when it would change the parents or tags, a note when it only repeats them);
// 3. within one level (two exports, or two imports) the first registered wins, the later one is
//    reported;
// 4. one winning declaration per identifier: tags and parents are never merged.
// `dyn.` identifiers cannot be declared (error, skipped); an unknown `public.` identifier is
// applied with a warning (only Apple may declare public types, and the shipped table is not
// every type Apple declares). String-or-array forms are accepted for `UTTypeConformsTo` and for
// the tag values; tag classes other than filename extension and MIME type are dropped, as the
// system does.

extension TypeRegistry {
    /// The registry with the type declarations of one already-parsed `Info.plist` added.
    ///
    /// - Parameters:
    ///   - plist: the property list's top-level dictionary.
    ///   - sourcePath: the file it came from, recorded in each declaration and diagnostic.
    /// - Returns: the new registry and what is worth reporting (entries skipped, declarations not
    ///   applied, rules broken).
    /// - Throws: ``TypeRegistryError`` with code `malformed` when a declaration key is not an array.
    public func adding(declarationsFrom plist: [String: Any], sourcePath: String) throws -> (
        TypeRegistry, [TypeDiagnostic]
    ) {
        try adding(plists: [(plist, sourcePath)])
    }

    /// The registry with the declarations of several parsed plists added, in order. The checks
    /// that need the whole picture (a parent nobody declares, a cycle) run once at the end, so a
    /// bundle may conform to a type that a later plist declares.
    func adding(plists: [([String: Any], String)]) throws -> (TypeRegistry, [TypeDiagnostic]) {
        var registry = self
        var diagnostics: [TypeDiagnostic] = []
        var touched: [String] = []
        for (plist, sourcePath) in plists {
            try registry.merge(plist, sourcePath: sourcePath, diagnostics: &diagnostics, touched: &touched)
        }
        // Most bundles declare no types (an extension's Info.plist rarely does): nothing changed,
        // so the indexes of the thousand system types are not rebuilt for each share.
        if touched.isEmpty { return (registry, diagnostics) }
        registry.rebuildIndexes()
        var checked: Set<String> = []
        for key in touched where checked.insert(key).inserted {
            guard let declaration = registry.declarations[key], let path = declaration.source.path else { continue }
            diagnostics += registry.check(declaration, sourcePath: path)
        }
        return (registry, diagnostics)
    }

    /// Applies the declarations of one plist without rebuilding the indexes; `touched` collects
    /// the identifiers it declared.
    private mutating func merge(
        _ plist: [String: Any], sourcePath: String, diagnostics: inout [TypeDiagnostic], touched: inout [String]
    ) throws {
        for (key, exported) in [("UTExportedTypeDeclarations", true), ("UTImportedTypeDeclarations", false)] {
            guard let value = plist[key] else { continue }
            guard let entries = value as? [Any] else {
                throw TypeRegistryError(
                    .malformed,
                    "\(sourcePath): \(key) must be an array of dictionaries, not \(Self.kind(of: value))")
            }
            for (index, entry) in entries.enumerated() {
                let location = "\(key)[\(index)]"
                let source: TypeDeclaration.Source =
                    exported ? .exported(path: sourcePath) : .imported(path: sourcePath)
                switch Self.parse(entry, location: location, source: source) {
                case .skipped(let diagnostic):
                    diagnostics.append(diagnostic)
                case .parsed(let declaration, let notes):
                    diagnostics += notes
                    if let diagnostic = apply(declaration) {
                        diagnostics.append(diagnostic)
                    }
                    touched.append(declaration.identifier.key)
                }
            }
        }
    }

    // MARK: - Precedence

    /// Stores `declaration` if it wins over what is registered; returns what to report.
    private mutating func apply(_ declaration: TypeDeclaration) -> TypeDiagnostic? {
        let id = declaration.identifier
        let path = declaration.source.path ?? ""
        let kind = declaration.source.kind
        func report(_ severity: TypeDiagnostic.Severity, _ message: String) -> TypeDiagnostic {
            TypeDiagnostic.typeDeclaration(severity, message, sourcePath: path, identifier: id)
        }
        if id.isDynamic {
            return report(.error, "'\(id)' is a dynamic identifier; dyn. types cannot be declared — entry skipped")
        }
        guard let existing = declarations[id.key] else {
            store(declaration)
            if id.isPublic {
                return report(
                    .warning,
                    "\(kind) declaration of '\(id)' uses the reserved public. domain (only Apple declares public "
                        + "types); applied because the system table does not have it")
            }
            return nil
        }
        switch (existing.source, declaration.source) {
        case (.system, _):
            let changes = Self.changes(from: existing, to: declaration)
            if changes.isEmpty {
                return report(
                    .note, "\(kind) declaration of system type '\(existing.identifier)' repeats it; ignored")
            }
            return report(
                .warning,
                "\(kind) declaration of system type '\(existing.identifier)' is not applied: it would change "
                    + changes.joined(separator: "; "))
        case (.imported(let other), .exported):
            store(declaration)
            return report(.note, "exported declaration of '\(id)' takes precedence over the one imported by \(other)")
        case (.exported(let other), .imported):
            return report(.note, "imported declaration of '\(id)' ignored: \(other) exports it, and exported wins")
        case (.exported(let other), .exported), (.imported(let other), .imported):
            let severity: TypeDiagnostic.Severity = declaration.source.kind == "exported" ? .warning : .note
            return report(severity, "'\(id)' is already \(kind) by \(other); this declaration is ignored (first wins)")
        case (_, .system), (_, .dynamic), (.dynamic, _):
            return nil
        }
    }

    /// What `new` would change in `old`: parents and tags, compared case-insensitively.
    private static func changes(from old: TypeDeclaration, to new: TypeDeclaration) -> [String] {
        var changes: [String] = []
        func lowered(_ values: [String]) -> [String] { values.map { $0.lowercased() } }
        if Set(old.conformsTo) != Set(new.conformsTo) {
            changes.append(
                "its parents from \(Self.list(old.conformsTo.map(\.rawValue))) to \(Self.list(new.conformsTo.map(\.rawValue)))"
            )
        }
        if lowered(old.filenameExtensions) != lowered(new.filenameExtensions) {
            changes.append(
                "its filename extensions from \(Self.list(old.filenameExtensions)) to \(Self.list(new.filenameExtensions))"
            )
        }
        if lowered(old.mimeTypes) != lowered(new.mimeTypes) {
            changes.append("its MIME types from \(Self.list(old.mimeTypes)) to \(Self.list(new.mimeTypes))")
        }
        return changes
    }

    /// Warnings about an applied declaration: parents nobody declares, conformance cycles, and
    /// types that reach neither `public.data` nor `public.directory`.
    private func check(_ declaration: TypeDeclaration, sourcePath: String) -> [TypeDiagnostic] {
        let id = declaration.identifier
        var diagnostics: [TypeDiagnostic] = []
        func warn(_ message: String) {
            diagnostics.append(
                TypeDiagnostic.typeDeclaration(.warning, message, sourcePath: sourcePath, identifier: id))
        }
        for parent in declaration.conformsTo where self.declaration(for: parent) == nil {
            warn(
                "'\(id)' conforms to '\(parent)', which no loaded bundle or system table declares; declare it "
                    + "(for example in UTImportedTypeDeclarations)")
        }
        if declaration.conformsTo.contains(where: { conforms($0, to: id) }) {
            warn("'\(id)' conforms to itself through its parents (a conformance cycle)")
        }
        if !conforms(id, to: .data) && !conforms(id, to: .directory) {
            warn(
                "'\(id)' conforms to neither public.data nor com.apple.package, so the system cannot tell "
                    + "whether a stored item has this type")
        }
        return diagnostics
    }

    // MARK: - Parsing one entry

    /// One declaration dictionary, read.
    private enum ParsedEntry {
        /// A declaration, and warnings about how it was read.
        case parsed(TypeDeclaration, notes: [TypeDiagnostic])
        /// The entry is broken; the error says why.
        case skipped(TypeDiagnostic)
    }

    /// Turns one declaration dictionary into a declaration (plus notes), or the reason it is skipped.
    private static func parse(_ entry: Any, location: String, source: TypeDeclaration.Source) -> ParsedEntry {
        let path = source.path ?? ""
        func failure(_ message: String, _ id: UniformTypeIdentifier? = nil) -> ParsedEntry {
            .skipped(
                TypeDiagnostic.typeDeclaration(
                    .error, message + " — entry skipped", sourcePath: path, identifier: id))
        }
        guard let dictionary = entry as? [String: Any] else {
            return failure("\(location) must be a dictionary, not \(kind(of: entry))")
        }
        guard let rawIdentifier = dictionary["UTTypeIdentifier"] as? String else {
            return failure("\(location) has no UTTypeIdentifier string")
        }
        guard UniformTypeIdentifier.isValidSyntax(rawIdentifier) else {
            return failure(
                "\(location): UTTypeIdentifier '\(rawIdentifier)' is not a valid identifier (only a-z A-Z 0-9 - . "
                    + "in dot-separated components)")
        }
        let id = UniformTypeIdentifier(rawIdentifier)
        var notes: [TypeDiagnostic] = []

        guard let parentNames = stringOrArray(dictionary["UTTypeConformsTo"]) else {
            return failure("\(location) ('\(id)'): UTTypeConformsTo must be a string or an array of strings", id)
        }
        var parents: [UniformTypeIdentifier] = []
        for name in parentNames {
            guard UniformTypeIdentifier.isValidSyntax(name) else {
                return failure("\(location) ('\(id)'): UTTypeConformsTo value '\(name)' is not a valid identifier", id)
            }
            if !parents.contains(UniformTypeIdentifier(name)) { parents.append(UniformTypeIdentifier(name)) }
        }

        var extensions: [String] = []
        var mimeTypes: [String] = []
        if let tagValue = dictionary["UTTypeTagSpecification"] {
            guard let tags = tagValue as? [String: Any] else {
                return failure("\(location) ('\(id)'): UTTypeTagSpecification must be a dictionary", id)
            }
            for (tagClass, value) in tags {
                let lowered = tagClass.lowercased()
                guard lowered == "public.filename-extension" || lowered == "public.mime-type" else { continue }
                guard let values = stringOrArray(value) else {
                    return failure("\(location) ('\(id)'): \(tagClass) must be a string or an array of strings", id)
                }
                if lowered == "public.mime-type" {
                    mimeTypes += values
                    continue
                }
                for value in values {
                    if value.hasPrefix(".") {
                        notes.append(
                            TypeDiagnostic.typeDeclaration(
                                .warning,
                                "'\(id)': filename extension '\(value)' has a leading dot; using "
                                    + "'\(value.dropFirst())'", sourcePath: path, identifier: id))
                    }
                    extensions.append(value.hasPrefix(".") ? String(value.dropFirst()) : value)
                }
            }
        }
        let description = dictionary["UTTypeDescription"] as? String
        let declaration = TypeDeclaration(
            identifier: id, conformsTo: parents, filenameExtensions: extensions.filter { !$0.isEmpty },
            mimeTypes: mimeTypes.filter { !$0.isEmpty }, description: description, source: source)
        return .parsed(declaration, notes: notes)
    }

    /// A string as a one-element array, an array of strings as is, nil (absent) as empty; nil for
    /// anything else.
    private static func stringOrArray(_ value: Any?) -> [String]? {
        guard let value else { return [] }
        if let string = value as? String { return [string] }
        guard let array = value as? [Any] else { return nil }
        var strings: [String] = []
        for element in array {
            guard let string = element as? String else { return nil }
            strings.append(string)
        }
        return strings
    }

    private static func list(_ values: [String]) -> String {
        values.isEmpty ? "(none)" : values.joined(separator: ", ")
    }

    /// A short name of a property-list value's kind, for messages.
    static func kind(of value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is Bool: "a boolean"
        case is Int, is Double: "a number"
        default: "a \(type(of: value))"
        }
    }
}
