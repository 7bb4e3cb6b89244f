/// One type declaration: what the system, a bundle's `Info.plist`, or a `dyn.` identifier says
/// about a type.
///
/// Tags keep their declared order; the first filename extension and the first MIME type are the
/// preferred ones ("the first tag in the declared tag array is the preferred tag").
public struct TypeDeclaration: Sendable, Hashable {
    /// Where a declaration comes from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The built-in system table (CoreTypes).
        case system
        /// `UTExportedTypeDeclarations` of the `Info.plist` at the path: the bundle owns the type.
        case exported(path: String)
        /// `UTImportedTypeDeclarations` of the `Info.plist` at the path: the bundle uses a type
        /// somebody else owns.
        case imported(path: String)
        /// Decoded from a `dyn.` identifier; nobody declares it.
        case dynamic

        /// `system`, `exported by PATH`, `imported by PATH` or `dynamic`.
        public var description: String {
            switch self {
            case .system: "system"
            case .exported(let path): "exported by \(path)"
            case .imported(let path): "imported by \(path)"
            case .dynamic: "dynamic"
            }
        }

        /// `system`, `exported`, `imported` or `dynamic`, for machine output.
        public var kind: String {
            switch self {
            case .system: "system"
            case .exported: "exported"
            case .imported: "imported"
            case .dynamic: "dynamic"
            }
        }

        /// The `Info.plist` path of an exported or imported declaration.
        public var path: String? {
            switch self {
            case .exported(let path), .imported(let path): path
            case .system, .dynamic: nil
            }
        }
    }

    /// The type's identifier, spelled as declared.
    public var identifier: UniformTypeIdentifier
    /// The direct parents (`UTTypeConformsTo`), in declared order.
    public var conformsTo: [UniformTypeIdentifier]
    /// Filename extensions without a leading dot, the preferred one first.
    public var filenameExtensions: [String]
    /// MIME types, the preferred one first.
    public var mimeTypes: [String]
    /// The human-readable description (`UTTypeDescription`), if declared. Dynamic types never
    /// have one.
    public var description: String?
    /// Where the declaration comes from.
    public var source: Source

    /// Creates a declaration.
    public init(
        identifier: UniformTypeIdentifier, conformsTo: [UniformTypeIdentifier] = [], filenameExtensions: [String] = [],
        mimeTypes: [String] = [], description: String? = nil, source: Source
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.filenameExtensions = filenameExtensions
        self.mimeTypes = mimeTypes
        self.description = description
        self.source = source
    }

    /// Whether the type was generated from a `dyn.` identifier. Dynamic and declared are
    /// mutually exclusive.
    public var isDynamic: Bool { source == .dynamic }

    /// Whether the identifier is in the `public` domain. Dynamic types are never public.
    public var isPublic: Bool { identifier.isPublic }

    /// The first declared filename extension.
    public var preferredFilenameExtension: String? { filenameExtensions.first }

    /// The first declared MIME type.
    public var preferredMIMEType: String? { mimeTypes.first }
}
