import AppGroups
import Archives
import Foundation
import Testing

struct ArchiveTransferTests {
    struct Hostile: Sendable, CustomStringConvertible {
        var description: String
        var code: AppGroupError.Code
        var limits: ExtractionLimits = .default
        var build: @Sendable (ArchiveWriter) throws -> Void
    }

    static let hostile: [Hostile] = [
        Hostile(description: "traversal", code: .escapesContainer) { try $0.addData([1], as: "../evil.txt") },
        Hostile(description: "absolute path", code: .escapesContainer) {
            try $0.addData([1], as: "/tmp/exthost-evil.txt")
        },
        Hostile(description: "escaping link", code: .escapesContainer) {
            try $0.addEntry(ArchiveEntry(path: "out", kind: .symbolicLink, linkTarget: "/etc"))
        },
        Hostile(description: "link inside the archive", code: .escapesContainer) {
            try $0.addData([1], as: "real.txt")
            try $0.addEntry(ArchiveEntry(path: "alias.txt", kind: .symbolicLink, linkTarget: "real.txt"))
        },
        Hostile(description: "size bomb", code: .tooLarge, limits: ExtractionLimits(maximumTotalSize: 1 << 20)) {
            try $0.addData([UInt8](repeating: 7, count: 2 << 20), as: "big.bin")
        },
        Hostile(
            description: "ratio bomb", code: .tooLarge,
            limits: ExtractionLimits(maximumCompressionRatio: 20, compressionRatioThreshold: 1 << 20)
        ) { try $0.addData([UInt8](repeating: 0, count: 8 << 20), as: "zeros.bin") },
        Hostile(description: "manifest checksum mismatch", code: .corrupt) {
            let manifest = """
                {"format":1,"group":"group.com.example.carddrop","entries":[{"path":"Inbox/a","name":"a",\
                "type":"public.data","size":1,"sha256":"\(String(repeating: "0", count: 64))","source":"x",\
                "committedAt":"2026-01-01T00:00:00Z"}]}
                """
            try $0.addData(Array(manifest.utf8), as: "exthost-export.json")
            try $0.addData([1], as: "Inbox/a")
        },
    ]

    @Test(arguments: ["tar", "tar.gz", "zip"])
    func exportThenImportRoundTripsByteForByte(format: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let group = try scratch.groupID()
        let store = try AppGroupStore.open(group, as: try scratch.extensionIdentity(), root: scratch.root)
        let payloads: [(String, [UInt8])] = [
            ("note.txt", Array("hello".utf8)), ("empty.bin", []),
            ("random.bin", (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
            ("note.txt", Array("second with the same name".utf8)),
        ]
        for (name, bytes) in payloads { try store.commit(name: name, typeIdentifier: "public.data", bytes: bytes) }
        let archive = scratch.url.appendingPathComponent("out.\(format)")
        #expect(try store.exportEntries(to: archive).count == 4)

        let other = try Scratch()
        defer { other.remove() }
        let target = try AppGroupStore.open(group, as: try other.appIdentity(), root: other.root)
        let imported = try target.importEntries(fromArchiveAt: archive)
        #expect(imported.map(\.name) == payloads.map(\.0))
        for (entry, payload) in zip(imported, payloads) {
            #expect(try Array(Data(contentsOf: target.url(for: entry))) == payload.1)
        }
        #expect(imported.map(\.sha256) == (try store.entries()).map(\.sha256))
        #expect(try target.verify().isClean)
    }

    @Test(arguments: hostile)
    func importRefusesHostileArchivesAndCommitsNothing(_ case: Hostile) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let store = try AppGroupStore.open(
            try scratch.groupID(), as: try scratch.extensionIdentity(), root: scratch.root)
        let archive = scratch.url.appendingPathComponent("hostile.tar.gz")
        let writer = try ArchiveWriter(url: archive)
        try `case`.build(writer)
        try writer.finish()
        let error = try #require(throws: AppGroupError.self) {
            try store.importEntries(fromArchiveAt: archive, limits: `case`.limits)
        }
        #expect(error.code == `case`.code, "\(error)")
        #expect(try store.entries().isEmpty)
        #expect(try store.verify().isClean)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/exthost-evil.txt"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("evil.txt").path))
    }
}
