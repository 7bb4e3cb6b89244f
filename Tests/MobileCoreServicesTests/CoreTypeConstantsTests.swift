import Foundation
import MobileCoreServices
import Testing

/// MobileCoreServices' `kUTType…` constants are the identifiers of the `UTType` constants Apple
/// names for them (its migration table), declared in the system type table; its functions answer
/// as Apple documents, bad input included.
struct CoreTypeConstantsTests {
    static var constants: [(CFString, UTType)] {
        [
            (kUTTypeItem, .item), (kUTTypeContent, .content), (kUTTypeCompositeContent, .compositeContent),
            (kUTTypeData, .data), (kUTTypeDirectory, .directory), (kUTTypeFolder, .folder),
            (kUTTypePackage, .package), (kUTTypeBundle, .bundle), (kUTTypeApplication, .application),
            (kUTTypeApplicationBundle, .applicationBundle), (kUTTypeURL, .url), (kUTTypeFileURL, .fileURL),
            (kUTTypeText, .text), (kUTTypePlainText, .plainText), (kUTTypeUTF8PlainText, .utf8PlainText),
            (kUTTypeUTF16PlainText, .utf16PlainText), (kUTTypeRTF, .rtf), (kUTTypeHTML, .html), (kUTTypeXML, .xml),
            (kUTTypeSourceCode, .sourceCode), (kUTTypeJSON, .json), (kUTTypePropertyList, .propertyList),
            (kUTTypeXMLPropertyList, .xmlPropertyList), (kUTTypeImage, .image), (kUTTypeJPEG, .jpeg),
            (kUTTypePNG, .png), (kUTTypeGIF, .gif), (kUTTypeTIFF, .tiff), (kUTTypeBMP, .bmp),
            (kUTTypeLivePhoto, .livePhoto), (kUTTypeAudiovisualContent, .audiovisualContent), (kUTTypeMovie, .movie),
            (kUTTypeVideo, .video), (kUTTypeAudio, .audio), (kUTTypeQuickTimeMovie, .quickTimeMovie),
            (kUTTypeMPEG, .mpeg), (kUTTypeMPEG4, .mpeg4Movie), (kUTTypeMP3, .mp3), (kUTTypeMPEG4Audio, .mpeg4Audio),
            (kUTTypePDF, .pdf), (kUTTypeRTFD, .rtfd), (kUTTypeWebArchive, .webArchive), (kUTTypeArchive, .archive),
            (kUTTypeGNUZipArchive, .gzip), (kUTTypeZipArchive, .zip), (kUTTypeSpreadsheet, .spreadsheet),
            (kUTTypePresentation, .presentation), (kUTTypeContact, .contact), (kUTTypeVCard, .vCard),
            (kUTTypeMessage, .message), (kUTTypeEmailMessage, .emailMessage),
            (kUTTypeInternetLocation, .internetLocation), (kUTTypeFont, .font), (kUTTypeBookmark, .bookmark),
            (kUTTypeLog, .log), (kUTTypeExecutable, .executable), (kUTTypeUnixExecutable, .unixExecutable),
            (kUTTypeVolume, .volume), (kUTTypeSymLink, .symbolicLink),
        ]
    }

    @Test func everyConstantIsItsUTTypesIdentifierAndDeclared() {
        #expect(Self.constants.count == 59)
        for (constant, type) in Self.constants {
            #expect(constant as String == type.identifier)
            #expect(UTTypeIsDeclared(constant), "\(constant) is not in the system type table")
            #expect(!UTTypeIsDynamic(constant))
            #expect(UTTypeConformsTo(constant, constant))
            #expect(UTTypeConformsTo(constant, kUTTypeItem) == type.conforms(to: .item))
        }
        #expect(Set(Self.constants.map { $0.0 as String }).count == Self.constants.count)
    }

    @Test func tagClassesAndPreferredTags() {
        #expect(kUTTagClassFilenameExtension as String == UTTagClass.filenameExtension.rawValue)
        #expect(kUTTagClassMIMEType as String == UTTagClass.mimeType.rawValue)
        let html = UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, "text/html", nil)?.takeRetainedValue()
        #expect(html as String? == kUTTypeHTML as String)
        let jpeg = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "jpg", kUTTypeImage)?
            .takeRetainedValue()
        #expect(jpeg as String? == kUTTypeJPEG as String)
        let ext = UTTypeCopyPreferredTagWithClass(kUTTypePDF, kUTTagClassFilenameExtension)?.takeRetainedValue()
        #expect(ext as String? == "pdf")
        // A type with no tag of the class, and a class that does not exist, give no tag.
        #expect(UTTypeCopyPreferredTagWithClass(kUTTypeItem, kUTTagClassMIMEType) == nil)
        #expect(UTTypeCopyPreferredTagWithClass(kUTTypePDF, "com.example.tag-class") == nil)
    }

    /// An undeclared tag gives a dynamic type that keeps the tag; Apple documents both.
    @Test func undeclaredTagsGiveDynamicTypes() throws {
        let made = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "qqq7", kUTTypeData)?
            .takeRetainedValue()
        let dynamic = try #require(made)
        #expect(UTTypeIsDynamic(dynamic) && !UTTypeIsDeclared(dynamic))
        #expect((dynamic as String).hasPrefix("dyn."))
        #expect(UTTypeConformsTo(dynamic, kUTTypeData))
        let tag = UTTypeCopyPreferredTagWithClass(dynamic, kUTTagClassFilenameExtension)?.takeRetainedValue()
        #expect(tag as String? == "qqq7")
        #expect(!UTTypeIsDeclared("com.example.not-declared"))
    }

    @Test func equalityAndConformance() {
        #expect(UTTypeEqual(kUTTypePNG, "PUBLIC.PNG"))
        #expect(!UTTypeEqual(kUTTypePNG, kUTTypeJPEG))
        #expect(UTTypeConformsTo(kUTTypeUTF8PlainText, kUTTypeText))
        #expect(UTTypeConformsTo(kUTTypeMPEG4, kUTTypeMovie))
        #expect(!UTTypeConformsTo(kUTTypeText, kUTTypeUTF8PlainText))
        #expect(!UTTypeConformsTo(kUTTypeImage, kUTTypeJPEG))
    }
}
