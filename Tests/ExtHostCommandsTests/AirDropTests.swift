import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
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
    static func report(_ out: String) throws -> AirDropCommand.Report {
        try JSONDecoder().decode(AirDropCommand.Report.self, from: Data(out.utf8))
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
            ["airdrop", Self.card.path, "--from", sender.path, "--to", receiver.path, "--accept", "--json"])
        #expect(code == .success, "\(err)")
        let report = try Self.report(out)
        #expect(report.sender == sender.path && report.receiver == receiver.path)
        let receipt = report.receipt
        #expect(receipt.outcome == "accepted")
        #expect(receipt.flow == "downloads", "iOS 18 saves to Downloads, then Move to App…")
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
        #expect(receipt.typeIdentifier?.hasPrefix("dyn.") == true, "typed by its extension")
        #expect(receipt.path == "Downloads/alice.card", "Save to Files")
    }

    // MARK: - Hostile peers

    /// Starts a receiver process on `root`, sends `header` and `body` to it, returns its receipt.
    static func hostile(_ root: URL, header: String, body: [UInt8]) throws -> AirDropReceipt {
        let portFile = root.appendingPathComponent("port")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Executables.exthost())
        process.arguments = [AirDropCommand.receiveName, "--root", root.path, "--port-file", portFile.path, "--accept"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { try? FileManager.default.removeItem(at: portFile) }
        let port = try AirDropCommand.waitForPort(portFile, receiver: process)
        let socket = try TCPListener.connect(port: port)
        AirDropCommand.writeAll(socket, header + "\n")
        body.withUnsafeBytes { AirDropCommand.writeAll(socket, $0) }
        shutdown(socket, Int32(SHUT_WR))
        let line = AirDropCommand.readLine(socket) ?? Data()
        close(socket)
        process.waitUntilExit()
        return try JSONDecoder().decode(AirDropReceipt.self, from: line)
    }

    static func offer(name: String, bytes: Int, sha: String) -> String {
        #"{"sender":"mallory","name":"\#(name)","typeIdentifier":"com.example.carddrop.card","bytes":\#(bytes),"sha256":"\#(sha)"}"#
    }

    @Test func hostilePeersAreRefusedWithNothingLeftBehind() throws {
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
            let receipt = try Self.hostile(root, header: header, body: bytes)
            #expect(receipt.outcome == "refused", "\(what)")
            #expect(receipt.reason.contains(expected), "\(what): \(receipt)")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: root.deletingLastPathComponent().appendingPathComponent("evil.card").path))
    }

    // MARK: - More lies (issue 29)

    /// A receiver process on `root` (accepting, refusing a stall after `stallLimit` seconds) and a
    /// socket connected to it.
    static func connectedReceiver(_ root: URL, stallLimit: String = "30") throws -> (Process, Int32) {
        let portFile = root.appendingPathComponent("port-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Executables.exthost())
        process.arguments = [
            AirDropCommand.receiveName, "--root", root.path, "--port-file", portFile.path, "--accept",
            "--stall-limit", stallLimit,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { try? FileManager.default.removeItem(at: portFile) }
        let port = try AirDropCommand.waitForPort(portFile, receiver: process)
        return (process, try TCPListener.connect(port: port))
    }

    /// The receipt the receiver sends back on `socket`, after which it is closed.
    static func receipt(_ socket: Int32, _ process: Process) throws -> AirDropReceipt {
        let line = AirDropCommand.readLine(socket) ?? Data()
        close(socket)
        process.waitUntilExit()
        return try JSONDecoder().decode(AirDropReceipt.self, from: line)
    }

    @Test func namesThatAreNoFileNamesAndSizesBeyondFreeSpaceAreRefusedBeforeAnyByte() throws {
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
            let receipt = try Self.hostile(root, header: header, body: body)
            print("airdrop lie: \(what) → \(receipt.outcome): \(receipt.reason)")
            #expect(receipt.outcome == "refused", "\(what)")
            #expect(receipt.reason.contains(expected), "\(what): \(receipt)")
            #expect(receipt.bytes == 0, "\(what): \(receipt.bytes) bytes read")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
    }

    @Test func aSenderThatStallsMidTransferIsRefusedAtTheTimeLimit() throws {
        let root = try TestSupport.scratchRoot("airdrop-stall")
        defer { try? FileManager.default.removeItem(at: root) }
        let body = [UInt8](repeating: 0x41, count: 100_000)
        let (process, socket) = try Self.connectedReceiver(root, stallLimit: "0.5")
        AirDropCommand.writeAll(
            socket, Self.offer(name: "slow.card", bytes: body.count, sha: SHA256.hex(of: body)) + "\n")
        body[0..<40_000].withUnsafeBytes { AirDropCommand.writeAll(socket, $0) }
        // …and nothing more, the connection left open: the receiver's limit, not end of file, ends it.
        let receipt = try Self.receipt(socket, process)
        print("airdrop lie: a stalled sender → \(receipt.outcome): \(receipt.reason)")
        #expect(receipt.outcome == "refused")
        #expect(receipt.reason.contains("stalled after 40000 of 100000 bytes"), "\(receipt)")
        #expect(process.terminationStatus == 1)
        #expect(Self.leftovers(root).isEmpty, "left \(Self.leftovers(root))")
    }

    @Test func twoTransfersOfOneNameAtOnceBothLandUnderTwoNames() throws {
        let root = try TestSupport.scratchRoot("airdrop-twice")
        defer { try? FileManager.default.removeItem(at: root) }
        let bodies = [Array("first card\n".utf8), Array("second, longer card\n".utf8)]
        let peers = try bodies.map { _ in try Self.connectedReceiver(root) }
        // Both announce the same name and send half, then both finish.
        for (body, (_, socket)) in zip(bodies, peers) {
            let offer = AirDropOffer(
                sender: "mallory", name: "same.txt", typeIdentifier: "public.plain-text", bytes: body.count,
                sha256: SHA256.hex(of: body))
            let header = String(decoding: try JSONEncoder().encode(offer), as: UTF8.self)
            AirDropCommand.writeAll(socket, header + "\n")
            body[0..<5].withUnsafeBytes { AirDropCommand.writeAll(socket, $0) }
        }
        for (body, (_, socket)) in zip(bodies, peers) {
            body[5...].withUnsafeBytes { AirDropCommand.writeAll(socket, $0) }
            shutdown(socket, Int32(SHUT_WR))
        }
        let receipts = try peers.map { try Self.receipt($0.1, $0.0) }
        for receipt in receipts { print("airdrop: same name at once → \(receipt.outcome): \(receipt.path ?? "-")") }
        // No installed app opens plain text: each is kept in Downloads (Save to Files), under its own name.
        #expect(receipts.allSatisfy { $0.outcome == "requires-app" }, "\(receipts)")
        let paths = receipts.compactMap(\.path)
        #expect(Set(paths).count == 2, "\(paths)")
        let contents = Set(paths.compactMap { try? Data(contentsOf: root.appendingPathComponent($0)) }.map(Array.init))
        #expect(contents == Set(bodies), "the two files are not the two transfers")
        #expect(!Self.leftovers(root).contains { $0.hasPrefix("tmp/") }, "left \(Self.leftovers(root))")
    }
}
