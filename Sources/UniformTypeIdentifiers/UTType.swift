@_exported public import ExtensionFoundation
public import Foundation
import UniformTypes

/// A kind of tag that names a type in another type system: a filename extension or a MIME type.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// The tag class identifier (`public.filename-extension`).
    public let rawValue: String
    /// A tag class.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Filename extensions such as `"txt"`, without the period (`public.filename-extension`).
    public static var filenameExtension: UTTagClass { UTTagClass(rawValue: "public.filename-extension") }
    /// MIME types such as `"text/plain"` (`public.mime-type`).
    public static var mimeType: UTTagClass { UTTagClass(rawValue: "public.mime-type") }

    /// The raw value.
    public var description: String { rawValue }
    /// The raw value.
    public var debugDescription: String { rawValue }
}

/// A type in the type hierarchy: Apple's `UTType`, answered from the system's type table plus the
/// types the running process's bundle (and its app) declare in `UTExportedTypeDeclarations` and
/// `UTImportedTypeDeclarations`.
public struct UTType: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    let uti: UniformTypeIdentifier

    init(uti: UniformTypeIdentifier) { self.uti = uti }

    static var registry: TypeRegistry { ProcessIdentity.typeRegistry }

    /// The type with `identifier`, or nil when the system does not know it (a `dyn.` identifier is
    /// known: it describes itself).
    public init?(_ identifier: String) {
        let uti = UniformTypeIdentifier(identifier)
        guard uti.isDynamic || Self.registry.isDeclared(uti) else { return nil }
        self.init(uti: Self.registry.canonical(uti))
    }

    /// The preferred type for a filename extension that conforms to `supertype`; a dynamic type
    /// when none is declared. Nil for an extension with a period or a slash.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The preferred type for a MIME type that conforms to `supertype`; a dynamic type when none
    /// is declared.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The preferred type for `tag` of `tagClass` conforming to `supertype` (nil: no constraint).
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        guard !tag.isEmpty, !(tagClass == .filenameExtension && (tag.contains(".") || tag.contains("/"))),
            let found = Self.registry.preferredType(
                forTag: tag, tagClass: UniformTypeIdentifier(tagClass.rawValue), conformingTo: supertype?.uti)
        else { return nil }
        self.init(uti: found)
    }

    /// Every type for `tag` of `tagClass` conforming to `supertype`, preferred first.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        let found: [UniformTypeIdentifier] =
            switch tagClass {
            case .filenameExtension: registry.types(forFilenameExtension: tag, conformingTo: supertype?.uti)
            case .mimeType: registry.types(forMIMEType: tag, conformingTo: supertype?.uti)
            default: []
            }
        return found.map(UTType.init(uti:))
    }

    /// A type your app exports (declared in its `UTExportedTypeDeclarations`).
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(uti: UniformTypeIdentifier(identifier))
    }

    /// A type your app imports (declared in its `UTImportedTypeDeclarations`).
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(uti: UniformTypeIdentifier(identifier))
    }

    /// The type identifier (`public.jpeg`).
    public var identifier: String { uti.rawValue }
    /// The first declared filename extension.
    public var preferredFilenameExtension: String? { Self.registry.preferredFilenameExtension(for: uti) }
    /// The first declared MIME type.
    public var preferredMIMEType: String? { Self.registry.preferredMIMEType(for: uti) }
    /// The type's description, or its nearest declared supertype's (never for a dynamic type).
    public var localizedDescription: String? {
        guard !isDynamic else { return nil }
        if let own = Self.registry.declaration(for: uti)?.description { return own }
        return Self.registry.supertypes(of: uti).lazy.compactMap { Self.registry.declaration(for: $0)?.description }
            .first
    }
    /// Every declared tag, by class.
    public var tags: [UTTagClass: [String]] {
        guard let declaration = Self.registry.declaration(for: uti) else { return [:] }
        var tags: [UTTagClass: [String]] = [:]
        if !declaration.filenameExtensions.isEmpty { tags[.filenameExtension] = declaration.filenameExtensions }
        if !declaration.mimeTypes.isEmpty { tags[.mimeType] = declaration.mimeTypes }
        return tags
    }
    /// Whether the system made the type up for an undeclared tag (`dyn.…`).
    public var isDynamic: Bool { uti.isDynamic }
    /// Whether the type is declared (by the system or a bundle).
    public var isDeclared: Bool { !isDynamic && Self.registry.isDeclared(uti) }
    /// Whether the identifier is in the `public` domain.
    public var isPublic: Bool { uti.isPublic }

    /// Whether the type is `type` or conforms to it, directly or not.
    public func conforms(to type: UTType) -> Bool { Self.registry.conforms(uti, to: type.uti) }
    /// Whether `type` conforms to this type and is not it.
    public func isSupertype(of type: UTType) -> Bool { type != self && type.conforms(to: self) }
    /// Whether this type conforms to `type` and is not it.
    public func isSubtype(of type: UTType) -> Bool { type != self && conforms(to: type) }
    /// Every type this one conforms to, directly or not.
    public var supertypes: Set<UTType> { Set(Self.registry.supertypes(of: uti).map(UTType.init(uti:))) }

    /// The identifier.
    public var description: String { identifier }
    /// The identifier.
    public var debugDescription: String { identifier }

    /// Types are equal when their identifiers are (compared case-insensitively).
    public static func == (lhs: UTType, rhs: UTType) -> Bool { lhs.uti == rhs.uti }
    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(uti) }

    /// Decodes the identifier.
    public init(from decoder: any Decoder) throws {
        self.init(uti: UniformTypeIdentifier(try decoder.singleValueContainer().decode(String.self)))
    }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

extension URL {
    /// `partialName` appended, with `contentType`'s preferred extension unless it already has one
    /// valid for the type.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        appendingPathComponent(UTType.completedName(partialName, contentType))
    }

    /// Appends `partialName` completed with `contentType`'s extension.
    public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType) {
        self = appendingPathComponent(partialName, conformingTo: contentType)
    }

    /// The last path component completed with `contentType`'s extension.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        deletingLastPathComponent().appendingPathComponent(UTType.completedName(lastPathComponent, contentType))
    }

    /// Completes the last path component with `contentType`'s extension.
    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }
}

extension UTType {
    /// `name`, with `type`'s preferred filename extension added unless its own extension already
    /// gives a declared type conforming to `type`.
    static func completedName(_ name: String, _ type: UTType) -> String {
        if registry.declaredType(forFileNamed: name, conformingTo: type.uti) != nil { return name }
        guard let preferred = type.preferredFilenameExtension else { return name }
        return name + "." + preferred
    }
}
