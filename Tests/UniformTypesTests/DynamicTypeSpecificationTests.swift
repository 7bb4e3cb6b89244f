import Testing
import UniformTypes

struct DynamicTypeSpecificationTests {
    typealias Tag = DynamicTypeSpecification.Tag

    struct EncodingCase: Sendable, CustomTestStringConvertible {
        let specification: DynamicTypeSpecification
        let tagSpecification: String
        let identifier: String
        var testDescription: String { tagSpecification }
    }

    // Identifiers computed independently (Python: MSB-first Base32 over the tag-spec bytes).
    static let cases: [EncodingCase] = [
        EncodingCase(
            specification: .init(conformsTo: [.data], tags: [Tag(tagClass: .filenameExtensionTagClass, value: "sql")]),
            tagSpecification: "?0=6:1=sql", identifier: "dyn.ah62d4rv4ge81g6pq"),
        EncodingCase(
            specification: .init(conformsTo: [.data], tags: [Tag(tagClass: .filenameExtensionTagClass, value: "xyz")]),
            tagSpecification: "?0=6:1=xyz", identifier: "dyn.ah62d4rv4ge81u8p4"),
        EncodingCase(
            specification: .init(
                conformsTo: ["public.audio"], tags: [Tag(tagClass: .mimeTypeTagClass, value: "image/png")]),
            tagSpecification: "?0=D:3=image/png", identifier: "dyn.ah62d4vb4gq80w5pbq7ww86dsq6"),
        EncodingCase(
            specification: .init(
                conformsTo: [.directory], tags: [Tag(tagClass: .filenameExtensionTagClass, value: "x")]),
            tagSpecification: "?0=E:1=x", identifier: "dyn.ah62d4vm4ge81u"),
        EncodingCase(
            specification: .init(conformsTo: [], tags: [Tag(tagClass: .filenameExtensionTagClass, value: "sql")]),
            tagSpecification: "?1=sql", identifier: "dyn.ah62x465vru"),
    ]

    @Test(arguments: cases)
    func encodesAsApple(_ c: EncodingCase) {
        #expect(c.specification.tagSpecification == c.tagSpecification)
        #expect(c.specification.identifier.rawValue == c.identifier)
    }

    @Test(arguments: cases)
    func decodesWhatItEncodes(_ c: EncodingCase) throws {
        let decoded = try #require(DynamicTypeSpecification(decoding: UniformTypeIdentifier(c.identifier)))
        #expect(decoded == c.specification)
        let shouted = try #require(DynamicTypeSpecification(decoding: UniformTypeIdentifier(c.identifier.uppercased())))
        #expect(shouted == c.specification)
    }

    @Test(arguments: [
        DynamicTypeSpecification(
            conformsTo: ["com.example.x:y", .text],
            tags: [
                Tag(tagClass: "com.apple.ostype", value: "PNGf"), Tag(tagClass: "public.url-scheme", value: "a=b,c\\d"),
                Tag(tagClass: "com.example.tag-class", value: "v"),
            ]),
        DynamicTypeSpecification(conformsTo: ["com.apple.traditional-mac-plain-text", "public.folder"], tags: []),
    ])
    func roundTripsEscapesOtherTagClassesAndSeveralParents(_ specification: DynamicTypeSpecification) throws {
        let decoded = try #require(DynamicTypeSpecification(decoding: specification.identifier))
        #expect(decoded == specification)
    }

    @Test(arguments: ["dyn.a!!!", "dyn.b62d4rv4ge81g6pq", "public.data", "dyn.a", "dyn.ahy2d4"])
    func rejectsIdentifiersThatAreNotTagSpecifications(_ text: String) {
        #expect(DynamicTypeSpecification(decoding: UniformTypeIdentifier(text)) == nil)
        #expect(TypeRegistry.system.declaration(for: UniformTypeIdentifier(text)) == nil || text == "public.data")
    }

    @Test func dynamicDeclarationShowsItsTagsAndConformsOnlyToWhatItEncodes() throws {
        let registry = TypeRegistry.system
        let id: UniformTypeIdentifier = "dyn.ah62d4rv4ge81g6pq"
        let declaration = try #require(registry.declaration(for: id))
        #expect(declaration.isDynamic)
        #expect(declaration.source == .dynamic)
        #expect(!declaration.isPublic)
        #expect(declaration.description == nil)
        #expect(declaration.conformsTo == [.data])
        #expect(declaration.filenameExtensions == ["sql"])
        #expect(declaration.mimeTypes.isEmpty)
        #expect(!registry.isDeclared(id))
        #expect(registry.conforms(id, to: .data))
        #expect(registry.conforms(id, to: .item))
        #expect(registry.conforms(id, to: id))
        #expect(!registry.conforms(id, to: .content))
        #expect(!registry.conforms(id, to: .text))
        #expect(registry.supertypes(of: id) == [.data, .item])
        #expect(registry.conformanceChecker(to: .data)(id.rawValue))
        #expect(!registry.conformanceChecker(to: .content)(id.rawValue))
    }

    @Test func dynamicTypeForADirectoryConformsToDirectoryNotData() {
        let id = TypeRegistry.system.preferredType(forFilenameExtension: "nosuchpackage", conformingTo: .directory)
        #expect(id.isDynamic)
        #expect(TypeRegistry.system.conforms(id, to: .directory))
        #expect(!TypeRegistry.system.conforms(id, to: .data))
    }
}
