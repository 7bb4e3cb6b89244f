import ActivationRules
import Foundation
import ItemProviders
import Payloads
import Testing

struct PresetTests {
    static let required = [
        "safari-webpage", "safari-selected-text", "safari-pdf-document", "photos-single-photo", "photos-live-photo",
        "photos-video", "photos-multiple-photos", "screenshot-editor-ios26", "files-app-document", "maps-place",
        "notes-text", "chrome-webpage", "acrobat-send-a-copy", "contacts-vcard", "voice-memos-recording",
    ]

    @Test func catalogueHasTheRequiredPresetsWithEvidence() {
        #expect(Payload.presetNames.count >= 15)
        for name in Self.required {
            #expect(Payload.presetNames.contains(name), "\(name)")
        }
        for preset in PresetCatalog.presets {
            #expect(["observed-log", "documented", "inferred"].contains(preset.confidence), "\(preset.name)")
            #expect(!preset.citations.isEmpty, "\(preset.name)")
        }
    }

    @Test func embeddedCatalogueMatchesTheDataFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/data/payloads.json")
        let onDisk = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let presets = onDisk?["presets"] as? [[String: Any]]
        #expect(presets?.compactMap { $0["name"] as? String } == Payload.presetNames)
    }

    @Test(arguments: Payload.presetNames)
    func everyPresetBuildsWithItsTypes(name: String) throws {
        let payload = try Payload.preset(named: name)
        let preset = try #require(PresetCatalog.preset(named: name))
        let built = payload.activationPayload().items.map { $0.attachments?.map(\.registeredTypeIdentifiers) ?? [] }
        #expect(built == preset.items.map { $0.attachments.map(\.types) })
        #expect(payload.isWebpage == name.hasPrefix("safari-webpage"))
    }

    @Test func presetFilesLoadAndInPlaceIsScoped() async throws {
        let photos = try Payload.preset(named: "photos-single-photo")
        let photo = try #require(photos.items.first?.attachments?.first)
        let jpeg = try await photo.loadDataRepresentation(for: "public.image")
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let files = try Payload.preset(named: "files-app-document")
        let document = try #require(files.items.first?.attachments?.first)
        let (url, isInPlace) = try await document.loadInPlaceFileRepresentation(for: "com.adobe.pdf")
        #expect(isInPlace)
        #expect(url.lastPathComponent == "Document.pdf")
        #expect(SecurityScope.isScoped(url))
    }

    @Test func fileURLAttachmentMatchesAURLRule() throws {
        let rule = ActivationRule(
            predicate:
                "SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.url\").@count >= 1).@count >= 1"
        )
        let notes = try Payload.preset(named: "notes-scanned-pdf")
        #expect(notes.items.first?.attachments?.first?.registeredTypeIdentifiers == ["public.file-url"])
        #expect(rule.activates(notes.activationPayload()) == true)
        let text = try Payload.preset(named: "notes-text")
        #expect(rule.activates(text.activationPayload()) == false)
    }

    @Test func unknownPresetListsTheKnownOnes() {
        let error = #expect(throws: PayloadError.self) { try Payload.preset(named: "nope") }
        #expect(error?.message.contains("safari-webpage") == true)
    }
}
