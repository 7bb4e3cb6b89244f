import AppGroups
import Foundation
import ShareSheet
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

    static func json(_ out: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
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
        let report = try Self.json(out)
        #expect(report["outcome"] as? String == "accepted")
        #expect(report["flow"] as? String == "downloads", "iOS 18 saves to Downloads, then Move to App…")
        #expect(report["typeIdentifier"] as? String == "com.example.carddrop.card", "the exported type round-trips")
        #expect(report["app"] as? String == "com.example.carddrop")
        let path = try #require(report["path"] as? String)
        #expect(path.hasPrefix("Data/Application/") && path.hasSuffix("/Documents/Inbox/alice.card"))
        // CardDrop (the built-in app) was launched for it and moved it out of its Inbox.
        let delivery = try #require(report["delivery"] as? [String: Any])
        #expect(delivery["method"] as? String == "willConnectTo")
        let launch = try #require(delivery["app"] as? [String: Any])
        #expect(launch["start"] as? String == "cold")
        #expect((launch["delivery"] as? [String: Any])?["method"] as? String == "willConnectTo")
        let kept = receiver.appendingPathComponent(path).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Received/alice.card")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: Self.card))
        #expect(report["sha256"] as? String == SHA256.hex(of: try Data(contentsOf: Self.card)))
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
        let report = try Self.json(out)
        #expect(report["flow"] as? String == "open-with")
        #expect((report["path"] as? String)?.hasSuffix("/Documents/Inbox/alice.card") == true)
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
        let report = try Self.json(out)
        #expect(report["outcome"] as? String == "requires-app")
        #expect((report["typeIdentifier"] as? String)?.hasPrefix("dyn.") == true, "typed by its extension")
        #expect(report["path"] as? String == "Downloads/alice.card", "Save to Files")
    }

    // MARK: - Hostile peers

    /// Starts a receiver process on `root`, sends `header` and `body` to it, returns its receipt.
    static func hostile(_ root: URL, header: String, body: [UInt8]) throws -> [String: Any] {
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
        return try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
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
            #expect(receipt["outcome"] as? String == "refused", "\(what)")
            #expect((receipt["reason"] as? String ?? "").contains(expected), "\(what): \(receipt)")
            #expect(Self.leftovers(root).isEmpty, "\(what) left \(Self.leftovers(root))")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: root.deletingLastPathComponent().appendingPathComponent("evil.card").path))
    }
}
