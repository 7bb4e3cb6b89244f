import ExtensionFoundation
import Foundation
import Testing
import UniformTypeIdentifiers

/// The Apple-named API in process, written in the call shapes real share extensions use (the
/// suite builds with warnings as errors, so `item as? URL` and friends must compile cleanly).
struct AppleNamesTests {
    @Test func loadItemReturnsObjectsThatCastAsOnADevice() async throws {
        let link = NSItemProvider(item: URL(string: "https://example.com/a") as Any, typeIdentifier: "public.url")
        let text = NSItemProvider(object: "hello" as NSString)
        let data = NSItemProvider(item: Data([1, 2, 3]) as Any, typeIdentifier: "public.data")

        // The async import, cast directly.
        let item = try await link.loadItem(forTypeIdentifier: "public.url")
        #expect((item as? URL)?.host == "example.com")
        #expect(item is NSURL)
        #expect(try await text.loadItem(forTypeIdentifier: "public.plain-text") as? String == "hello")
        #expect(try await data.loadItem(forTypeIdentifier: "public.data") as? Data == Data([1, 2, 3]))
        // Apple's declared type, stated (Swift 6 mode here; the Swift 5 fixture library states it too).
        let declared: any NSSecureCoding = try await link.loadItem(forTypeIdentifier: "public.url", options: nil)
        #expect((declared as? URL)?.lastPathComponent == "a")
        let plist = NSItemProvider(
            item: ["title": "Page", "count": 2] as NSDictionary, typeIdentifier: "com.apple.property-list")
        let results = try await plist.loadItem(forTypeIdentifier: "com.apple.property-list")
        #expect((results as? [String: Any])?["title"] as? String == "Page")
        #expect((results as? NSDictionary)?.count == 2)

        // The callback forms: options explicit and omitted, handler with and without parentheses.
        let viaCallback: String? = await withCheckedContinuation { continuation in
            text.loadItem(
                forTypeIdentifier: "public.text", options: nil,
                completionHandler: { (item, error) in
                    continuation.resume(returning: error == nil ? item as? String : nil)
                })
        }
        #expect(viaCallback == "hello")
        let trailing: URL? = await withCheckedContinuation { continuation in
            link.loadItem(forTypeIdentifier: UTType.url.identifier) { item, _ in
                continuation.resume(returning: item as? URL)
            }
        }
        #expect(trailing?.absoluteString == "https://example.com/a")
    }

    @Test func anUnansweredTypeFailsWithApplesDomainAndCode() async {
        let provider = NSItemProvider(object: "x" as NSString)
        do {
            _ = try await provider.loadItem(forTypeIdentifier: "public.image")
            Issue.record("a text provider answered public.image")
        } catch {
            let error = error as NSError
            #expect(error.domain == NSItemProviderErrorDomain)
            #expect(error.code == NSItemProvider.ErrorCode.itemUnavailableError.rawValue)
        }
    }

