import AppGroups
import ExtHostTestSupport
import Foundation
import LaunchServices
import Testing

/// The AirDrop receiver as a library call, fed from memory: sharingd's handler order, the flows per
/// iOS version, several files, a folder, links, and lying transfers of those shapes.
@Suite struct AirDropReceiverTests {
    /// A device root with the demo bundles, on iOS `ios`, plus `apps` (identifier → claimed types).
    static func device(ios: String, apps: [String: [String]] = [:]) throws -> DeviceRoot {
        let url = try TestSupport.scratchRoot("airdrop-receiver")
        let info: [String: Any] = ["name": "receiver", "udid": UUID().uuidString, "iosVersion": ios, "created": Date()]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: url.appendingPathComponent(DeviceSet.infoFileName))
        for (identifier, types) in apps {
            let bundle = url.appendingPathComponent("Bundles/\(identifier).app")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            let plist: [String: Any] = [
                "CFBundleIdentifier": identifier, "CFBundleName": identifier, "CFBundlePackageType": "APPL",
                "CFBundleDocumentTypes": [["CFBundleTypeName": "Files", "LSItemContentTypes": types]],
            ]
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
                .write(to: bundle.appendingPathComponent("Info.plist"))
        }
        return DeviceRoot(url: url)
    }

    /// An offer for `body` named `name`, declared as `type`.
    static func offer(_ name: String, _ type: String, _ body: [UInt8]) -> AirDropOffer {
        AirDropOffer(sender: "Alice", name: name, typeIdentifier: type, bytes: body.count, sha256: SHA256.hex(of: body))
    }

    /// Runs `announcement` through a receiver on `root` with `bytes` as the stream.
    static func receive(
        _ announcement: AirDropAnnouncement, _ bytes: [UInt8], on root: DeviceRoot, _ response: AirDropResponse
    ) throws -> AirDropReceipt {
        let receiver = AirDropReceiver(root: root, iosVersion: root.iosVersion, response: response)
        var offset = 0
        return try receiver.receive(announcement) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            buffer.copyBytes(from: bytes[offset..<offset + count])
            offset += count
            return count
        }
    }

    /// Every file under `root` outside Bundles.
    static func leftovers(_ root: DeviceRoot) -> [String] {
        let walker = FileManager.default.enumerator(atPath: root.url.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasPrefix("Bundles") || path == DeviceSet.infoFileName { continue }
            if (walker?.fileAttributes?[.type] as? FileAttributeType) == .typeRegular { found.append(path) }
        }
        return found.sorted()
    }

    let jpeg = Array("not really a jpeg".utf8)
    let card = Array(#"{"name": "alice"}"#.utf8)

    @Test(arguments: ["16.4", "18.0"])
    func aJPEGGoesToPhotosBeforeAThirdPartyAppThatClaimsIt(ios: String) throws {
        let root = try Self.device(ios: ios, apps: ["com.example.viewer": ["public.jpeg"]])
        defer { try? FileManager.default.removeItem(at: root.url) }
        let receipt = try Self.receive(
            AirDropAnnouncement(sender: "Alice", files: [Self.offer("beach.jpg", "public.jpeg", jpeg)]), jpeg, on: root,
            AirDropResponse(accept: true))
        #expect(receipt.outcome == "accepted", "\(receipt.reason)")
        #expect(receipt.flow == "system")
        #expect(receipt.handler?.name == "Photos")
        #expect(receipt.handler?.declined == ["CalendarEvents", "Contacts"])
        #expect(receipt.handler?.reason.contains("before GenericFiles") == true)
        #expect(receipt.app == "com.apple.mobileslideshow")
        #expect(receipt.path == "Media/DCIM/100APPLE/beach.jpg")
        #expect(try Data(contentsOf: root.url.appendingPathComponent("Media/DCIM/100APPLE/beach.jpg")) == Data(jpeg))
        #expect(receipt.appURLs.isEmpty, "no third-party app is launched")
    }

    @Test func aPDFGoesToBooksAndAVCardToContacts() throws {
        let root = try Self.device(ios: "18.0")
        defer { try? FileManager.default.removeItem(at: root.url) }
        let pdf = Array("%PDF-1.4".utf8)
        let receipt = try Self.receive(
            AirDropAnnouncement(sender: "Alice", files: [Self.offer("menu.pdf", "com.adobe.pdf", pdf)]), pdf, on: root,
            AirDropResponse(accept: true))
        // Reader.app (a demo bundle) claims com.adobe.pdf; the PDFs handler comes first.
        #expect(receipt.handler?.name == "PDFs" && receipt.app == "com.apple.iBooks", "\(receipt)")
        #expect(receipt.path == "Media/Books/Received/menu.pdf")
        let vcard = Array("BEGIN:VCARD\nEND:VCARD\n".utf8)
        let contact = try Self.receive(
            AirDropAnnouncement(sender: "Alice", files: [Self.offer("bob.vcf", "public.vcard", vcard)]), vcard,
            on: root, AirDropResponse(accept: true))
        #expect(contact.handler?.name == "Contacts" && contact.handler?.declined == ["CalendarEvents"])
        #expect(contact.path == "Library/AddressBook/Received/bob.vcf")
    }

    @Test func fromIOS17AnAcceptedFileIsSavedToDownloadsAndOpenedInFiles() throws {
        let root = try Self.device(ios: "17.0")
        defer { try? FileManager.default.removeItem(at: root.url) }
        let announcement = AirDropAnnouncement(
            sender: "Alice", files: [Self.offer("alice.card", "com.example.carddrop.card", card)])
        let receipt = try Self.receive(announcement, card, on: root, AirDropResponse(accept: true))
        #expect(receipt.outcome == "accepted")
        #expect(receipt.flow == "downloads")
        #expect(receipt.handler?.name == "GenericFiles")
        #expect(receipt.actions == ["Open in Files", "Move to App…"])
        #expect(receipt.action == "Open in Files")
        #expect(receipt.app == "com.apple.DocumentsApp")
        #expect(receipt.path == "Downloads/alice.card")
        #expect(receipt.handlers.map(\.bundleIdentifier) == ["com.example.carddrop"])
        #expect(receipt.appURLs.isEmpty, "the app is not launched unless Move to App… is chosen")
        // Move to App… is the separate choice: into the app's Inbox, the Downloads copy gone.
        let moved = try Self.receive(
            announcement, card, on: root, AirDropResponse(accept: true, moveToApp: "com.example.carddrop"))
        #expect(moved.action == "Move to App… com.example.carddrop")
        #expect(moved.path?.hasSuffix("Documents/Inbox/alice.card") == true, "\(moved)")
        #expect(moved.appURLs.count == 1)
        #expect(Self.leftovers(root).filter { $0.hasPrefix("Downloads/") } == ["Downloads/alice.card"])
        // Open with is not a choice there.
        let openWith = try Self.receive(
            announcement, card, on: root, AirDropResponse(accept: true, openWith: "com.example.carddrop"))
        #expect(openWith.outcome == "refused" && openWith.reason.contains("offers no Open with"))
    }

    @Test func beforeIOS17TheAlertOffersOpenWithEachAppAndSaveToFiles() throws {
        let root = try Self.device(ios: "16.4", apps: ["com.example.everything": ["public.data"]])
        defer { try? FileManager.default.removeItem(at: root.url) }
        let announcement = AirDropAnnouncement(
            sender: "Alice", files: [Self.offer("alice.card", "com.example.carddrop.card", card)])
        let declined = try Self.receive(announcement, card, on: root, AirDropResponse(accept: false))
        #expect(declined.outcome == "declined")
        #expect(declined.actions == ["Open with CardDrop", "Open with com.example.everything", "Save to Files"])
        #expect(Self.leftovers(root).isEmpty, "a declined transfer keeps nothing")
        let saved = try Self.receive(announcement, card, on: root, AirDropResponse(accept: true, saveToFiles: true))
        #expect(saved.outcome == "accepted" && saved.action == "Save to Files" && saved.path == "Downloads/alice.card")
        let opened = try Self.receive(
            announcement, card, on: root, AirDropResponse(accept: true, openWith: "com.example.everything"))
        #expect(opened.action == "Open with com.example.everything", "\(opened)")
        #expect(opened.path?.hasSuffix("/Documents/Inbox/alice.card") == true)
        let moveToApp = try Self.receive(
            announcement, card, on: root, AirDropResponse(accept: true, moveToApp: "com.example.carddrop"))
        #expect(moveToApp.outcome == "refused" && moveToApp.reason.contains("Move to App… exists from iOS 17"))
    }

    @Test func aTypeNoAppClaimsRequiresAnAppWithGetAppForTheDeclaredType() throws {
        let root = try Self.device(ios: "18.0")
        defer { try? FileManager.default.removeItem(at: root.url) }
        let body = Array("pokecard".utf8)
        let receipt = try Self.receive(
            AirDropAnnouncement(
                sender: "Alice", files: [Self.offer("pika.pokecard", "jp.yuoku.PokeCardDropUTI.pokecard", body)]),
            body, on: root, AirDropResponse(accept: true))
        #expect(receipt.outcome == "requires-app")
        #expect(receipt.handler?.name == "UnsupportedType")
        #expect(receipt.typeIdentifier == "jp.yuoku.PokeCardDropUTI.pokecard", "not a dyn. type")
        #expect(receipt.files.first?.typeIdentifier == "jp.yuoku.PokeCardDropUTI.pokecard")
        #expect(
            receipt.getApp
                == "itms-apps://itunes.apple.com/WebObjects/MZStore.woa/wa/docTypeLookup?uti=jp.yuoku.PokeCardDropUTI.pokecard"
        )
        #expect(receipt.actions == ["Get App", "Save to Files"])
        #expect(receipt.path == "Downloads/pika.pokecard")
    }

    @Test func severalFilesAreOfferedTheAppsThatOpenEveryOne() throws {
        let root = try Self.device(ios: "16.4", apps: ["com.example.everything": ["public.data"]])
        defer { try? FileManager.default.removeItem(at: root.url) }
        let text = Array("hello\n".utf8)
        let files = [
            Self.offer("alice.card", "com.example.carddrop.card", card),
            Self.offer("note.txt", "public.plain-text", text),
        ]
        let receipt = try Self.receive(
            AirDropAnnouncement(sender: "Alice", files: files), card + text, on: root, AirDropResponse(accept: true))
        // CardDrop opens the card only; the app claiming public.data opens both: the intersection.
        #expect(receipt.handlers.map(\.bundleIdentifier) == ["com.example.everything"], "\(receipt)")
        #expect(receipt.handler?.reason.contains("intersection") == true)
        #expect(receipt.outcome == "accepted" && receipt.app == "com.example.everything")
        #expect(receipt.files.map(\.name) == ["alice.card", "note.txt"])
        #expect(receipt.files.allSatisfy { $0.path?.contains("/Documents/Inbox/") == true }, "\(receipt.files)")
        #expect(receipt.appURLs.count == 2, "both files in one launch")
        #expect(receipt.bytes == card.count + text.count && receipt.sha256 == nil)

        // Without a common app: the files require an app, typed as their senders declared them.
        let bare = try Self.device(ios: "18.0")
        defer { try? FileManager.default.removeItem(at: bare.url) }
        let mixed = try Self.receive(
            AirDropAnnouncement(sender: "Alice", files: files), card + text, on: bare, AirDropResponse(accept: true))
        #expect(mixed.outcome == "requires-app" && mixed.typeIdentifier == "public.plain-text", "\(mixed)")
        #expect(mixed.getApp?.hasSuffix("?uti=public.plain-text") == true)
        #expect(mixed.files.compactMap(\.path) == ["Downloads/alice.card", "Downloads/note.txt"])
    }

    @Test(arguments: ["16.4", "18.0"])
    func aFolderArrivesWholeInDownloadsThroughFiles(ios: String) throws {
        let root = try Self.device(ios: ios)
        defer { try? FileManager.default.removeItem(at: root.url) }
        let text = Array("hello\n".utf8)
        let receipt = try Self.receive(
            AirDropAnnouncement(
                sender: "Alice",
                files: [
                    Self.offer("alice.card", "com.example.carddrop.card", card),
                    Self.offer("notes/note.txt", "public.plain-text", text),
                ], folder: "Trip"), card + text, on: root, AirDropResponse(accept: true))
        #expect(receipt.outcome == "accepted", "\(receipt.reason)")
        #expect(receipt.typeIdentifier == "public.folder")
        #expect(receipt.handlers.map(\.bundleIdentifier) == ["com.apple.DocumentsApp"])
        #expect(receipt.app == "com.apple.DocumentsApp")
        #expect(receipt.action == (ios == "18.0" ? "Open in Files" : "Open with Files"))
        #expect(receipt.path == "Downloads/Trip")
        #expect(Self.leftovers(root) == ["Downloads/Trip/alice.card", "Downloads/Trip/notes/note.txt"])
        #expect(receipt.files.compactMap(\.path) == ["Downloads/Trip/alice.card", "Downloads/Trip/notes/note.txt"])
    }

    @Test func aFolderMovedToAnAppThatOpensFoldersArrivesWholeInItsInbox() throws {
        let root = try Self.device(ios: "18.0", apps: ["com.example.folders": ["public.folder"]])
        defer { try? FileManager.default.removeItem(at: root.url) }
        let text = Array("hello\n".utf8)
        let receipt = try Self.receive(
            AirDropAnnouncement(
                sender: "Alice",
                files: [
                    Self.offer("alice.card", "com.example.carddrop.card", card),
                    Self.offer("notes/note.txt", "public.plain-text", text),
                ], folder: "Trip"), card + text, on: root,
            AirDropResponse(accept: true, moveToApp: "com.example.folders"))
        #expect(receipt.outcome == "accepted", "\(receipt.reason)")
        #expect(receipt.handlers.map(\.bundleIdentifier) == ["com.example.folders", "com.apple.DocumentsApp"])
        let path = try #require(receipt.path)
        #expect(path.hasSuffix("/Documents/Inbox/Trip"), "\(path)")
        #expect(receipt.files.compactMap(\.path) == [path + "/alice.card", path + "/notes/note.txt"])
        #expect(receipt.appURLs.count == 1, "the app gets the folder's URL")
        #expect(
            Self.leftovers(root).filter { $0.contains("/Inbox/") } == [path + "/alice.card", path + "/notes/note.txt"])
        #expect(!Self.leftovers(root).contains { $0.hasPrefix("Downloads/") || $0.hasPrefix("tmp/") })
    }

    @Test func linksGoToTheRegisteringAppToSafariOrRequireAnApp() throws {
        let root = try Self.device(ios: "18.0")
        defer { try? FileManager.default.removeItem(at: root.url) }
        func link(_ url: String) throws -> AirDropReceipt {
            try Self.receive(
                AirDropAnnouncement(sender: "Alice", files: [], url: url), [], on: root, AirDropResponse(accept: true))
        }
        let custom = try link("carddrop://card/alice")
        #expect(custom.handler?.name == "GenericLinks" && custom.app == "com.example.carddrop", "\(custom)")
        #expect(custom.appURLs == ["carddrop://card/alice"] && custom.flow == "link")
        let web = try link("https://example.com/cards/alice")
        #expect(web.handler?.name == "WebLinks" && web.app == "com.apple.mobilesafari")
        #expect(web.handler?.reason.contains("does not model associated domains") == true)
        #expect(web.appURLs.isEmpty)
        let phone = try link("tel:+15555550100")
        #expect(phone.handler?.name == "Phone" && phone.app == "com.apple.mobilephone")
        let unknown = try link("pokecard://pika")
        #expect(unknown.outcome == "requires-app" && unknown.getApp?.hasSuffix("docTypeLookup?scheme=pokecard") == true)
        let noScheme = try link("example.com/alice")
        #expect(noScheme.outcome == "refused" && noScheme.reason.contains("has no scheme"))
        #expect(Self.leftovers(root).isEmpty)
    }

    @Test func aTransferOfZeroFilesIsRefused() throws {
        let root = try Self.device(ios: "18.0")
        defer { try? FileManager.default.removeItem(at: root.url) }
        let receipt = try Self.receive(
            AirDropAnnouncement(sender: "Alice", files: []), [], on: root, AirDropResponse(accept: true))
        #expect(receipt.outcome == "refused" && receipt.reason == "a transfer of zero files")
    }

    @Test func oneLyingEntryRefusesTheWholeTransferAndKeepsNothing() throws {
        let root = try Self.device(ios: "18.0")
        defer { try? FileManager.default.removeItem(at: root.url) }
        let text = Array("hello\n".utf8)
        let good = Self.offer("alice.card", "com.example.carddrop.card", card)
        var truncated = Self.offer("note.txt", "public.plain-text", text)
        truncated.bytes += 10
        var lyingDigest = Self.offer("note.txt", "public.plain-text", text)
        lyingDigest.sha256 = String(repeating: "0", count: 64)
        let cases: [(String, AirDropAnnouncement, [UInt8], String)] = [
            (
                "a folder entry with ../",
                AirDropAnnouncement(
                    sender: "M", files: [good, Self.offer("../../evil.txt", "public.plain-text", text)], folder: "Trip"),
                card + text, "not a path of plain file names"
            ),
            (
                "a folder named ..", AirDropAnnouncement(sender: "M", files: [good], folder: ".."), card,
                "the folder's name"
            ),
            (
                "a folder naming a file twice",
                AirDropAnnouncement(sender: "M", files: [good, good], folder: "Trip"), card + card, "twice"
            ),
            (
                "a folder naming a file as a folder",
                AirDropAnnouncement(
                    sender: "M",
                    files: [good, Self.offer("alice.card/x.txt", "public.plain-text", text)], folder: "Trip"),
                card + text, "both as a file and as a folder"
            ),
            (
                "several files, one with a / in its name",
                AirDropAnnouncement(sender: "M", files: [good, Self.offer("a/b.txt", "public.plain-text", text)]),
                card + text, "not a plain file name"
            ),
            (
                "several files, the last truncated",
                AirDropAnnouncement(sender: "M", files: [good, truncated]), card + text, "ended after"
            ),
            (
                "a folder, the last entry truncated",
                AirDropAnnouncement(sender: "M", files: [good, truncated], folder: "Trip"), card + text, "ended after"
            ),
            (
                "several files, one digest a lie",
                AirDropAnnouncement(sender: "M", files: [good, lyingDigest]), card + text, "note.txt do not match"
            ),
            (
                "several files, more bytes than announced",
                AirDropAnnouncement(sender: "M", files: [good, Self.offer("note.txt", "public.plain-text", text)]),
                card + text + text, "more than"
            ),
            (
                "files and a link at once",
                AirDropAnnouncement(sender: "M", files: [good], url: "https://example.com"), card, "not both"
            ),
        ]
        for (what, announcement, bytes, expected) in cases {
            let receipt = try Self.receive(announcement, bytes, on: root, AirDropResponse(accept: true))
            #expect(receipt.outcome == "refused", "\(what): \(receipt.outcome)")
            #expect(receipt.reason.contains(expected), "\(what): \(receipt.reason)")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: root.url.deletingLastPathComponent().appendingPathComponent("evil.txt").path))
    }
}
