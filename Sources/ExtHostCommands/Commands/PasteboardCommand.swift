import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation

/// `exthost pasteboard show`: what the device's general pasteboard holds (what Copy and the
/// `UIPasteboard.general` of apps and extensions wrote).
enum PasteboardCommand {
    static var all: [CommandSpec] { [show] }

    /// One representation, as the report shows it.
    struct Representation: Codable {
        var type: String
        var bytes: Int
        /// The text of a text or URL representation (UTF-8).
        var text: String?
        /// The bytes of any other representation, base64.
        var base64: String?
    }

    /// The report.
    struct Report: Codable {
        var path: String
        var changeCount: Int
        var writer: String?
        var expirationDate: String?
        var expired: Bool
        var localOnly: Bool
        var items: [[Representation]]
    }

    static let textual: Set<String> = [
        "public.utf8-plain-text", "public.plain-text", "public.text", "public.url", "public.file-url", "public.html",
        "public.json",
    ]

    static let show = CommandSpec(
        ["pasteboard", "show"], summary: "Show the device's general pasteboard (UIPasteboard.general).",
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Machine output.")],
        discussion: """
            The pasteboard is a system service of the device: it lives in <root>/Pasteboard/general.json, outside
            every sandbox, and an app's or extension's UIPasteboard.general reads and writes it through exthost
            (the app channel, or the extension's connection to its host). The share sheet's Copy fills it
            (exthost sheet --perform com.apple.UIKit.activity.CopyToPasteboard). Text and URL representations are
            shown as text, others by size (--json: base64).
            """,
        examples: ["exthost pasteboard show --json"]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let pasteboard = DevicePasteboard(root: root)
        let contents = try ContainerSupport.mapped { try pasteboard.contents() }
        let expired = contents.visible().items.count != contents.items.count
        let report = Report(
            path: pasteboard.fileURL.path, changeCount: contents.changeCount, writer: contents.writer,
            expirationDate: contents.expirationDate.map { ISO8601DateFormatter().string(from: $0) },
            expired: expired, localOnly: contents.localOnly ?? false,
            items: contents.items.map { item in
                item.representations.map { representation in
                    let isText = textual.contains(representation.type)
                    return Representation(
                        type: representation.type, bytes: representation.data.count,
                        text: isText ? String(decoding: representation.data, as: UTF8.self) : nil,
                        base64: isText ? nil : representation.data.base64EncodedString())
                }
            })
        if parsed[.json] {
            try context.printJSON(encoding: report)
            return .success
        }
        let state = expired ? " (expired: readers see no items)" : ""
        context.print(
            "general pasteboard: change count \(contents.changeCount), \(contents.items.count) item"
                + "\(contents.items.count == 1 ? "" : "s")\(contents.writer.map { ", written by \($0)" } ?? "")\(state)"
        )
        for (index, item) in report.items.enumerated() {
            context.print("  item \(index + 1):")
            for representation in item {
                let value =
                    representation.text.map { "\"\($0.count > 200 ? String($0.prefix(200)) + "…" : $0)\"" }
                    ?? "\(representation.bytes) bytes"
                context.print("    \(representation.type): \(value)")
            }
        }
        return .success
    }
}
