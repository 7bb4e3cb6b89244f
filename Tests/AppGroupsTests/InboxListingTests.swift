import AppGroups
import Foundation
import Testing

/// The pieces `app inbox` lists 100 000 entries with: paths kept as text, URLs built on demand,
/// dates formatted by hand, records decoded in place — each equal to what it replaced.
struct InboxListingTests {
    @Test func containerPathsKeepTheirTextAndComponents() throws {
        let path = try ContainerPath("Inbox/dir/résumé ✓.txt")
        #expect(path.description == "Inbox/dir/résumé ✓.txt")
        #expect(path.components == ["Inbox", "dir", "résumé ✓.txt"])
        #expect(path.lastComponent == "résumé ✓.txt")
        #expect(path.parent == (try ContainerPath("Inbox/dir")))
        #expect(try ContainerPath("one").parent == nil)
        #expect(try path.appending("more").description == "Inbox/dir/résumé ✓.txt/more")
        #expect(throws: AppGroupError.self) { try path.appending("a/b") }
        #expect(path.appending(path: try ContainerPath("x/y")).components.count == 5)
        // Dots are refused only as whole components.
        for valid in ["...", ".hidden", "a./..b", "a/.../b"] { #expect(try ContainerPath(valid).description == valid) }
        let long = String(repeating: "x", count: 256)
        #expect(throws: AppGroupError.self) { try ContainerPath("a/\(long)/b") }
        #expect(try ContainerPath("a/\(long.dropLast())").components.count == 2)
    }

    @Test(arguments: [
        0, 0.5, 59.999, 86_399.9999, 951_782_400, 951_868_799.75, 1_709_164_800, 1_733_562_821.123,
        4_102_444_800, 253_402_300_799.5, -1, -0.25, -62_135_596_800, 253_402_300_800, 1e15,
    ])
    func theHandWrittenDateIsFoundationsText(time: Double) {
        let date = Date(timeIntervalSince1970: time)
        #expect(ContainerReports.iso8601(date) == date.formatted(.iso8601), "\(time)")
        var bytes: [UInt8] = [1]
        let inRange = ContainerReports.iso8601(date, into: &bytes)
        #expect(inRange == (time >= 0 && time < 253_402_300_800))
        #expect(bytes == [1] + (inRange ? Array(date.formatted(.iso8601).utf8) : []))
    }

    @Test func everySecondOfTwoCenturiesFormatsAsFoundationDoes() {
        // A deterministic spread over 1970–2170, with fractions of a second.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let date = Date(timeIntervalSince1970: Double((state >> 8) % 6_311_390_400_000) / 1000)
            #expect(ContainerReports.iso8601(date) == date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func theChecksumFoldingEightBytesAtATimeIsTheBitwiseCRC() {
        // The reference: CRC-32C one bit at a time, straight from the polynomial.
        func bitwise(_ bytes: [UInt8], continuing previous: UInt32) -> UInt32 {
            var crc = ~previous
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return ~crc
        }
        var state: UInt64 = 42
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4099] {
            let bytes = (0..<length).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            for previous: UInt32 in [0, 0xDEAD_BEEF] {
                let folded = bytes.withUnsafeBytes { CRC32C.checksum($0, continuing: previous) }
                #expect(folded == bitwise(bytes, continuing: previous), "\(length)")
            }
            // Unaligned starts too.
            if length > 3 {
                let tail = Array(bytes[3...])
                let folded = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[3...])) }
                #expect(folded == bitwise(tail, continuing: 0), "\(length) from 3")
            }
        }
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func inboxItemsBuildTheirURLFromTheirPath() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let names = ["résumé ✓.txt", "a \"quoted\" \\ name", "emoji 🧾 #1 ?x=%20"]
        for (index, name) in names.enumerated() {
            _ = try store.commit(name: name, typeIdentifier: "public.data", bytes: [UInt8(index)])
        }
        let inbox = try AppGroupInbox(group: try scratch.groupID(), app: try scratch.appIdentity(), root: scratch.root)
        var streamed: [InboxItem] = []
        try inbox.forEachPending { streamed.append($0) }
        let paged = try inbox.pending()
        #expect(streamed == paged && paged.map(\.entry.name) == names)
        for (index, item) in paged.enumerated() {
            #expect(item.url == store.url(for: item.entry))
            #expect(item.url.path == item.path && item.path == store.url(for: item.entry).path)
            #expect(try Data(contentsOf: item.url) == Data([UInt8(index)]))
        }
    }
}
