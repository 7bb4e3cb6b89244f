import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import LaunchServices
import Testing

@testable import ExtHostCommands

/// AirDrop between two device roots on one machine: a real receiver process listening on
/// 127.0.0.1, a real TCP connection, byte-exact delivery, and hostile peers refused with nothing
/// left behind.
@Suite(.timeLimit(.minutes(3)))
struct AirDropTests {
    static let card = TestSupport.packageRoot.appendingPathComponent("Containers/Bundles/DemoItems/alice.card")

    static func devices() throws -> (URL, URL) {
        (try TestSupport.scratchRoot("airdrop-a"), try TestSupport.scratchRoot("airdrop-b"))
    }

    /// `exthost airdrop --json` decoded as the report type it is written from.
    static func report(_ out: String) throws -> AirDropReport {
        try JSONDecoder().decode(AirDropReport.self, from: Data(out.utf8))
    }

    /// Every file under `root` outside Bundles (what a transfer left behind).
    static func leftovers(_ root: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists, !path.hasPrefix("Bundles"), !isDirectory.boolValue { found.append(path) }
        }
        return found
    }

    @Test func aCardArrivesByteExactInTheReceiversAppInbox() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let (code, out, err) = await TestSupport.run(
            [
                "airdrop", Self.card.path, "--from", sender.path, "--to", receiver.path, "--move-to-app",
                "com.example.carddrop", "--json",
            ])
        #expect(code == .success, "\(err)")
        let report = try Self.report(out)
        #expect(report.sender == sender.path && report.receiver == receiver.path)
        let receipt = report.receipt
        #expect(receipt.outcome == "accepted")
        #expect(receipt.flow == "downloads", "iOS 18 saves to Downloads, then Move to App…")
        #expect(receipt.action == "Move to App… com.example.carddrop")
        #expect(report.senderCompletion.completed && report.senderCompletion.activityError == nil)
        #expect(receipt.typeIdentifier == "com.example.carddrop.card", "the exported type round-trips")
        #expect(receipt.app == "com.example.carddrop")
        let path = try #require(receipt.path)
        #expect(path.hasPrefix("Data/Application/") && path.hasSuffix("/Documents/Inbox/alice.card"))
        // CardDrop (the built-in app) was launched for it and moved it out of its Inbox.
        let delivery = try #require(receipt.delivery)
        #expect(delivery.method == "willConnectTo")
        let launch = try #require(delivery.app)
        #expect(launch.start == "cold")
        #expect(launch.delivery.method == .willConnectTo)
        // sharingd opens the file: another team's, so the app gets no source application.
        #expect(launch.sourceApplication == nil && out.contains(#""sourceApplication": null"#), "\(out)")
        let kept = receiver.appendingPathComponent(path).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Received/alice.card")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: Self.card))
        #expect(receipt.sha256 == SHA256.hex(of: try Data(contentsOf: Self.card)))
        #expect(!Self.leftovers(receiver).contains { $0.hasPrefix("Downloads/") || $0.hasPrefix("tmp/") })
    }

    @Test func beforeIOS17TheFileIsOpenedWithTheApp() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let info: [String: Any] = [
            "name": "old-phone", "udid": UUID().uuidString, "iosVersion": "16.4", "created": Date(),
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: receiver.appendingPathComponent(DeviceSet.infoFileName))
        let (code, out, err) = await TestSupport.run(
            ["airdrop", Self.card.path, "--from", sender.path, "--to", receiver.path, "--accept", "--json"])
        #expect(code == .success, "\(err)")
        let receipt = try Self.report(out).receipt
        #expect(receipt.flow == "open-with")
        #expect(receipt.path?.hasSuffix("/Documents/Inbox/alice.card") == true)
        #expect(!Self.leftovers(receiver).contains { $0.hasPrefix("Downloads/") })
    }

    @Test func aTypeTheReceiverDoesNotKnowRequiresAnApp() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        try FileManager.default.removeItem(at: receiver.appendingPathComponent("Bundles/CardDrop.app"))
        let (declined, _, _) = await TestSupport.run(
            ["airdrop", Self.card.path, "--from", sender.path, "--to", receiver.path])
        #expect(declined == .no)
        #expect(Self.leftovers(receiver).isEmpty, "a declined transfer keeps nothing")
        let (code, out, _) = await TestSupport.run(
            ["airdrop", Self.card.path, "--from", sender.path, "--to", receiver.path, "--accept", "--json"])
        #expect(code == .no)
        let receipt = try Self.report(out).receipt
        #expect(receipt.outcome == "requires-app")
        // The sender's declared type, not one re-derived from the extension (dyn.…).
        #expect(receipt.typeIdentifier == "com.example.carddrop.card", "\(receipt)")
        #expect(receipt.files.first?.declaredType == "com.example.carddrop.card")
        #expect(
            receipt.getApp
                == "itms-apps://itunes.apple.com/WebObjects/MZStore.woa/wa/docTypeLookup?uti=com.example.carddrop.card")
        #expect(receipt.actions == ["Get App", "Save to Files"])
        #expect(receipt.handler?.name == "UnsupportedType")
        #expect(receipt.path == "Downloads/alice.card", "Save to Files")
    }

    // MARK: - Hostile peers

    /// Starts a receiver process on `root`, sends `header` and `body` to it, returns its receipt.
    static func hostile(_ root: URL, header: String, body: [UInt8]) async throws -> AirDropReceipt {
        let programs = try #require(InstalledPrograms.nextToExecutable())
        let (line, _) = try await AirDropTransfer.withReceiver(
            on: DeviceRoot(url: root), response: AirDropResponse(accept: true), programs: programs
        ) { socket in
            try socket.sendAll(Array((header + "\n").utf8))
            try socket.sendAll(body)
            try socket.shutdownWriting()
            return AirDropTransfer.readLine(from: socket) ?? Data()
        }
        return try JSONDecoder().decode(AirDropReceipt.self, from: line)
    }

    static func offer(name: String, bytes: Int, sha: String) -> String {
        #"{"sender":"mallory","name":"\#(name)","typeIdentifier":"com.example.carddrop.card","bytes":\#(bytes),"sha256":"\#(sha)"}"#
    }

    @Test func hostilePeersAreRefusedWithNothingLeftBehind() async throws {
        let root = try TestSupport.scratchRoot("airdrop-hostile")
        defer { try? FileManager.default.removeItem(at: root) }
        let body = Array("{\"name\": \"mallory\"}".utf8)
        let sha = SHA256.hex(of: body)
        let cases: [(String, String, [UInt8], String)] = [
            (
                "a name with ../", Self.offer(name: "../../evil.card", bytes: body.count, sha: sha), body,
                "not a plain file name"
            ),
            (
                "a truncated transfer", Self.offer(name: "x.card", bytes: body.count + 100, sha: sha), body,
                "ended after"
            ),
            ("more than announced", Self.offer(name: "x.card", bytes: body.count - 5, sha: sha), body, "more than"),
            (
                "a digest that lies",
                Self.offer(name: "x.card", bytes: body.count, sha: String(repeating: "0", count: 64)), body, "SHA-256"
            ),
            ("not an offer", "GET / HTTP/1.0", [], "not a readable offer"),
        ]
        for (what, header, bytes, expected) in cases {
            let receipt = try await Self.hostile(root, header: header, body: bytes)
            #expect(receipt.outcome == "refused", "\(what)")
            #expect(receipt.reason.contains(expected), "\(what): \(receipt)")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: root.deletingLastPathComponent().appendingPathComponent("evil.card").path))
    }

    // MARK: - More lies (issue 29)

    @Test func namesThatAreNoFileNamesAndSizesBeyondFreeSpaceAreRefusedBeforeAnyByte() async throws {
        let root = try TestSupport.scratchRoot("airdrop-names")
        defer { try? FileManager.default.removeItem(at: root) }
        let body = Array("{\"name\": \"mallory\"}".utf8)
        let sha = SHA256.hex(of: body)
        let cases: [(String, String, String)] = [
            ("an empty name", Self.offer(name: "", bytes: body.count, sha: sha), "not a plain file name"),
            ("a name that is .", Self.offer(name: ".", bytes: body.count, sha: sha), "not a plain file name"),
            ("a name with /", Self.offer(name: "cards/x.card", bytes: body.count, sha: sha), "not a plain file name"),
            (
                "a name with a NUL", Self.offer(name: "x\\u0000.card", bytes: body.count, sha: sha),
                "not a plain file name"
            ),
            (
                "a size beyond the free space", Self.offer(name: "big.card", bytes: 1 << 50, sha: sha),
                "bytes free on the receiving device"
            ),
        ]
        for (what, header, expected) in cases {
            let receipt = try await Self.hostile(root, header: header, body: body)
            print("airdrop lie: \(what) → \(receipt.outcome): \(receipt.reason)")
            #expect(receipt.outcome == "refused", "\(what)")
            #expect(receipt.reason.contains(expected), "\(what): \(receipt)")
            #expect(receipt.bytes == 0, "\(what): \(receipt.bytes) bytes read")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
    }

    @Test func aSenderThatStallsMidTransferIsRefusedAtTheTimeLimit() async throws {
        let root = try TestSupport.scratchRoot("airdrop-stall")
        defer { try? FileManager.default.removeItem(at: root) }
        let body = [UInt8](repeating: 0x41, count: 100_000)
        let programs = try #require(InstalledPrograms.nextToExecutable())
        let (line, status) = try await AirDropTransfer.withReceiver(
            on: DeviceRoot(url: root), response: AirDropResponse(accept: true), programs: programs,
            stallLimit: .milliseconds(500)
        ) { socket in
            let header = Self.offer(name: "slow.card", bytes: body.count, sha: SHA256.hex(of: body))
            try socket.sendAll(Array((header + "\n").utf8))
            try socket.sendAll(Array(body[0..<40_000]))
            // …and nothing more, the connection left open: the receiver's limit, not end of file, ends it.
            return AirDropTransfer.readLine(from: socket) ?? Data()
        }
        let receipt = try JSONDecoder().decode(AirDropReceipt.self, from: line)
        print("airdrop lie: a stalled sender → \(receipt.outcome): \(receipt.reason)")
        #expect(receipt.outcome == "refused")
        #expect(receipt.reason.contains("stalled after 40000 of 100000 bytes"), "\(receipt)")
        #expect(status == .exited(1), "\(status)")
        #expect(Self.leftovers(root).isEmpty, "left \(Self.leftovers(root))")
    }

    @Test func aSenderThatStallsInItsAnnouncementIsRefusedAtTheTimeLimit() async throws {
        let root = try TestSupport.scratchRoot("airdrop-stall-header")
        defer { try? FileManager.default.removeItem(at: root) }
        let programs = try #require(InstalledPrograms.nextToExecutable())
        let (line, status) = try await AirDropTransfer.withReceiver(
            on: DeviceRoot(url: root), response: AirDropResponse(accept: true), programs: programs,
            stallLimit: .milliseconds(500)
        ) { socket in
            try socket.sendAll(Array(#"{"sender":"mallory","files":[{"name":"#.utf8))
            // …and nothing more, the connection left open.
            return AirDropTransfer.readLine(from: socket) ?? Data()
        }
        let receipt = try JSONDecoder().decode(AirDropReceipt.self, from: line)
        #expect(receipt.outcome == "refused" && receipt.reason.contains("stall limit"), "\(receipt)")
        #expect(status == .exited(1), "\(status)")
        #expect(Self.leftovers(root).isEmpty, "left \(Self.leftovers(root))")
    }

    /// Sends `body` as `same.txt` to a receiver on `root`, the first five bytes, then `between` (run
    /// while this transfer is half done), then the rest; returns the receipt.
    static func sendSameName(
        _ body: [UInt8], to root: URL, programs: InstalledPrograms, between: () async throws -> Void = {}
    ) async throws -> AirDropReceipt {
        let (line, _) = try await AirDropTransfer.withReceiver(
            on: DeviceRoot(url: root), response: AirDropResponse(accept: true), programs: programs
        ) { socket in
            let offer = AirDropOffer(
                sender: "mallory", name: "same.txt", typeIdentifier: "public.plain-text", bytes: body.count,
                sha256: SHA256.hex(of: body))
            try socket.sendAll(Array((String(decoding: try JSONEncoder().encode(offer), as: UTF8.self) + "\n").utf8))
            try socket.sendAll(Array(body[0..<5]))
            try await between()
            try socket.sendAll(Array(body[5...]))
            try socket.shutdownWriting()
            return AirDropTransfer.readLine(from: socket) ?? Data()
        }
        return try JSONDecoder().decode(AirDropReceipt.self, from: line)
    }

    @Test func twoTransfersOfOneNameAtOnceBothLandUnderTwoNames() async throws {
        let root = try TestSupport.scratchRoot("airdrop-twice")
        defer { try? FileManager.default.removeItem(at: root) }
        let programs = try #require(InstalledPrograms.nextToExecutable())
        let bodies = [Array("first card\n".utf8), Array("second, longer card\n".utf8)]
        // The first transfer is half done while the second runs whole: both announce the same name.
        var second: AirDropReceipt?
        let first = try await Self.sendSameName(bodies[0], to: root, programs: programs) {
            second = try await Self.sendSameName(bodies[1], to: root, programs: programs)
        }
        let receipts = try [first, #require(second)]
        for receipt in receipts { print("airdrop: same name at once → \(receipt.outcome): \(receipt.path ?? "-")") }
        // No installed app opens plain text: each is kept in Downloads (Save to Files), under its own name.
        #expect(receipts.allSatisfy { $0.outcome == "requires-app" }, "\(receipts)")
        let paths = receipts.compactMap(\.path)
        #expect(Set(paths).count == 2, "\(paths)")
        let contents = Set(paths.compactMap { try? Data(contentsOf: root.appendingPathComponent($0)) }.map(Array.init))
        #expect(contents == Set(bodies), "the two files are not the two transfers")
        #expect(!Self.leftovers(root).contains { $0.hasPrefix("tmp/") }, "left \(Self.leftovers(root))")
    }

    // MARK: - Several files, a folder, links (issue 27 item 4)

    @Test func twoCardsMovedToTheAppArriveInOneLaunch() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let second = sender.appendingPathComponent("bob.card")
        try Data(#"{"name": "bob"}"#.utf8).write(to: second)
        let (code, out, err) = await TestSupport.run([
            "airdrop", Self.card.path, second.path, "--from", sender.path, "--to", receiver.path, "--move-to-app",
            "com.example.carddrop", "--json",
        ])
        #expect(code == .success, "\(err)")
        let receipt = try Self.report(out).receipt
        #expect(
            receipt.handler?.name == "GenericFiles"
                && receipt.handlers.map(\.bundleIdentifier) == ["com.example.carddrop"])
        #expect(receipt.files.map(\.name) == ["alice.card", "bob.card"])
        #expect(receipt.appURLs.count == 2)
        let launch = try #require(receipt.delivery?.app)
        #expect(launch.start == "cold" && launch.delivery.method == .willConnectTo)
        // The app kept both: it moved each out of its Inbox into Documents/Received.
        let output = launch.run?.output ?? ""
        #expect(output.contains("received alice.card") && output.contains("received bob.card"), "\(output)")
        #expect(!Self.leftovers(receiver).contains { $0.hasPrefix("Downloads/") || $0.hasPrefix("tmp/") })
    }

    @Test func aCustomSchemeLinkOpensTheRegisteringAppAndAWebLinkOpensSafari() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let (code, out, err) = await TestSupport.run([
            "airdrop", "--url", "carddrop://card/alice", "--from", sender.path, "--to", receiver.path, "--accept",
            "--json",
        ])
        #expect(code == .success, "\(err)")
        let report = try Self.report(out)
        #expect(report.receipt.handler?.name == "GenericLinks" && report.receipt.app == "com.example.carddrop")
        #expect(report.receipt.delivery?.app?.run?.output.contains("opened carddrop://card/alice") == true, "\(out)")
        #expect(report.senderCompletion.completed)
        let (web, webOut, _) = await TestSupport.run([
            "airdrop", "--url", "https://example.com/alice", "--from", sender.path, "--to", receiver.path, "--accept",
        ])
        #expect(web == .success)
        #expect(webOut.contains("handler WebLinks (com.apple.mobilesafari)"), "\(webOut)")
        let (declined, declinedOut, _) = await TestSupport.run([
            "airdrop", "--url", "carddrop://card/alice", "--from", sender.path, "--to", receiver.path, "--json",
        ])
        #expect(declined == .no)
        let completion = try Self.report(declinedOut).senderCompletion
        #expect(!completion.completed && completion.activityError == nil)
        #expect(completion.activityType == "com.apple.UIKit.activity.AirDrop")
    }

    @Test func aFolderArrivesWholeInDownloads() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let folder = sender.appendingPathComponent("Trip")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.card, to: folder.appendingPathComponent("alice.card"))
        try Data("hello\n".utf8).write(to: folder.appendingPathComponent("notes/note.txt"))
        try Data("hidden".utf8).write(to: folder.appendingPathComponent(".DS_Store"))
        let (code, out, err) = await TestSupport.run(
            ["airdrop", folder.path, "--from", sender.path, "--to", receiver.path, "--accept", "--json"])
        #expect(code == .success, "\(err)")
        let receipt = try Self.report(out).receipt
        #expect(receipt.action == "Open in Files" && receipt.path == "Downloads/Trip", "\(receipt)")
        #expect(Self.leftovers(receiver).sorted() == ["Downloads/Trip/alice.card", "Downloads/Trip/notes/note.txt"])
    }

    @Test func aFolderOfAThousandFilesArrivesWhole() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let folder = sender.appendingPathComponent("Many")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 1...1000 {
            try Data("file \(index)\n".utf8).write(to: folder.appendingPathComponent("file-number-\(index).txt"))
        }
        // The announcement (about 190 KB) and the receipt are longer than the old 64 KiB line limit.
        let (code, out, err) = await TestSupport.run(
            ["airdrop", folder.path, "--from", sender.path, "--to", receiver.path, "--accept", "--json"])
        #expect(code == .success, "\(err)")
        let receipt = try Self.report(out).receipt
        #expect(receipt.files.count == 1000 && receipt.path == "Downloads/Many", "\(receipt.reason)")
        #expect(Self.leftovers(receiver).count == 1000)
        #expect(
            try String(
                contentsOf: receiver.appendingPathComponent("Downloads/Many/file-number-777.txt"), encoding: .utf8)
                == "file 777\n")
    }

    @Test func badInputIsRefusedBeforeAnythingIsSent() async throws {
        let (sender, receiver) = try Self.devices()
        defer { for root in [sender, receiver] { try? FileManager.default.removeItem(at: root) } }
        let empty = sender.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            ([], "a transfer of zero files"),
            ([empty.path], "a transfer of zero files"),
            (["--url", "example.com/alice"], "has no scheme"),
            ([Self.card.path, "--with", "com.example.carddrop"], "saves AirDropped files to Downloads"),
            ([Self.card.path, "--move-to-app", "com.example.nothere"], "does not offer com.example.nothere"),
            ([Self.card.path, empty.path], "one folder on its own"),
        ]
        for (arguments, expected) in cases {
            let (code, _, err) = await TestSupport.run(
                ["airdrop"] + arguments + ["--from", sender.path, "--to", receiver.path])
            #expect(code == .usage, "\(arguments): \(code)")
            #expect(err.contains(expected), "\(arguments): \(err)")
            #expect(Self.leftovers(receiver).isEmpty, "\(arguments) left \(Self.leftovers(receiver))")
        }
    }

    @Test func aFolderOrSeveralFilesWithOneLyingEntryAreRefusedWholeOverTheWire() async throws {
        let root = try TestSupport.scratchRoot("airdrop-hostile-shapes")
        defer { try? FileManager.default.removeItem(at: root) }
        let body = Array("{\"name\": \"mallory\"}".utf8)
        let sha = SHA256.hex(of: body)
        let good = Self.offer(name: "x.card", bytes: body.count, sha: sha)
        let cases: [(String, String, [UInt8], String)] = [
            (
                "a folder with a ../ entry",
                #"{"sender":"mallory","folder":"Trip","files":[\#(good),\#(Self.offer(name: "../../evil.card", bytes: body.count, sha: sha))]}"#,
                body + body, "not a path of plain file names"
            ),
            (
                "several files, the second truncated",
                #"{"sender":"mallory","files":[\#(good),\#(Self.offer(name: "y.card", bytes: body.count + 100, sha: sha))]}"#,
                body + body, "ended after"
            ),
            (
                "a folder, the second entry truncated",
                #"{"sender":"mallory","folder":"Trip","files":[\#(good),\#(Self.offer(name: "y.card", bytes: body.count + 100, sha: sha))]}"#,
                body + body, "ended after"
            ),
            ("zero files", #"{"sender":"mallory","files":[]}"#, [], "zero files"),
        ]
        for (what, header, bytes, expected) in cases {
            let receipt = try await Self.hostile(root, header: header, body: bytes)
            #expect(receipt.outcome == "refused", "\(what)")
            #expect(receipt.reason.contains(expected), "\(what): \(receipt.reason)")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: root.deletingLastPathComponent().appendingPathComponent("evil.card").path))
    }
}
