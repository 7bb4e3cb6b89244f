import Testing
import UniformTypes

struct UniformTypeIdentifierTests {
    struct SpellingCase: Sendable, CustomTestStringConvertible {
        let a: String
        let b: String
        var testDescription: String { "\(a) == \(b)" }
    }

    @Test(arguments: [
        SpellingCase(a: "public.jpeg", b: "PUBLIC.JPEG"),
        SpellingCase(a: "com.apple.iWork.Pages.pages", b: "com.apple.iwork.pages.pages"),
        SpellingCase(a: "Public.Plain-Text", b: "public.plain-text"),
        SpellingCase(a: "dyn.ah62d4rv4ge81g6pq", b: "DYN.AH62D4RV4GE81G6PQ"),
    ])
    func identifiersCompareAndHashCaseInsensitively(_ c: SpellingCase) {
        let a = UniformTypeIdentifier(c.a)
        let b = UniformTypeIdentifier(c.b)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func keepsTheDeclaredSpelling() {
        let id: UniformTypeIdentifier = "com.apple.iWork.Pages.pages"
        #expect(id.rawValue == "com.apple.iWork.Pages.pages")
        #expect(id.description == "com.apple.iWork.Pages.pages")
        #expect(id.key == "com.apple.iwork.pages.pages")
    }

    @Test func differentIdentifiersAreNotEqual() {
        #expect(UniformTypeIdentifier("public.jpeg") != UniformTypeIdentifier("public.jpg"))
    }

    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        let text: String
        let valid: Bool
        var testDescription: String { "'\(text)' valid=\(valid)" }
    }

    @Test(arguments: [
        SyntaxCase(text: "public.jpeg", valid: true),
        SyntaxCase(text: "com.example.carddrop.card", valid: true),
        SyntaxCase(text: "org.7-zip.7-zip-archive", valid: true),
        SyntaxCase(text: "public", valid: true),
        SyntaxCase(text: "", valid: false),
        SyntaxCase(text: "public..jpeg", valid: false),
        SyntaxCase(text: ".public", valid: false),
        SyntaxCase(text: "public.", valid: false),
        SyntaxCase(text: "public.jp eg", valid: false),
        SyntaxCase(text: "public.jpeg/x", valid: false),
        SyntaxCase(text: "com.exämple.x", valid: false),
    ])
    func validatesTheIdentifierAlphabet(_ c: SyntaxCase) {
        #expect(UniformTypeIdentifier.isValidSyntax(c.text) == c.valid)
        #expect((UniformTypeIdentifier(validating: c.text) != nil) == c.valid)
    }

    @Test func knowsItsDomain() {
        #expect(UniformTypeIdentifier("public.png").isPublic)
        #expect(UniformTypeIdentifier("PUBLIC.png").isPublic)
        #expect(!UniformTypeIdentifier("com.adobe.pdf").isPublic)
        #expect(UniformTypeIdentifier("dyn.ah62d4rv4ge81g6pq").isDynamic)
        #expect(!UniformTypeIdentifier("dyn.ah62d4rv4ge81g6pq").isPublic)
    }
}
