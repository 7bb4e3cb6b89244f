import Foundation
import Testing
import UniformTypeIdentifiers

/// Apple's `UTCoreTypes` constants, each naming the identifier Apple documents for it and
/// declared in the system type table, and the parts of `UTType` apps rely on besides.
struct UTTypeCoreTypesTests {
    /// Every constant with the identifier Apple's documentation gives it.
    static let constants: [(UTType, String)] = [
        (.item, "public.item"),
        (.content, "public.content"),
        (.compositeContent, "public.composite-content"),
        (.diskImage, "public.disk-image"),
        (.data, "public.data"),
        (.directory, "public.directory"),
        (.resolvable, "com.apple.resolvable"),
        (.symbolicLink, "public.symlink"),
        (.executable, "public.executable"),
        (.mountPoint, "com.apple.mount-point"),
        (.aliasFile, "com.apple.alias-file"),
        (.urlBookmarkData, "com.apple.bookmark"),
        (.url, "public.url"),
        (.fileURL, "public.file-url"),
        (.text, "public.text"),
        (.plainText, "public.plain-text"),
        (.utf8PlainText, "public.utf8-plain-text"),
        (.utf16ExternalPlainText, "public.utf16-external-plain-text"),
        (.utf16PlainText, "public.utf16-plain-text"),
        (.delimitedText, "public.delimited-values-text"),
        (.commaSeparatedText, "public.comma-separated-values-text"),
        (.tabSeparatedText, "public.tab-separated-values-text"),
        (.utf8TabSeparatedText, "public.utf8-tab-separated-values-text"),
        (.rtf, "public.rtf"),
        (.html, "public.html"),
        (.xml, "public.xml"),
        (.yaml, "public.yaml"),
        (.sourceCode, "public.source-code"),
        (.cSource, "public.c-source"),
        (.objectiveCSource, "public.objective-c-source"),
        (.swiftSource, "public.swift-source"),
        (.cPlusPlusSource, "public.c-plus-plus-source"),
        (.cHeader, "public.c-header"),
        (.script, "public.script"),
        (.javaScript, "com.netscape.javascript-source"),
        (.shellScript, "public.shell-script"),
        (.pythonScript, "public.python-script"),
        (.rubyScript, "public.ruby-script"),
        (.json, "public.json"),
        (.propertyList, "com.apple.property-list"),
        (.xmlPropertyList, "com.apple.xml-property-list"),
        (.binaryPropertyList, "com.apple.binary-property-list"),
        (.pdf, "com.adobe.pdf"),
        (.rtfd, "com.apple.rtfd"),
        (.flatRTFD, "com.apple.flat-rtfd"),
        (.webArchive, "com.apple.webarchive"),
        (.image, "public.image"),
        (.jpeg, "public.jpeg"),
        (.tiff, "public.tiff"),
        (.gif, "com.compuserve.gif"),
        (.png, "public.png"),
        (.icns, "com.apple.icns"),
        (.bmp, "com.microsoft.bmp"),
        (.ico, "com.microsoft.ico"),
        (.rawImage, "public.camera-raw-image"),
        (.svg, "public.svg-image"),
        (.livePhoto, "com.apple.live-photo"),
        (.heif, "public.heif"),
        (.heic, "public.heic"),
        (.webP, "org.webmproject.webp"),
        (.threeDContent, "public.3d-content"),
        (.usd, "com.pixar.universal-scene-description"),
        (.usdz, "com.pixar.universal-scene-description-mobile"),
        (.audiovisualContent, "public.audiovisual-content"),
        (.movie, "public.movie"),
        (.video, "public.video"),
        (.audio, "public.audio"),
        (.quickTimeMovie, "com.apple.quicktime-movie"),
        (.mpeg, "public.mpeg"),
        (.mpeg2Video, "public.mpeg-2-video"),
        (.mpeg2TransportStream, "public.mpeg-2-transport-stream"),
        (.mp3, "public.mp3"),
        (.mpeg4Movie, "public.mpeg-4"),
        (.mpeg4Audio, "public.mpeg-4-audio"),
        (.appleProtectedMPEG4Audio, "com.apple.protected-mpeg-4-audio"),
        (.appleProtectedMPEG4Video, "com.apple.protected-mpeg-4-video"),
        (.avi, "public.avi"),
        (.aiff, "public.aiff-audio"),
        (.wav, "com.microsoft.waveform-audio"),
        (.midi, "public.midi-audio"),
        (.playlist, "public.playlist"),
        (.m3uPlaylist, "public.m3u-playlist"),
        (.folder, "public.folder"),
        (.volume, "public.volume"),
        (.package, "com.apple.package"),
        (.bundle, "com.apple.bundle"),
        (.pluginBundle, "com.apple.plugin"),
        (.framework, "com.apple.framework"),
        (.application, "com.apple.application"),
        (.applicationBundle, "com.apple.application-bundle"),
        (.applicationExtension, "com.apple.application-and-system-extension"),
        (.unixExecutable, "public.unix-executable"),
        (.exe, "com.microsoft.windows-executable"),
        (.archive, "public.archive"),
        (.gzip, "org.gnu.gnu-zip-archive"),
        (.bz2, "public.bzip2-archive"),
        (.zip, "public.zip-archive"),
        (.appleArchive, "com.apple.archive"),
        (.tarArchive, "public.tar-archive"),
        (.spreadsheet, "public.spreadsheet"),
        (.presentation, "public.presentation"),
        (.database, "public.database"),
        (.message, "public.message"),
        (.contact, "public.contact"),
        (.vCard, "public.vcard"),
        (.toDoItem, "public.to-do-item"),
        (.calendarEvent, "public.calendar-event"),
        (.emailMessage, "public.email-message"),
        (.internetLocation, "com.apple.internet-location"),
        (.internetShortcut, "com.microsoft.internet-shortcut"),
        (.font, "public.font"),
        (.bookmark, "public.bookmark"),
        (.pkcs12, "com.rsa.pkcs-12"),
        (.x509Certificate, "public.x509-certificate"),
        (.epub, "org.idpf.epub-container"),
        (.log, "public.log"),
    ]

