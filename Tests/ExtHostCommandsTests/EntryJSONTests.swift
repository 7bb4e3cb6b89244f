import AppGroups
import Foundation
import Testing

@testable import ExtHostCommands

/// `app inbox --json` writes each entry directly; the text must be what the entry's `Codable`
/// encoding renders.
struct EntryJSONTests {
    static func entries() throws -> [JournalEntry] {
        let texts = [
            ("note.txt", "Inbox/0a1b2c3d-note.txt", "public.plain-text", "com.example.carddrop.Share"),
            ("résumé ✓ 🧾.pdf", "Inbox/dir/résumé ✓ 🧾.pdf", "com.adobe.pdf", "com.example.ünïcode"),
            ("a \"quoted\" \\ name\twith\ncontrols\u{1}\u{1f}", "Inbox/q", "public.data", "s\"rc\\"),
            ("", "x", "", ""),
            ("日本語のファイル名", "Inbox/%20?#;", "public.jpeg", "com.example.日本"),
        ]
        return try texts.enumerated().map { index, text in
            JournalEntry(
                sequence: [1, 42, 99_999, Int(Int32.max) + 5, 1_000_000_007][index], id: UUID(),
                name: text.0, path: try ContainerPath(text.1), typeIdentifier: text.2,
                size: [0, 6, Int64.max, Int64.min, -12][index], sha256: String(repeating: "0f", count: 32),
                committedAt: Date(
                    timeIntervalSince1970: [1_733_562_821.75, 0, 951_868_799.999, 4_102_444_800, -5][index]),
                source: text.3)
        }
    }

    static let filePaths: [String?] = [
        "/tmp/root/Shared/AppGroup/X/Inbox/0a1b2c3d-note.txt", "/tmp/root/ü/Inbox/dir/résumé ✓ 🧾.pdf",
        "/tmp/a \"b\"\\c/Inbox/q", nil, "/tmp/日本/Inbox/%20?#;",
    ]

    @Test func theDirectWriterPrintsWhatTheCodableEncodingPrints() throws {
        let entries = try Self.entries()
        let pairs: [(String, JSONValue)] = [("group", .string("group.com.example")), ("app", .string("com.example"))]
        var encoded = ""
        try JSONValue.streamObject(
            pairs, array: "items",
            elements: { emit in
                for (entry, path) in zip(entries, Self.filePaths) {
                    try emit(
                        JSONValue(encoding: ContainerReports.Entry(entry, url: path.map { URL(fileURLWithPath: $0) })))
                }
            }
        ) { encoded += $0 }
        var bytes: [UInt8] = []
        try JSONValue.streamObject(
            pairs, array: "items",
            writing: { emit in
                for (entry, path) in zip(entries, Self.filePaths) {
                    try emit { ContainerReports.Entry.writeJSON(entry, filePath: path, indent: 2, into: &$0) }
                }
            }
        ) { bytes += $0 }
        let written = String(decoding: bytes, as: UTF8.self)
        #expect(written == encoded)
        #expect(written.contains("\"url\": null") && written.contains("résumé ✓ 🧾.pdf"))
        let decoded = try JSONDecoder().decode(ContainerReports.Inbox.self, from: Data(written.utf8))
        #expect(decoded.items.map(\.name) == entries.map(\.name))
    }

    @Test(arguments: 0..<4)
    func atAnyDepthTheEntryIsItsRenderedEncoding(indent: Int) throws {
        let entries = try Self.entries()
        for (entry, path) in zip(entries, Self.filePaths) {
            var bytes: [UInt8] = []
            ContainerReports.Entry.writeJSON(entry, filePath: path, indent: indent, into: &bytes)
            let written = String(decoding: bytes, as: UTF8.self)
            let value = try JSONValue(
                encoding: ContainerReports.Entry(entry, url: path.map { URL(fileURLWithPath: $0) }))
            // The value rendered inside `indent` levels of arrays is the entry at that depth.
            var nested = value
            for _ in 0..<indent { nested = .array([nested]) }
            let rendered = nested.rendered()
            let pad = String(repeating: "  ", count: indent)
            #expect(indent == 0 ? rendered == written : rendered.contains("\n\(pad)\(written)\n"), "\(indent)")
        }
    }

    @Test func anEmptyListingMatchesToo() {
        var encoded = ""
        JSONValue.streamObject([], array: "items", elements: { _ in }) { encoded += $0 }
        var bytes: [UInt8] = []
        JSONValue.streamObject([], array: "items", writing: { _ in }) { bytes += $0 }
        let written = String(decoding: bytes, as: UTF8.self)
        #expect(written == encoded && written == "{\n  \"items\": []\n}")
    }
}