    @Test func objectsOfClassesLoadThroughTheGenericForm() async throws {
        let provider = NSItemProvider(object: try #require(URL(string: "https://example.com/b")) as NSURL)
        #expect(provider.canLoadObject(ofClass: URL.self))
        #expect(provider.registeredTypeIdentifiers.first == "public.url")
        let url: URL? = await withCheckedContinuation { continuation in
            _ = provider.loadObject(ofClass: URL.self) { url, _ in continuation.resume(returning: url) }
        }
        #expect(url?.path == "/b")
        let text = NSItemProvider(object: "words" as NSString)
        let string: String? = await withCheckedContinuation { continuation in
            _ = text.loadObject(ofClass: String.self) { string, _ in continuation.resume(returning: string) }
        }
        #expect(string == "words")
    }

    @Test func registrationsAnswerByConformanceInFidelityOrder() async throws {
        let provider = NSItemProvider()
        provider.registerDataRepresentation(for: .png) { completion in
            completion(Data([0x89]), nil)
            return nil
        }
        provider.registerDataRepresentation(forTypeIdentifier: "public.jpeg") { completion in
            completion(Data([0xFF]), nil)
            return Progress()
        }
        #expect(provider.registeredContentTypes == [.png, .jpeg])
        #expect(provider.registeredContentTypes(conformingTo: .image).count == 2)
        #expect(provider.hasItemConformingToTypeIdentifier("public.image"))
        #expect(provider.hasRepresentationConforming(toTypeIdentifier: "public.image", fileOptions: []))
        #expect(!provider.hasRepresentationConforming(toTypeIdentifier: "public.image", fileOptions: [.openInPlace]))
        let first: Data? = await withCheckedContinuation { continuation in
            _ = provider.loadDataRepresentation(for: .image) { data, _ in continuation.resume(returning: data) }
        }
        #expect(first == Data([0x89]))
    }

    @Test func theFileOfLoadFileRepresentationIsGoneWhenTheHandlerReturns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("menu.pdf")
        try Data("%PDF-1.4\n".utf8).write(to: original)
        let provider = try #require(NSItemProvider(contentsOf: original))
        #expect(provider.suggestedName == "menu.pdf")
        let copy: URL? = await withCheckedContinuation { continuation in
            _ = provider.loadFileRepresentation(forTypeIdentifier: UTType.pdf.identifier) { url, _ in
                #expect(url.map { FileManager.default.fileExists(atPath: $0.path) } == true)
                continuation.resume(returning: url)
            }
        }
        let gone = try #require(copy)
        // The directory goes right after the handler: give the load queue a moment.
        for _ in 0..<100 where FileManager.default.fileExists(atPath: gone.path) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(!FileManager.default.fileExists(atPath: gone.path))
    }

    @Test func extensionItemsKeepTheirFieldsInUserInfo() {
        let item = NSExtensionItem()
        item.attributedContentText = NSAttributedString(string: "Page title")
        item.attachments = [NSItemProvider(object: "x" as NSString)]
        #expect(item.userInfo?[NSExtensionItemAttributedContentTextKey] is NSAttributedString)
        #expect(item.attributedTitle == nil)
        #expect(item.attachments?.count == 1)
    }

    @Test func progressAndFileCoordinationExistAsOnApplesPlatforms() {
        let progress = Progress()
        #expect(progress.totalUnitCount == -1)
        var error: NSError?
        var written: URL?
        NSFileCoordinator().coordinate(
            writingItemAt: URL(fileURLWithPath: "/tmp/x"), options: [.forMerging], error: &error
        ) { url in written = url }
        #expect(written?.path == "/tmp/x" && error == nil)
    }
}