    @Test func everyConstantNamesAppleIdentifierAndTheSystemDeclaresIt() throws {
        #expect(Self.constants.count == 116)
        for (type, identifier) in Self.constants {
            #expect(type.identifier == identifier)
            #expect(type.isDeclared, "\(identifier) is not in the system type table")
            #expect(!type.isDynamic)
            #expect(UTType(identifier) == type, "UTType(\"\(identifier)\") does not find the constant")
            #expect(type.description == identifier && type.debugDescription == identifier)
        }
        #expect(Set(Self.constants.map { $0.1 }).count == Self.constants.count, "two constants share an identifier")
    }

    /// The conformances Apple's documentation lists for a sample of the constants.
    @Test func constantsConformAsAppleDocuments() {
        let documented: [(UTType, UTType)] = [
            (.plainText, .text), (.utf8PlainText, .plainText), (.commaSeparatedText, .delimitedText),
            (.html, .text), (.json, .text), (.swiftSource, .sourceCode), (.shellScript, .script),
            (.jpeg, .image), (.png, .image), (.heic, .image), (.heif, .image), (.gif, .image), (.svg, .image),
            (.mpeg4Movie, .movie), (.quickTimeMovie, .movie), (.mp3, .audio), (.wav, .audio),
            (.movie, .audiovisualContent), (.pdf, .data), (.zip, .archive), (.gzip, .archive),
            (.vCard, .contact), (.fileURL, .url), (.url, .data), (.folder, .directory),
            (.applicationBundle, .bundle), (.bundle, .directory), (.symbolicLink, .item), (.data, .item),
            (.xmlPropertyList, .propertyList), (.usdz, .threeDContent), (.emailMessage, .message),
        ]
        for (type, parent) in documented {
            #expect(type.conforms(to: parent), "\(type) should conform to \(parent)")
            #expect(type.isSubtype(of: parent) && parent.isSupertype(of: type))
            #expect(type.supertypes.contains(parent))
            #expect(!parent.conforms(to: type), "\(parent) should not conform to \(type)")
        }
        #expect(!UTType.jpeg.isSubtype(of: .jpeg) && !UTType.jpeg.supertypes.contains(.jpeg))
        #expect(!UTType.text.conforms(to: .image) && !UTType.image.conforms(to: .text))
        #expect(UTType.plainText.supertypes.isSuperset(of: [.text, .data, .item, .content]))
    }

    @Test func tagsPreferredTagsAndTagClasses() {
        #expect(UTTagClass.filenameExtension.rawValue == "public.filename-extension")
        #expect(UTTagClass.mimeType.rawValue == "public.mime-type")
        #expect(UTTagClass.mimeType.description == "public.mime-type")
        #expect(UTTagClass.filenameExtension.debugDescription == "public.filename-extension")
        #expect(UTTagClass(rawValue: "public.mime-type") == .mimeType)

        let jpeg = UTType.jpeg.tags
        #expect(jpeg[.filenameExtension]?.contains("jpg") == true && jpeg[.filenameExtension]?.contains("jpeg") == true)
        #expect(jpeg[.mimeType]?.first == "image/jpeg")
        #expect(UTType.item.tags.isEmpty)
        #expect(UTType.plainText.preferredFilenameExtension == "txt")
        #expect(UTType.plainText.preferredMIMEType == "text/plain")
        #expect(UTType.item.preferredFilenameExtension == nil && UTType.item.preferredMIMEType == nil)
        #expect(UTType("com.example.undeclared-tags") == nil)
    }

