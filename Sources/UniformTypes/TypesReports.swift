/// The `--json` reports of `exthost types …`, one `Codable` type each: the command line prints
/// their encoding, and tests decode them.
public enum TypesReports {
    /// One declaration: `exthost types show --json`, and each element of `exthost types list --json`.
    public struct Declaration: Codable, Sendable, Equatable {
        /// One tag a dynamic identifier encodes.
        public struct Tag: Codable, Sendable, Equatable {
            public var tagClass: String
            public var value: String

            /// A tag.
            package init(tagClass: String, value: String) {
                self.tagClass = tagClass
                self.value = value
            }
        }

        public var identifier: String
        /// The declared parents (canonical spelling).
        public var conformsTo: [String]
        /// Every supertype, nearest first.
        public var supertypes: [String]
        public var filenameExtensions: [String]
        public var mimeTypes: [String]
        /// Whether it is a `dyn.…` type.
        public var dynamic: Bool
        /// Whether the registry declares it (a dynamic type is decoded, not declared).
        public var declared: Bool
        public var `public`: Bool
        public var description: String?
        /// `system`, `exported`, `imported`, `dynamic`, …
        public var source: String
        /// The Info.plist that declares it, if any.
        public var sourcePath: String?
        /// A dynamic type's decoded tag specification; null for any other type.
        public var tagSpecification: String?
        /// A dynamic type's tags; null for any other type.
        public var tags: [Tag]?

        /// `declaration` as `registry` sees it.
        public init(_ declaration: TypeDeclaration, _ registry: TypeRegistry) {
            identifier = declaration.identifier.rawValue
            conformsTo = declaration.conformsTo.map { registry.canonical($0).rawValue }
            supertypes = registry.supertypes(of: declaration.identifier).map(\.rawValue)
            filenameExtensions = declaration.filenameExtensions
            mimeTypes = declaration.mimeTypes
            dynamic = declaration.isDynamic
            declared = registry.isDeclared(declaration.identifier)
            `public` = declaration.isPublic
            description = declaration.description
            source = declaration.source.kind
            sourcePath = declaration.source.path
            if declaration.isDynamic, let specification = DynamicTypeSpecification(decoding: declaration.identifier) {
                tagSpecification = specification.tagSpecification
                tags = specification.tags.map { Tag(tagClass: $0.tagClass.rawValue, value: $0.value) }
            }
        }
    }

    /// `exthost types conforms --json`.
    public struct Conformance: Codable, Sendable, Equatable {
        public var type: String
        public var supertype: String
        public var conforms: Bool
        /// The chain from `type` to `supertype`; null when it does not conform.
        public var path: [String]?

        /// A report.
        package init(type: String, supertype: String, conforms: Bool, path: [String]?) {
            self.type = type
            self.supertype = supertype
            self.conforms = conforms
            self.path = path
        }
    }

    /// `exthost types for-extension --json`.
    public struct ExtensionLookup: Codable, Sendable, Equatable {
        /// The extension asked about (without a leading dot).
        public var `extension`: String
        public var conformingTo: String
        public var preferred: String
        /// Whether `preferred` is a `dyn.…` type (nothing declared matches).
        public var dynamic: Bool
        /// Every match, best first.
        public var types: [String]

        /// A report.
        package init(`extension`: String, conformingTo: String, preferred: String, dynamic: Bool, types: [String]) {
            self.`extension` = `extension`
            self.conformingTo = conformingTo
            self.preferred = preferred
            self.dynamic = dynamic
            self.types = types
        }
    }

    /// `exthost types for-mime --json`.
    public struct MIMETypeLookup: Codable, Sendable, Equatable {
        /// The MIME type asked about.
        public var mimeType: String
        public var conformingTo: String
        public var preferred: String
        /// Whether `preferred` is a `dyn.…` type (nothing declared matches).
        public var dynamic: Bool
        /// Every match, best first.
        public var types: [String]

        /// A report.
        package init(mimeType: String, conformingTo: String, preferred: String, dynamic: Bool, types: [String]) {
            self.mimeType = mimeType
            self.conformingTo = conformingTo
            self.preferred = preferred
            self.dynamic = dynamic
            self.types = types
        }
    }
}
