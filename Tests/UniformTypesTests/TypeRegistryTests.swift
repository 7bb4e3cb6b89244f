import Foundation
import Testing
import UniformTypes

struct TypeRegistryTests {
    let registry = TypeRegistry.system

    struct ConformanceCase: Sendable, CustomTestStringConvertible {
        let type: UniformTypeIdentifier
        let target: UniformTypeIdentifier
        let conforms: Bool
        init(_ type: UniformTypeIdentifier, _ target: UniformTypeIdentifier, _ conforms: Bool) {
            self.type = type
            self.target = target
            self.conforms = conforms
        }
        var testDescription: String { "\(type) \(conforms ? "→" : "↛") \(target)" }
    }

    static let conformanceCases: [ConformanceCase] = [
        // Two roots: public.url is data but not content.
        .init("public.url", "public.data", true),
        .init("public.url", "public.item", true),
        .init("public.url", "public.content", false),
        .init("public.file-url", "public.url", true),
        .init("public.file-url", "public.content", false),
        .init("public.content", "public.item", false),
        .init("public.item", "public.content", false),
        .init("public.png", "public.image", true),
        .init("public.png", "public.data", true),
        .init("public.png", "public.content", true),
        .init("public.png", "public.item", true),
        // public.zip-archive reaches public.archive only through com.pkware.zip-archive.
        .init("public.zip-archive", "com.pkware.zip-archive", true),
        .init("public.zip-archive", "public.archive", true),
        .init("public.zip-archive", "public.data", true),
        .init("public.zip-archive", "public.content", false),
        .init("public.tar-archive", "public.archive", true),
        .init("com.sun.java-archive", "public.archive", true),
        // HEIC through public.heif-standard.
        .init("public.heic", "public.heif-standard", true),
        .init("public.heic", "public.image", true),
        .init("public.heic", "public.content", true),
        .init("public.heic", "public.jpeg", false),
        .init("public.heics", "public.image", true),
        // Conformance only follows declarations.
        .init("public.json", "com.netscape.javascript-source", false),
        .init("public.json", "public.text", true),
        // Packages are directories, not data, not content.
        .init("com.apple.rtfd", "public.directory", true),
        .init("com.apple.rtfd", "public.data", false),
        .init("com.apple.rtfd", "public.composite-content", true),
        .init("public.folder", "public.content", false),
        .init("com.apple.package", "public.content", false),
        // Several parents.
        .init("com.apple.xml-property-list", "public.xml", true),
        .init("com.apple.xml-property-list", "com.apple.property-list", true),
        .init("public.utf8-tab-separated-values-text", "public.utf8-plain-text", true),
        .init("public.utf8-tab-separated-values-text", "public.delimited-values-text", true),
        .init("com.apple.application-bundle", "com.apple.application", true),
        .init("com.apple.application-bundle", "com.apple.bundle", true),
        .init("com.apple.application-bundle", "com.apple.package", true),
        .init("com.apple.application-bundle", "public.executable", true),
        // Functional roots conform to nothing physical.
        .init("public.calendar-event", "public.item", false),
        .init("public.contact", "public.data", false),
        .init("public.vcard", "public.contact", true),
        .init("public.vcard", "public.text", true),
        .init("com.apple.ical.ics", "public.calendar-event", true),
        // Choices documented in Scripts/generate-system-types.
        .init("public.font", "public.data", false),
        .init("public.log", "public.item", false),
        .init("com.microsoft.internet-shortcut", "public.stored-url", true),
        .init("public.comma-separated-values-text", "public.plain-text", false),
        // Reflexive, case-insensitive.
        .init("public.png", "public.png", true),
        .init("PUBLIC.PNG", "Public.Image", true),
        .init("com.apple.iwork.pages.pages", "COM.APPLE.PACKAGE", true),
        // Undeclared: equal to itself only.
        .init("com.example.unknown", "com.example.unknown", true),
        .init("com.example.unknown", "public.data", false),
        .init("public.data", "com.example.unknown", false),
    ]

    @Test(arguments: conformanceCases)
    func conformanceIsReflexiveTransitiveAndCaseInsensitive(_ c: ConformanceCase) {
        #expect(registry.conforms(c.type, to: c.target) == c.conforms)
    }

    @Test(arguments: conformanceCases)
    func precompiledCheckerAgreesWithConforms(_ c: ConformanceCase) {
        let checker = registry.conformanceChecker(to: c.target)
        #expect(checker(c.type.rawValue) == c.conforms)
        #expect(checker(c.type.rawValue.uppercased()) == c.conforms)
    }

    struct ParentsCase: Sendable, CustomTestStringConvertible {
        let type: UniformTypeIdentifier
        let parents: [UniformTypeIdentifier]
        var testDescription: String { "\(type)" }
    }

