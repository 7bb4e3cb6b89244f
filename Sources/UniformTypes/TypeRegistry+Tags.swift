// Tag lookups in both directions: filename extension / MIME type → type, and type → preferred tag.
//
// Selection rules (H-old, `UTTypeCreatePreferredIdentifierForTag`):
// 1. only types conforming to `conformingTo` are candidates (nil means no constraint);
// 2. public types win over non-public ones; between two of the same kind exthost takes the one
//    registered first (system table order, then bundles in the order they were added);
// 3. when nothing matches, the answer is a dynamic `dyn.` type encoding the tag and the
//    supertype asked for.
// Tags compare case-insensitively; the dynamic identifier encodes the lower-cased tag, so
// `XYZ` and `xyz` give the same dynamic type (exthost's choice).

extension TypeRegistry {
    // MARK: - Tag → type

    /// The preferred type for a filename extension (no leading dot), among the types conforming
    /// to `supertype` (default `public.data`; nil for no constraint), or a dynamic type that
    /// conforms only to `supertype` when no declared type matches.
    public func preferredType(
        forFilenameExtension filenameExtension: String, conformingTo supertype: UniformTypeIdentifier? = .data
    ) -> UniformTypeIdentifier {
        preferredType(tag: filenameExtension, index: extensionIndex, tagClass: .filenameExtensionTagClass, supertype)
    }

    /// The type a file's name (or path, or a URL's path) gives: the preferred type for its
    /// filename extension among the types conforming to `supertype` (default `public.data`; nil for
    /// no constraint), or a dynamic type when no declared type matches. The one lookup every caller
    /// uses to type a file by its name; ``declaredType(forFileNamed:isDirectory:conformingTo:)``
    /// is the same lookup without the dynamic answer.
    public func preferredType(
        forFileNamed name: String, conformingTo supertype: UniformTypeIdentifier? = .data
    ) -> UniformTypeIdentifier {
        preferredType(forFilenameExtension: Self.filenameExtension(of: name), conformingTo: supertype)
    }

    /// The declared type a file's name gives, or nil when the name has no extension or only a
    /// dynamic type answers: for a folder among the types conforming to `public.directory`, for a
    /// file among those conforming to `supertype` (nil: no constraint). The lookup an item
    /// provider, a payload and a container entry use to type a file by its name.
    public func declaredType(
        forFileNamed name: String, isDirectory: Bool = false, conformingTo supertype: UniformTypeIdentifier? = nil
    ) -> UniformTypeIdentifier? {
        guard !Self.filenameExtension(of: name).isEmpty else { return nil }
        let type = preferredType(forFileNamed: name, conformingTo: isDirectory ? .directory : supertype)
        return type.isDynamic ? nil : type
    }

    /// What follows the last dot of the last path component (empty for none, or a leading dot only).
    static func filenameExtension(of name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        return String(last[last.index(after: dot)...])
    }

    /// The preferred type for a MIME type, among the types conforming to `supertype` (default
    /// `public.data`; nil for no constraint), or a dynamic type that conforms only to `supertype`
    /// when no declared type matches.
    public func preferredType(forMIMEType mimeType: String, conformingTo supertype: UniformTypeIdentifier? = .data)
        -> UniformTypeIdentifier
    {
        preferredType(tag: mimeType, index: mimeIndex, tagClass: .mimeTypeTagClass, supertype)
    }

    /// The preferred type for a tag of a class, or nil when the tag class is neither
    /// `public.filename-extension` nor `public.mime-type` (Apple returns NULL for an unknown class).
    public func preferredType(
        forTag tag: String, tagClass: UniformTypeIdentifier, conformingTo supertype: UniformTypeIdentifier? = .data
    ) -> UniformTypeIdentifier? {
        switch tagClass {
        case .filenameExtensionTagClass: preferredType(forFilenameExtension: tag, conformingTo: supertype)
        case .mimeTypeTagClass: preferredType(forMIMEType: tag, conformingTo: supertype)
        default: nil
        }
    }

    /// Every declared type with the filename extension that conforms to `supertype` (nil: no
    /// constraint), best first; a single dynamic type when none does.
    public func types(
        forFilenameExtension filenameExtension: String, conformingTo supertype: UniformTypeIdentifier? = nil
    )
        -> [UniformTypeIdentifier]
    {
        types(tag: filenameExtension, index: extensionIndex, tagClass: .filenameExtensionTagClass, supertype)
    }

    /// Every declared type with the MIME type that conforms to `supertype` (nil: no
    /// constraint), best first; a single dynamic type when none does.
    public func types(forMIMEType mimeType: String, conformingTo supertype: UniformTypeIdentifier? = nil)
        -> [UniformTypeIdentifier]
    {
        types(tag: mimeType, index: mimeIndex, tagClass: .mimeTypeTagClass, supertype)
    }

    /// The dynamic type for a tag that no declared type has: `dyn.a…` encoding the lower-cased
    /// tag and `supertype` (see ``DynamicTypeSpecification``).
    public static func dynamicType(
        forTag tag: String, tagClass: UniformTypeIdentifier, conformingTo supertype: UniformTypeIdentifier?
    ) -> UniformTypeIdentifier {
        DynamicTypeSpecification(
            conformsTo: supertype.map { [$0] } ?? [],
            tags: [DynamicTypeSpecification.Tag(tagClass: tagClass, value: tag.lowercased())]
        ).identifier
    }

    // MARK: - Type → tag

    /// The type's first declared filename extension (for a dynamic type, the one it encodes);
    /// nil when it has none or is unknown. Tags are not inherited from supertypes.
    public func preferredFilenameExtension(for type: UniformTypeIdentifier) -> String? {
        declaration(for: type)?.preferredFilenameExtension
    }

    /// The type's first declared MIME type (for a dynamic type, the one it encodes); nil when it
    /// has none or is unknown. Tags are not inherited from supertypes.
    public func preferredMIMEType(for type: UniformTypeIdentifier) -> String? {
        declaration(for: type)?.preferredMIMEType
    }

    // MARK: - Private

    private func candidates(
        _ tag: String, _ index: [String: [String]], _ supertype: UniformTypeIdentifier?
    ) -> [UniformTypeIdentifier] {
        let keys = index[tag.lowercased()] ?? []
        return keys.compactMap { key in
            guard let declaration = declarations[key] else { return nil }
            if let supertype, !conforms(declaration.identifier, to: supertype) { return nil }
            return declaration.identifier
        }
    }

    private func preferredType(
        tag: String, index: [String: [String]], tagClass: UniformTypeIdentifier, _ supertype: UniformTypeIdentifier?
    ) -> UniformTypeIdentifier {
        candidates(tag, index, supertype).first
            ?? Self.dynamicType(forTag: tag, tagClass: tagClass, conformingTo: supertype)
    }

    private func types(
        tag: String, index: [String: [String]], tagClass: UniformTypeIdentifier, _ supertype: UniformTypeIdentifier?
    ) -> [UniformTypeIdentifier] {
        let found = candidates(tag, index, supertype)
        return found.isEmpty ? [Self.dynamicType(forTag: tag, tagClass: tagClass, conformingTo: supertype)] : found
    }
}
