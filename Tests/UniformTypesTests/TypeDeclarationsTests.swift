import Foundation
import Testing
import UniformTypes

/// Declarations read from Info.plist files: `TypeRegistry.adding(declarationsFrom…)`.
struct TypeDeclarationsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let cardDrop = packageRoot.appendingPathComponent("Containers/Bundles/CardDrop.app")
    static let card: UniformTypeIdentifier = "com.example.carddrop.card"

    // MARK: - Helpers

    /// A declaration dictionary.
    static func entry(
        _ id: String, conformsTo: Any? = ["public.data"], extensions: Any? = nil, mimeTypes: Any? = nil,
        description: String? = nil
    ) -> [String: Any] {
        var entry: [String: Any] = ["UTTypeIdentifier": id]
        if let conformsTo { entry["UTTypeConformsTo"] = conformsTo }
        var tags: [String: Any] = [:]
        if let extensions { tags["public.filename-extension"] = extensions }
        if let mimeTypes { tags["public.mime-type"] = mimeTypes }
        if !tags.isEmpty { entry["UTTypeTagSpecification"] = tags }
        if let description { entry["UTTypeDescription"] = description }
        return entry
    }

    static func plist(exported: [[String: Any]] = [], imported: [[String: Any]] = []) -> [String: Any] {
        var plist: [String: Any] = ["CFBundleIdentifier": "com.example.test"]
        if !exported.isEmpty { plist["UTExportedTypeDeclarations"] = exported }
        if !imported.isEmpty { plist["UTImportedTypeDeclarations"] = imported }
        return plist
    }

    /// Writes `contents` to a fresh temporary file and returns its URL.
    static func temporaryFile(_ name: String, _ contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uniformtypes-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    // MARK: - The demo bundle

    @Test func cardDropBundleExportsItsCardType() throws {
        let (registry, diagnostics) = try TypeRegistry.system.adding(declarationsFromPlistAt: Self.cardDrop)
        #expect(diagnostics.isEmpty)
        let declaration = try #require(registry.declaration(for: Self.card))
        #expect(declaration.source == .exported(path: Self.cardDrop.appendingPathComponent("Info.plist").path))
        #expect(declaration.description == "CardDrop Card")
        #expect(declaration.conformsTo == ["public.json"])
        #expect(registry.isDeclared("COM.EXAMPLE.CARDDROP.CARD"))
        #expect(registry.conforms(Self.card, to: "public.json"))
        #expect(registry.conforms(Self.card, to: .text))
        #expect(registry.conforms(Self.card, to: .data))
        #expect(registry.conforms(Self.card, to: .content))
        #expect(!registry.conforms(Self.card, to: .image))
        #expect(registry.preferredType(forFilenameExtension: "card") == Self.card)
        #expect(registry.preferredType(forFilenameExtension: "CARD", conformingTo: .text) == Self.card)
        #expect(registry.preferredType(forMIMEType: "application/vnd.example.card+json") == Self.card)
        #expect(registry.preferredFilenameExtension(for: Self.card) == "card")
        #expect(registry.preferredMIMEType(for: Self.card) == "application/vnd.example.card+json")
        #expect(registry.conformanceChecker(to: .text)("com.example.carddrop.card"))
        // The system registry is a value and does not change.
        #expect(!TypeRegistry.system.isDeclared(Self.card))
        #expect(TypeRegistry.system.preferredType(forFilenameExtension: "card").isDynamic)
    }

    @Test func readsTheInfoPlistFileDirectlyToo() throws {
        let file = Self.cardDrop.appendingPathComponent("Info.plist")
        let (registry, _) = try TypeRegistry.system.adding(declarationsFromPlistAt: file)
        #expect(registry.isDeclared(Self.card))
    }

    // MARK: - String-or-array forms

    struct FormCase: Sendable, CustomTestStringConvertible {
        let name: String
        let conformsTo: [String]?
        let conformsToString: String?
        let extensions: [String]?
        let extensionString: String?
        var testDescription: String { name }
    }

    @Test(arguments: [
        FormCase(
            name: "arrays", conformsTo: ["public.data"], conformsToString: nil, extensions: ["foo"],
            extensionString: nil),
        FormCase(
            name: "strings", conformsTo: nil, conformsToString: "public.data", extensions: nil, extensionString: "foo"),
        FormCase(
            name: "mixed", conformsTo: nil, conformsToString: "public.data", extensions: ["foo"], extensionString: nil),
    ])
    func acceptsAStringOrAnArrayForConformsToAndTags(_ c: FormCase) throws {
        let entry = Self.entry(
            "com.example.foo", conformsTo: c.conformsTo ?? c.conformsToString,
            extensions: c.extensions ?? c.extensionString,
            mimeTypes: "application/x-foo")
        let (registry, diagnostics) = try TypeRegistry.system.adding(
            declarationsFrom: Self.plist(exported: [entry]), sourcePath: "/b/Info.plist")
        #expect(diagnostics.isEmpty)
        let declaration = try #require(registry.declaration(for: "com.example.foo"))
        #expect(declaration.conformsTo == [.data])
        #expect(declaration.filenameExtensions == ["foo"])
        #expect(declaration.mimeTypes == ["application/x-foo"])
        #expect(registry.preferredType(forFilenameExtension: "foo").rawValue == "com.example.foo")
    }

    @Test func dropsNonStandardTagClasses() throws {
        var entry = Self.entry("com.example.foo", extensions: "foo")
        entry["UTTypeTagSpecification"] = ["public.filename-extension": "foo", "com.apple.ostype": "FOO "]
        let (registry, diagnostics) = try TypeRegistry.system.adding(
            declarationsFrom: Self.plist(exported: [entry]), sourcePath: "/b/Info.plist")
        #expect(diagnostics.isEmpty)
        #expect(registry.declaration(for: "com.example.foo")?.filenameExtensions == ["foo"])
    }

    // MARK: - Precedence

    enum Order: String, Sendable, CaseIterable {
        case exportedInOneBundleThenImportedInAnother
        case importedInOneBundleThenExportedInAnother
        case bothInOneBundle
    }

    @Test(arguments: Order.allCases)
    func exportedDeclarationBeatsImported(_ order: Order) throws {
        let exported = Self.entry("com.example.doc", extensions: ["doc2"], description: "Exported")
        let imported = Self.entry("com.example.doc", extensions: ["doc1"], description: "Imported")
        var registry = TypeRegistry.system
        var diagnostics: [TypeDiagnostic] = []
        switch order {
        case .exportedInOneBundleThenImportedInAnother:
            (registry, diagnostics) = try registry.adding(
                declarationsFrom: Self.plist(exported: [exported]), sourcePath: "/A")
            #expect(diagnostics.isEmpty)
            (registry, diagnostics) = try registry.adding(
                declarationsFrom: Self.plist(imported: [imported]), sourcePath: "/B")
        case .importedInOneBundleThenExportedInAnother:
            (registry, diagnostics) = try registry.adding(
                declarationsFrom: Self.plist(imported: [imported]), sourcePath: "/B")
            #expect(diagnostics.isEmpty)
            (registry, diagnostics) = try registry.adding(
                declarationsFrom: Self.plist(exported: [exported]), sourcePath: "/A")
        case .bothInOneBundle:
            (registry, diagnostics) = try registry.adding(
                declarationsFrom: Self.plist(exported: [exported], imported: [imported]), sourcePath: "/A")
        }
        let declaration = try #require(registry.declaration(for: "com.example.doc"))
        #expect(declaration.description == "Exported")
        #expect(declaration.source == .exported(path: "/A"))
        #expect(registry.preferredType(forFilenameExtension: "doc2").rawValue == "com.example.doc")
        #expect(registry.preferredType(forFilenameExtension: "doc1").isDynamic)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.severity == .note)
        #expect(diagnostics.first?.identifier == "com.example.doc")
    }

    @Test func firstOfTwoExportsWinsAndTheSecondIsReported() throws {
        let (first, _) = try TypeRegistry.system.adding(
            declarationsFrom: Self.plist(exported: [Self.entry("com.example.doc", description: "First")]),
            sourcePath: "/A")
        let (registry, diagnostics) = try first.adding(
            declarationsFrom: Self.plist(exported: [Self.entry("com.example.doc", description: "Second")]),
            sourcePath: "/B")
        #expect(registry.declaration(for: "com.example.doc")?.description == "First")
        #expect(diagnostics.map(\.severity) == [.warning])
        #expect(diagnostics.first?.file == "/B")
        #expect(diagnostics.first?.message.contains("already exported by /A") == true)
    }

    // MARK: - System types are never changed

    struct RedefinitionCase: Sendable, CustomTestStringConvertible {
        let name: String
        let exported: Bool
        let id: String
        let conformsTo: [String]
        let extensions: [String]
        var mimeTypes: [String] = []
        let severity: TypeDiagnostic.Severity
        var testDescription: String { name }
    }

    @Test(arguments: [
        RedefinitionCase(
            name: "new parent for public.jpeg", exported: true, id: "public.jpeg", conformsTo: ["public.text"],
            extensions: ["jpeg", "jpg", "jpe"], severity: .warning),
        RedefinitionCase(
            name: "extra extension for public.png (other spelling)", exported: false, id: "PUBLIC.PNG",
            conformsTo: ["public.image"], extensions: ["png", "pnx"], severity: .warning),
        RedefinitionCase(
            name: "identical import of com.adobe.pdf", exported: false, id: "com.adobe.pdf",
            conformsTo: ["public.data", "public.composite-content"], extensions: ["PDF"],
            mimeTypes: ["application/pdf"],
            severity: .note),
        RedefinitionCase(
            name: "import of com.adobe.pdf without its MIME type", exported: false, id: "com.adobe.pdf",
            conformsTo: ["public.composite-content", "public.data"], extensions: ["pdf"], severity: .warning),
    ])
    func declarationRedefiningASystemTypeIsReportedAndNotApplied(_ c: RedefinitionCase) throws {
        let entry = Self.entry(
            c.id, conformsTo: c.conformsTo, extensions: c.extensions,
            mimeTypes: c.mimeTypes.isEmpty ? nil : c.mimeTypes,
            description: "Mine")
        let plist = c.exported ? Self.plist(exported: [entry]) : Self.plist(imported: [entry])
        let (registry, diagnostics) = try TypeRegistry.system.adding(
            declarationsFrom: plist, sourcePath: "/evil/Info.plist")
        let id = UniformTypeIdentifier(c.id)
        #expect(registry.declaration(for: id) == TypeRegistry.system.declaration(for: id))
        #expect(registry.declaration(for: id)?.source == .system)
        #expect(registry.preferredType(forFilenameExtension: "pnx").isDynamic)
        #expect(!registry.conforms("public.jpeg", to: .text))
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.severity == c.severity)
        #expect(diagnostic.file == "/evil/Info.plist")
        #expect(diagnostic.identifier == id)
        #expect(diagnostic.message.contains("system type"))
    }

    // MARK: - Broken entries

    struct BrokenCase: Sendable, CustomTestStringConvertible {
        let name: String
        let entry: @Sendable () -> Any
        let severity: TypeDiagnostic.Severity
        let messageContains: String
        let applied: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        BrokenCase(
            name: "no identifier", entry: { ["UTTypeConformsTo": "public.data"] }, severity: .error,
            messageContains: "no UTTypeIdentifier", applied: false),
        BrokenCase(
            name: "not a dictionary", entry: { "com.example.x" }, severity: .error,
            messageContains: "must be a dictionary", applied: false),
        BrokenCase(
            name: "bad identifier", entry: { entry("com.example x") }, severity: .error,
            messageContains: "not a valid identifier", applied: false),
        BrokenCase(
            name: "conforms-to number", entry: { entry("com.example.x", conformsTo: 7) }, severity: .error,
            messageContains: "UTTypeConformsTo must be a string or an array", applied: false),
        BrokenCase(
            name: "tag number", entry: { entry("com.example.x", extensions: [1]) }, severity: .error,
            messageContains: "public.filename-extension must be a string or an array", applied: false),
        BrokenCase(
            name: "dyn declared", entry: { entry("dyn.ah62d4rv4ge81g6pq") }, severity: .error,
            messageContains: "cannot be declared", applied: false),
        BrokenCase(
            name: "undeclared parent",
            entry: { entry("com.example.x", conformsTo: ["com.example.base", "public.data"]) },
            severity: .warning, messageContains: "no loaded bundle or system table declares", applied: true),
        BrokenCase(
            name: "neither data nor package", entry: { entry("com.example.x", conformsTo: ["public.content"]) },
            severity: .warning, messageContains: "neither public.data nor com.apple.package", applied: true),
        BrokenCase(
            name: "new public type", entry: { entry("public.example-x") }, severity: .warning,
            messageContains: "reserved public. domain", applied: true),
        BrokenCase(
            name: "leading dot", entry: { entry("com.example.x", extensions: ".xx") }, severity: .warning,
            messageContains: "leading dot", applied: true),
    ])
    func brokenEntriesAreReportedWithoutHidingTheOthers(_ c: BrokenCase) throws {
        let good = Self.entry("com.example.good", extensions: "good")
        let plist: [String: Any] = ["UTExportedTypeDeclarations": [c.entry(), good]]
        let (registry, diagnostics) = try TypeRegistry.system.adding(
            declarationsFrom: plist, sourcePath: "/b/Info.plist")
        #expect(registry.isDeclared("com.example.good"))
        #expect(diagnostics.count == 1, "\(diagnostics)")
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.severity == c.severity)
        #expect(diagnostic.message.contains(c.messageContains), "\(diagnostic.message)")
        #expect(diagnostic.description.hasPrefix("/b/Info.plist: \(c.severity.rawValue): "))
        let declaredOthers = registry.allDeclarations.count - TypeRegistry.system.allDeclarations.count - 1
        #expect(declaredOthers == (c.applied ? 1 : 0))
    }

    @Test func leadingDotIsStrippedFromExtensions() throws {
        let (registry, _) = try TypeRegistry.system.adding(
            declarationsFrom: Self.plist(exported: [Self.entry("com.example.x", extensions: ".xx")]), sourcePath: "/b")
        #expect(registry.preferredType(forFilenameExtension: "xx").rawValue == "com.example.x")
    }

    @Test func declarationsOfOneBundleMayConformToEachOtherInAnyOrder() throws {
        let plist = Self.plist(
            exported: [
                Self.entry("com.example.child", conformsTo: ["com.example.parent"]), Self.entry("com.example.parent"),
            ])
        let (registry, diagnostics) = try TypeRegistry.system.adding(declarationsFrom: plist, sourcePath: "/b")
        #expect(diagnostics.isEmpty)
        #expect(registry.conforms("com.example.child", to: .data))
        #expect(registry.supertypes(of: "com.example.child") == ["com.example.parent", .data, .item])
    }

    @Test func severalPlistsAreCheckedTogetherSoOrderDoesNotMatter() throws {
        let child = try Self.temporaryFile(
            "Child.plist",
            try PropertyListSerialization.data(
                fromPropertyList: Self.plist(exported: [
                    Self.entry("com.example.child", conformsTo: "com.example.parent")
                ]),
                format: .xml, options: 0))
        let parent = try Self.temporaryFile(
            "Parent.plist",
            try PropertyListSerialization.data(
                fromPropertyList: Self.plist(imported: [Self.entry("com.example.parent")]), format: .xml, options: 0))
        let (together, quiet) = try TypeRegistry.system.adding(declarationsFromPlistsAt: [child, parent])
        #expect(quiet.isEmpty)
        #expect(together.conforms("com.example.child", to: .data))
        // One at a time, the first file's parent is not declared yet when it is checked.
        let (alone, diagnostics) = try TypeRegistry.system.adding(declarationsFromPlistAt: child)
        #expect(diagnostics.map(\.severity) == [.warning, .warning])
        #expect(diagnostics.first?.message.contains("'com.example.parent'") == true)
        #expect(!alone.conforms("com.example.child", to: .data))
    }

    @Test func aBrokenFileAmongSeveralAddsNothing() throws {
        let good = Self.cardDrop
        let bad = try Self.temporaryFile("Info.plist", Data("{ nope".utf8))
        #expect(throws: TypeRegistryError.self) {
            try TypeRegistry.system.adding(declarationsFromPlistsAt: [good, bad])
        }
    }

    @Test func conformanceCycleIsReportedAndDoesNotHang() throws {
        let plist = Self.plist(
            exported: [
                Self.entry("com.example.a", conformsTo: ["com.example.b", "public.data"]),
                Self.entry("com.example.b", conformsTo: ["com.example.a"]),
            ])
        let (registry, diagnostics) = try TypeRegistry.system.adding(declarationsFrom: plist, sourcePath: "/b")
        #expect(registry.conforms("com.example.b", to: .data))
        #expect(registry.conforms("com.example.a", to: "com.example.b"))
        #expect(diagnostics.filter { $0.message.contains("cycle") }.count == 2)
    }

    // MARK: - Files

    @Test func readsBinaryPlists() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: Self.plist(exported: [Self.entry("com.example.bin", extensions: "bin2")]),
            format: .binary,
            options: 0)
        let url = try Self.temporaryFile("Info.plist", data)
        let (registry, _) = try TypeRegistry.system.adding(declarationsFromPlistAt: url)
        #expect(registry.declaration(for: "com.example.bin")?.source == .exported(path: url.path))
    }

    struct FileErrorCase: Sendable, CustomTestStringConvertible {
        let name: String
        let contents: String?
        let code: TypeRegistryError.Code
        let messageContains: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        FileErrorCase(name: "missing file", contents: nil, code: .unreadable, messageContains: "does not exist"),
        FileErrorCase(
            name: "not a plist", contents: "this is { not a plist", code: .malformed,
            messageContains: "is not a property list"),
        FileErrorCase(
            name: "array at the top",
            contents: #"<?xml version="1.0"?><plist version="1.0"><array><string>x</string></array></plist>"#,
            code: .malformed, messageContains: "top level must be a dictionary, not an array"),
        FileErrorCase(
            name: "declarations not an array",
            contents:
                #"<?xml version="1.0"?><plist version="1.0"><dict><key>UTExportedTypeDeclarations</key><string>x</string></dict></plist>"#,
            code: .malformed,
            messageContains: "UTExportedTypeDeclarations must be an array of dictionaries, not a string"),
    ])
    func unreadableOrMalformedFilesThrowAnErrorNamingTheFile(_ c: FileErrorCase) throws {
        let url: URL
        if let contents = c.contents {
            url = try Self.temporaryFile("Info.plist", Data(contents.utf8))
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).plist")
        }
        let error = try #require(throws: TypeRegistryError.self) {
            try TypeRegistry.system.adding(declarationsFromPlistAt: url)
        }
        #expect(error.code == c.code)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains(c.messageContains), "\(error.message)")
        #expect(error.description.hasPrefix("\(c.code): "))
    }

    @Test func directoryWithoutInfoPlistIsUnreadable() throws {
        let file = try Self.temporaryFile("other.txt", Data("x".utf8))
        let directory = file.deletingLastPathComponent()
        let error = try #require(throws: TypeRegistryError.self) {
            try TypeRegistry.system.adding(declarationsFromPlistAt: directory)
        }
        #expect(error.code == .unreadable)
        #expect(error.message.contains("without Info.plist"))
    }
}