    @Test(arguments: [
        ParentsCase(type: "public.zip-archive", parents: ["com.pkware.zip-archive"]),
        ParentsCase(type: "public.heic", parents: ["public.heif-standard"]),
        ParentsCase(type: "public.image", parents: ["public.data", "public.content"]),
        ParentsCase(
            type: "com.apple.application-bundle",
            parents: ["com.apple.application", "com.apple.bundle", "com.apple.package"]),
        ParentsCase(type: "public.content", parents: []),
        ParentsCase(type: "public.item", parents: []),
        ParentsCase(type: "public.font", parents: []),
        ParentsCase(type: "public.executable", parents: ["public.item"]),
    ])
    func keepsEveryDirectParentInDeclaredOrder(_ c: ParentsCase) throws {
        let declaration = try #require(registry.declaration(for: c.type))
        #expect(declaration.conformsTo.map(\.rawValue) == c.parents.map(\.rawValue))
        #expect(declaration.source == .system)
        #expect(!declaration.isDynamic)
    }

    @Test func supertypesAreAllAncestorsDepthFirstInDeclaredOrder() {
        #expect(
            registry.supertypes(of: "public.png").map(\.rawValue) == [
                "public.image", "public.data", "public.item", "public.content",
            ])
        #expect(
            registry.supertypes(of: "PUBLIC.ZIP-ARCHIVE").map(\.rawValue) == [
                "com.pkware.zip-archive", "public.data", "public.item", "public.archive",
            ])
        #expect(registry.supertypes(of: "public.item").isEmpty)
        #expect(registry.supertypes(of: "com.example.unknown").isEmpty)
    }

    @Test func conformancePathShowsTheChain() {
        #expect(
            registry.conformancePath(from: "public.zip-archive", to: "public.archive")?.map(\.rawValue) == [
                "public.zip-archive", "com.pkware.zip-archive", "public.archive",
            ])
        #expect(registry.conformancePath(from: "public.url", to: "public.content") == nil)
        #expect(registry.conformancePath(from: "public.png", to: "PUBLIC.PNG")?.map(\.rawValue) == ["public.png"])
    }

    @Test func undeclaredIdentifierGivesNothing() {
        #expect(registry.declaration(for: "com.example.unknown") == nil)
        #expect(!registry.isDeclared("com.example.unknown"))
        #expect(registry.declaration(for: "public.jpg") == nil)
        #expect(registry.isDeclared("public.jpeg"))
        #expect(registry.isDeclared("PUBLIC.JPEG"))
    }

    @Test func lookupKeepsTheDeclaredSpelling() throws {
        let pages = try #require(registry.declaration(for: "com.apple.iwork.pages.pages"))
        #expect(pages.identifier.rawValue == "com.apple.iWork.Pages.pages")
        #expect(registry.canonical("PUBLIC.JPEG").rawValue == "public.jpeg")
    }

    @Test func listsTypesConformingToATarget() {
        let archives = registry.declarations(conformingTo: "public.archive").map(\.identifier.rawValue)
        #expect(archives.contains("public.zip-archive"))
        #expect(archives.contains("public.archive"))
        #expect(!archives.contains("public.png"))
    }

    /// Every row of the checked-in TSV is declared with its tags, and the computed closure equals
    /// the TSV's `all_supertypes` column (plus public.stored-url for the internet-location types and
    /// their subtypes, where the generator follows Apple's docs over the header).
    @Test func systemTableMatchesTheCheckedInTSV() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: root.appendingPathComponent("Scripts/data/uti-system-types.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines.removeFirst()
        let column = { (name: String) throws -> Int in try #require(header.firstIndex(of: name)) }
        let (idColumn, extColumn, mimeColumn, allColumn) = (
            try column("identifier"), try column("filename_extensions"), try column("mime_types"),
            try column("all_supertypes")
        )
        func list(_ field: String) -> [String] { field.split(separator: ",").map(String.init) }
        let documentedOverrides: Set<String> = ["com.apple.internet-location", "com.microsoft.internet-shortcut"]
        var declared = 0
        for row in lines where !row[idColumn].hasPrefix("dyn.") {
            let id = UniformTypeIdentifier(row[idColumn])
            let declaration = try #require(registry.declaration(for: id), "\(id) missing")
            declared += 1
            #expect(declaration.filenameExtensions == list(row[extColumn]), "\(id)")
            #expect(declaration.mimeTypes == list(row[mimeColumn]), "\(id)")
            var expected = Set(list(row[allColumn]).map { UniformTypeIdentifier($0) })
            if documentedOverrides.contains(id.rawValue)
                || expected.contains(where: { documentedOverrides.contains($0.rawValue) })
            {
                expected.insert("public.stored-url")
            }
            #expect(Set(registry.supertypes(of: id)) == expected, "\(id)")
        }
        #expect(declared == 213)
        #expect(registry.allDeclarations.count == 213)
    }
}