/// The Foundation pieces extensions call that swift-corelibs-foundation lacks.
struct FoundationGapsTests {
    @Test func aDataDetectorFindsTheLinkInSharedText() throws {
        let text = "Look at www.example.org/page, or https://example.com/a?b=1. Mail mailto:x@example.com!"
        let detector = try NSDataDetector(types: spelling.link)
        let matches = detector.matches(
            in: text, options: [], range: NSRange(location: 0, length: (text as NSString).length))
        #expect(
            matches.compactMap(\.url?.absoluteString) == [
                "http://www.example.org/page", "https://example.com/a?b=1", "mailto:x@example.com",
            ])
        #expect(matches.allSatisfy { spelling.isLink($0) })
        let first = try #require(detector.firstMatch(in: text, options: [], range: NSRange(location: 0, length: 30)))
        #expect(first.range.location == 8 && first.url?.host == "www.example.org")
        #expect(
            try NSDataDetector(types: spelling.date).matches(in: text, range: NSRange(location: 0, length: 5)).isEmpty)
    }

    /// The raw values the detector reads are the ones corelibs gives Apple's names (not Apple's
    /// numbers: corelibs numbers its types from 1 << 1).
    @Test func theDetectorReadsTheTypesByTheirNames() throws {
        #expect(spelling.link == 1 << 6 && spelling.address == 1 << 5)
        #expect(spelling.date == 1 << 4 && spelling.phoneNumber == 1 << 11)
        let text = "Call 020 7946 0958 before March 5, 2025, at 1 Main St, Springfield, IL 62701 or see apple.com."
        let all = spelling.link | spelling.phoneNumber | spelling.address | spelling.date
        let matches = try NSDataDetector(types: all).matches(
            in: text, range: NSRange(location: 0, length: (text as NSString).length))
        #expect(
            matches.map { (text as NSString).substring(with: $0.range) } == [
                "020 7946 0958", "March 5, 2025", "1 Main St, Springfield, IL 62701", "apple.com",
            ])
        #expect(matches[0].phoneNumber == "020 7946 0958")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let day = try #require(matches[1].date)
        #expect(
            calendar.dateComponents([.year, .month, .day, .hour], from: day)
                == DateComponents(year: 2025, month: 3, day: 5, hour: 12))
        #expect(matches[2].addressComponents?[.zip] == "62701" && matches[2].addressComponents?[.state] == "IL")
        #expect(matches[3].url?.absoluteString == "http://apple.com")
        // Only what is asked for.
        let phones = try NSDataDetector(types: spelling.phoneNumber).matches(
            in: text, range: NSRange(location: 0, length: (text as NSString).length))
        #expect(phones.count == 1 && !spelling.isLink(phones[0]))
    }

    @Test func fileWrappersWriteAndReadFoldersAndFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wrapper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wrapper = FileWrapper(directoryWithFileWrappers: [
            "a.txt": FileWrapper(regularFileWithContents: Data("a".utf8)),
            "sub": FileWrapper(directoryWithFileWrappers: [
                "b.txt": FileWrapper(regularFileWithContents: Data("b".utf8))
            ]),
        ])
        try wrapper.write(to: folder, options: .atomic, originalContentsURL: nil)
        let read = try FileWrapper(url: folder)
        #expect(read.isDirectory && read.filename == folder.lastPathComponent)
        #expect(read.fileWrappers?["a.txt"]?.regularFileContents == Data("a".utf8))
        #expect(read.fileWrappers?["sub"]?.fileWrappers?["b.txt"]?.regularFileContents == Data("b".utf8))
    }

    @Test func theStandardDirectoriesAreTheProcessContainers() {
        #expect(URL.documentsDirectory.lastPathComponent == "Documents")
        #expect(URL.applicationSupportDirectory.path.hasSuffix("Library/Application Support"))
        #expect(URL.cachesDirectory.path.hasSuffix("Library/Caches"))
    }
}

/// The checking types as iOS code spells them. swift-corelibs-foundation marks the names
/// deprecated and this package builds with warnings as errors: the spellings live in deprecated
/// witnesses, called through the protocol (which does not warn).
protocol CheckingTypeSpelling: Sendable {
    static var link: UInt64 { get }
    static var phoneNumber: UInt64 { get }
    static var address: UInt64 { get }
    static var date: UInt64 { get }
    static func isLink(_ result: NSTextCheckingResult) -> Bool
}

/// The spellings, reached through the protocol.
let spelling: any CheckingTypeSpelling.Type = AppleSpelling.self

enum AppleSpelling: CheckingTypeSpelling {
    @available(*, deprecated, message: "iOS code spells it so")
    static var link: UInt64 { NSTextCheckingResult.CheckingType.link.rawValue }
    @available(*, deprecated, message: "iOS code spells it so")
    static var phoneNumber: UInt64 { NSTextCheckingResult.CheckingType.phoneNumber.rawValue }
    @available(*, deprecated, message: "iOS code spells it so")
    static var address: UInt64 { NSTextCheckingResult.CheckingType.address.rawValue }
    @available(*, deprecated, message: "iOS code spells it so")
    static var date: UInt64 { NSTextCheckingResult.CheckingType.date.rawValue }
    @available(*, deprecated, message: "iOS code spells it so")
    static func isLink(_ result: NSTextCheckingResult) -> Bool { result.resultType == .link }
}
