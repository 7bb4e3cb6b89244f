import Testing
import UniformTypes

struct TagLookupTests {
    let registry = TypeRegistry.system

    struct TagCase: Sendable, CustomTestStringConvertible {
        let tag: String
        let conformingTo: UniformTypeIdentifier?
        let expected: String
        init(_ tag: String, _ expected: String) {
            self.init(tag, .data, expected)
        }
        init(_ tag: String, _ conformingTo: UniformTypeIdentifier?, _ expected: String) {
            self.tag = tag
            self.conformingTo = conformingTo
            self.expected = expected
        }
        var testDescription: String { "\(tag) conformingTo \(conformingTo?.rawValue ?? "nil") → \(expected)" }
    }

    @Test(arguments: [
        TagCase("jpg", "public.jpeg"),
        TagCase("JPG", "public.jpeg"),
        TagCase("jpeg", "public.jpeg"),
        TagCase("png", "public.png"),
        TagCase("heic", "public.heic"),
        TagCase("pdf", "com.adobe.pdf"),
        TagCase("txt", "public.plain-text"),
        TagCase("zip", "public.zip-archive"),
        TagCase("card", "dyn.ah62d4rv4ge80g2pwqu"),
        // Shared extensions: the supertype decides; otherwise the first registered wins.
        TagCase("mp4", "public.mpeg-4"),
        TagCase("mp4", "public.audio", "public.mpeg-4-audio"),
        TagCase("plist", "com.apple.property-list"),
        TagCase("plist", "public.xml", "com.apple.xml-property-list"),
        // Packages are not public.data: the default constraint misses them.
        TagCase("rtfd", "dyn.ah62d4rv4ge81e7dgqu"),
        TagCase("rtfd", "com.apple.package", "com.apple.rtfd"),
        TagCase("rtfd", nil, "com.apple.rtfd"),
        TagCase("app", "public.directory", "com.apple.application-bundle"),
        TagCase("app", "com.apple.application-file"),
        TagCase("jpg", "public.audio", "dyn.ah62d4vb4ge80y6dh"),
        // Unknown extensions.
        TagCase("sql", "dyn.ah62d4rv4ge81g6pq"),
        TagCase("xyz", "dyn.ah62d4rv4ge81u8p4"),
        TagCase("XYZ", "dyn.ah62d4rv4ge81u8p4"),
    ])
    func filenameExtensionGivesThePreferredTypeAmongTheConformingOnes(_ c: TagCase) {
        let found = registry.preferredType(forFilenameExtension: c.tag, conformingTo: c.conformingTo)
        #expect(found.rawValue == c.expected)
        if let constraint = c.conformingTo { #expect(registry.conforms(found, to: constraint)) }
    }

    @Test(arguments: [
        TagCase("image/jpeg", "public.jpeg"),
        TagCase("IMAGE/PNG", "public.png"),
        TagCase("application/pdf", "com.adobe.pdf"),
        TagCase("text/xml", "public.xml"),
        TagCase("application/xml", "public.xml"),
        TagCase("application/octet-stream", "public.data"),
        TagCase("audio/mp4", "public.mpeg-4-audio"),
        TagCase("text/plain", "public.plain-text"),
        TagCase("image/png", "public.audio", "dyn.ah62d4vb4gq80w5pbq7ww86dsq6"),
    ])
    func mimeTypeGivesThePreferredType(_ c: TagCase) {
        let found = registry.preferredType(forMIMEType: c.tag, conformingTo: c.conformingTo)
        #expect(found.rawValue == c.expected)
        if c.expected.hasPrefix("dyn.") {
            #expect(registry.declaration(for: found)?.mimeTypes == [c.tag.lowercased()])
        }
    }

    @Test func unknownMIMETypeGivesADynamicTypeEncodingIt() throws {
        let found = registry.preferredType(forMIMEType: "application/x-unknown")
        let specification = try #require(DynamicTypeSpecification(decoding: found))
        #expect(specification.tagSpecification == "?0=6:3=application/x-unknown")
        #expect(registry.conforms(found, to: .data))
        #expect(!registry.conforms(found, to: .content))
        #expect(registry.preferredMIMEType(for: found) == "application/x-unknown")
    }

    struct PreferredTagCase: Sendable, CustomTestStringConvertible {
        let type: UniformTypeIdentifier
        let filenameExtension: String?
        let mimeType: String?
        var testDescription: String { "\(type)" }
    }

    @Test(arguments: [
        PreferredTagCase(type: "public.jpeg", filenameExtension: "jpeg", mimeType: "image/jpeg"),
        PreferredTagCase(type: "public.xml", filenameExtension: "xml", mimeType: "application/xml"),
        PreferredTagCase(type: "public.plain-text", filenameExtension: "txt", mimeType: "text/plain"),
        PreferredTagCase(type: "PUBLIC.HTML", filenameExtension: "html", mimeType: "text/html"),
        PreferredTagCase(type: "public.url", filenameExtension: nil, mimeType: nil),
        PreferredTagCase(type: "public.image", filenameExtension: nil, mimeType: nil),
        PreferredTagCase(type: "com.example.unknown", filenameExtension: nil, mimeType: nil),
        PreferredTagCase(type: "dyn.ah62d4rv4ge81g6pq", filenameExtension: "sql", mimeType: nil),
    ])
    func preferredTagIsTheFirstDeclared(_ c: PreferredTagCase) {
        #expect(registry.preferredFilenameExtension(for: c.type) == c.filenameExtension)
        #expect(registry.preferredMIMEType(for: c.type) == c.mimeType)
    }

    @Test func allTypesForATagInPreferenceOrder() {
        #expect(
            registry.types(forFilenameExtension: "plist").map(\.rawValue) == [
                "com.apple.property-list", "com.apple.xml-property-list", "com.apple.binary-property-list",
            ])
        #expect(
            registry.types(forFilenameExtension: "MP4").map(\.rawValue) == ["public.mpeg-4", "public.mpeg-4-audio"])
        #expect(
            registry.types(forFilenameExtension: "mp4", conformingTo: "public.audio").map(\.rawValue) == [
                "public.mpeg-4-audio"
            ])
        #expect(
            registry.types(forMIMEType: "application/x-msdownload").map(\.rawValue) == [
                "com.microsoft.windows-executable", "com.microsoft.windows-dynamic-link-library",
            ])
        let unknown = registry.types(forFilenameExtension: "xyz")
        #expect(unknown.count == 1)
        #expect(unknown.first?.isDynamic == true)
    }

    @Test func publicTypesWinOverNonPublicOnes() {
        // application/octet-stream is declared by public.data and by com.apple.iphone.package-archive.
        #expect(registry.types(forMIMEType: "application/octet-stream").first?.rawValue == "public.data")
        #expect(
            registry.preferredType(forMIMEType: "application/octet-stream", conformingTo: "public.archive").rawValue
                == "com.apple.iphone.package-archive")
    }

    @Test func tagClassDecidesTheLookupAndUnknownClassesGiveNil() {
        #expect(registry.preferredType(forTag: "png", tagClass: .filenameExtensionTagClass)?.rawValue == "public.png")
        #expect(registry.preferredType(forTag: "image/png", tagClass: .mimeTypeTagClass)?.rawValue == "public.png")
        #expect(registry.preferredType(forTag: "PNGf", tagClass: "com.apple.ostype") == nil)
    }

    /// The one lookup of a type from a file's name or path: its last component's extension, or a
    /// dynamic type (none: a name without an extension, or with only a leading dot).
    @Test func aFilesTypeComesFromTheExtensionOfItsLastComponent() {
        let registry = TypeRegistry.system
        #expect(registry.preferredType(forFileNamed: "/tmp/a.b/photo.PNG").rawValue == "public.png")
        #expect(registry.preferredType(forFileNamed: "notes.txt", conformingTo: .image).isDynamic)
        #expect(registry.preferredType(forFileNamed: "notes.txt", conformingTo: nil).rawValue == "public.plain-text")
        let bare = registry.preferredType(forFileNamed: "/tmp/a.b/README")
        #expect(bare == registry.preferredType(forFilenameExtension: ""))
        #expect(registry.preferredType(forFileNamed: ".hidden") == bare)
        #expect(registry.declaredType(forFileNamed: "README") == nil)
    }
}
