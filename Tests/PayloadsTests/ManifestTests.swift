import ActivationRules
import Foundation
import ItemProviders
import Payloads
import Testing

struct ManifestTests {
    static let manifest = """
        {
          "webpage": true,
          "items": [
            {
              "title": "Report", "contentText": "Quarterly numbers",
              "attachments": [
                {
                  "suggestedName": "Report",
                  "preferredPresentationSize": [1170, 2532],
                  "representations": [
                    { "type": "com.adobe.pdf", "kind": "in-place", "file": "Report.pdf" },
                    { "type": "public.plain-text", "text": "secret", "visibility": "ownProcess" },
                    { "type": "public.url", "url": "https://example.com/report" }
                  ]
                },
                { "file": "note.txt" }
              ]
            },
            {
              "attachments": [
                {
                  "failWith": { "code": -1000 },
                  "representations": [ { "type": "public.jpeg", "kind": "file", "file": "photo.jpg" } ]
                },
                {
                  "loadDelayMilliseconds": 20,
                  "representations": [ { "type": "public.png", "kind": "data", "file": "photo.jpg" } ]
                }
              ]
            }
          ]
        }
        """

    func makeFolder() throws -> Folder {
        let folder = try Folder()
        try folder.write(Self.manifest, to: "share.json")
        try folder.write("%PDF-1.4\n", to: "Report.pdf")
        try folder.write("note", to: "note.txt")
        try folder.write(Data([0xFF, 0xD8, 0xFF, 0xD9]), to: "photo.jpg")
        return folder
    }

    @Test func manifestBuildsSeveralItems() async throws {
        let folder = try makeFolder()
        defer { folder.remove() }
        let payload = try Payload.load(folder.url)
        #expect(payload.items.count == 2)
        #expect(payload.isWebpage)
        let first = try #require(payload.items.first?.attachments)
        #expect(payload.items.first?.attributedTitle == "Report")
        #expect(payload.items.first?.attributedContentText == "Quarterly numbers")
        #expect(first[0].registeredTypeIdentifiers == ["com.adobe.pdf", "public.url"])
        #expect(first[0].representations.count == 3)
        #expect(first[0].suggestedName == "Report")
        #expect(first[0].preferredPresentationSize == PresentationSize(width: 1170, height: 2532))
        #expect(
            payload.activationPayload(consumer: .ownProcess).items[0].attachments?[0].registeredTypeIdentifiers.count
                == 3)
        #expect(first[0].representation(answering: "com.adobe.pdf")?.kind == .openInPlace)
        #expect(first[1].registeredTypeIdentifiers == ["public.plain-text"])
        let activation = payload.activationPayload()
        #expect(activation.isWebpage)
        #expect(activation.items[0].attachments?[0].registeredTypeIdentifiers == ["com.adobe.pdf", "public.url"])
        #expect(payload.descriptions[0].attachments[0].representations[1].visibility == .ownProcess)
    }

    @Test func knobsFailAndDelayLoads() async throws {
        let folder = try makeFolder()
        defer { folder.remove() }
        let payload = try Payload.load(folder.url)
        let second = try #require(payload.items.last?.attachments)
        let error = await #expect(throws: ItemProviderError.self) {
            try await second[0].loadDataRepresentation(for: "public.jpeg")
        }
        #expect(error?.code == .itemUnavailable)
        #expect(error?.message == "Cannot load representation of type public.jpeg")
        #expect(try await second[1].loadDataRepresentation(for: "public.png") == Data([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(payload.descriptions[1].attachments[1].representations[0].loadDelayMilliseconds == 20)
    }

    @Test func knobsApplyToLegacyLoadsOfObjects() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write(
            """
            {"items": [{"attachments": [{"representations": [
              {"type": "public.plain-text", "text": "slow", "loadDelayMilliseconds": 10},
              {"type": "public.url", "url": "https://example.com/", "failWith": {"domain": "D", "code": 7, "message": "m"}}
            ]}]}]}
            """, to: "share.json")
        let provider = try #require(try Payload.load(folder.url).items.first?.attachments?.first)
        #expect(try await provider.loadItem(forTypeIdentifier: "public.text") as? String == "slow")
        let error = await #expect(throws: ItemProviderError.self) {
            try await provider.loadItem(forTypeIdentifier: "public.url")
        }
        #expect(error?.code == ItemProviderError.Code(domain: "D", rawValue: 7))
        #expect(error?.message == "m")
    }

    @Test(arguments: [
        ("{\n  \"items\": [],\n  \"extra\": 1\n}", 3, 12, "unknown key 'extra'"),
        ("{\n  \"items\": [\n    { \"attachments\": [ { \"file\": \"../x\" } ] }\n  ]\n}", 3, 34, "inside the folder"),
        (
            "{\n  \"items\": [ { \"attachments\": [ { \"representations\": [ { \"type\": \"public.png\", \"kind\": \"blob\", \"text\": \"x\" } ] } ] } ]\n}",
            2, 88, "kind must be"
        ),
        ("{\n  \"items\": [\n", 3, 1, "unexpected end"),
        (
            "{ \"items\": [ { \"attachments\": [ { \"representations\": [ { \"type\": \"com.adobe.pdf\", \"kind\": \"file\", \"text\": \"x\" } ] } ] } ] }",
            1, 56, "needs a file"
        ),
    ])
    func errorsNameTheLineAndColumn(text: String, line: Int, column: Int, fragment: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write(text, to: "share.json")
        let error = #expect(throws: PayloadError.self) { try Payload.load(folder.url) }
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message.contains(fragment) == true, "\(error?.description ?? "")")
        #expect(error?.source.hasSuffix("share.json") == true)
    }
}