    @Test func typesForATag() {
        #expect(UTType.types(tag: "txt", tagClass: .filenameExtension, conformingTo: nil).first == .plainText)
        #expect(UTType.types(tag: "text/html", tagClass: .mimeType, conformingTo: nil).first == .html)
        #expect(UTType.types(tag: "jpg", tagClass: .filenameExtension, conformingTo: .image) == [.jpeg])
        #expect(UTType.types(tag: "jpg", tagClass: .filenameExtension, conformingTo: .text).allSatisfy { $0 != .jpeg })
        #expect(
            UTType.types(tag: "txt", tagClass: UTTagClass(rawValue: "com.example.tag-class"), conformingTo: nil).isEmpty
        )

        #expect(UTType(tag: "png", tagClass: .filenameExtension, conformingTo: nil) == .png)
        #expect(UTType(tag: "image/gif", tagClass: .mimeType, conformingTo: .image) == .gif)
        #expect(UTType(mimeType: "text/csv") == .commaSeparatedText)
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
    }

    /// Bad tags give nil or a dynamic type, never a trap.
    @Test func badTagsAreRefusedOrDynamic() throws {
        #expect(UTType(filenameExtension: "") == nil)
        #expect(UTType(mimeType: "") == nil)
        #expect(UTType(filenameExtension: "tar.gz") == nil)
        #expect(UTType(filenameExtension: "a/b") == nil)
        #expect(UTType(filenameExtension: ".txt") == nil)
        let unknownMIME = try #require(UTType(mimeType: "application/x-exthost-unknown"))
        #expect(unknownMIME.isDynamic && !unknownMIME.isDeclared && !unknownMIME.isPublic)
        #expect(unknownMIME.identifier.hasPrefix("dyn."))
        #expect(unknownMIME.localizedDescription == nil)
        #expect(unknownMIME.preferredMIMEType == "application/x-exthost-unknown")
        // A dynamic identifier describes itself, so it is known by identifier as well.
        #expect(UTType(unknownMIME.identifier) == unknownMIME)
    }

    @Test func identitiesAreCaseInsensitiveAndCodable() throws {
        #expect(UTType("PUBLIC.JPEG") == .jpeg)
        #expect(Set([UTType.jpeg, UTType("Public.Jpeg")].compactMap { $0 }).count == 1)
        #expect(UTType.jpeg.isPublic && !UTType.pdf.isPublic)

        let encoded = try JSONEncoder().encode([UTType.pdf, UTType.plainText])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["com.adobe.pdf","public.plain-text"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: encoded) == [.pdf, .plainText])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([UTType].self, from: Data("[1]".utf8)) }
    }

    /// `init(exportedAs:)` and `init(importedAs:)` name the app's own type whether or not it is
    /// declared yet.
    @Test func exportedAndImportedTypesKeepTheirIdentifier() {
        let exported = UTType(exportedAs: "com.example.exthost-notes", conformingTo: .plainText)
        #expect(exported.identifier == "com.example.exthost-notes")
        #expect(!exported.isDynamic && !exported.isDeclared && !exported.isPublic)
        let imported = UTType(importedAs: "com.example.exthost-imported")
        #expect(imported.identifier == "com.example.exthost-imported" && imported != exported)
    }

    @Test func urlsCompletedWithATypesExtension() {
        let folder = URL(fileURLWithPath: "/tmp/exthost-uti", isDirectory: true)
        #expect(folder.appendingPathComponent("report", conformingTo: .pdf).lastPathComponent == "report.pdf")
        // An extension already valid for the type is kept; one that is not gets the type's.
        #expect(folder.appendingPathComponent("notes.text", conformingTo: .plainText).lastPathComponent == "notes.text")
        #expect(folder.appendingPathComponent("photo.jpg", conformingTo: .image).lastPathComponent == "photo.jpg")
        #expect(folder.appendingPathComponent("notes.txt", conformingTo: .pdf).lastPathComponent == "notes.txt.pdf")
        // A type without a filename extension leaves the name as it is.
        #expect(folder.appendingPathComponent("blob", conformingTo: .data).lastPathComponent == "blob")

        var url = folder
        url.appendPathComponent("archive", conformingTo: .zip)
        #expect(url.path == "/tmp/exthost-uti/archive.zip")
        #expect(
            folder.appendingPathComponent("page").appendingPathExtension(for: .html).lastPathComponent == "page.html")
        var page = folder.appendingPathComponent("index.htm")
        page.appendPathExtension(for: .html)
        #expect(page.lastPathComponent == "index.htm")
        page.appendPathExtension(for: .json)
        #expect(page.path == "/tmp/exthost-uti/index.htm.json")
    }
}
