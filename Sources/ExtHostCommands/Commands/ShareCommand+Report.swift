import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem

/// The report of one `exthost share`, as text and as JSON.
struct ShareReport {
    var setup: ShareCommand.Setup
    var payload: String
    var context: ContextDescription
    var report: ExtensionReport
    var groupURL: URL
    var containerURL: URL
    var committed: [JournalEntry]
    var ruleTime: Duration
    var total: Duration

    struct Attachment {
        var name: String
        var type: String?
        var kind: String?
        var bytes: Int64
        var milliseconds: Double
        var destination: String?
        var error: String?
    }

    var attachments: [Attachment] {
        let described = context.items.flatMap(\.attachments)
        // By index: a linear search per attachment made 100 000 attachments take 5·10⁹ comparisons.
        let outcomes = Dictionary(
            (report.completion?.outcomes ?? []).map { ($0.attachment, $0) }, uniquingKeysWith: { first, _ in first })
        return described.map { attachment in
            let name = attachment.suggestedName ?? "attachment \(attachment.index)"
            guard let outcome = outcomes[attachment.index] else {
                let why = report.outcome == .completed ? "not handled by the extension" : "not saved: \(report.reason)"
                return Attachment(name: name, bytes: 0, milliseconds: 0, error: why)
            }
            return Attachment(
                name: name, type: outcome.typeIdentifier, kind: outcome.kind?.rawValue, bytes: outcome.byteCount,
                milliseconds: outcome.milliseconds, destination: outcome.destination,
                error: outcome.error.map { "\($0.message) (\($0.domain) \($0.code))" })
        }
    }

    static func milliseconds(_ duration: Duration?) -> Double? {
        guard let duration else { return nil }
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (value * 1000).rounded() / 1000
    }

    /// The JSON report is `leading`, then `attachments` (each ``attachmentJSON(_:)``), then
    /// `trailing`; `exthost share --json` streams the attachments between them.
    var leading: [(String, JSONValue)] {
        let sandbox = report.sandbox
        let limits = report.limits
        return [
            ("activated", .bool(true)),
            ("payload", .string(payload)),
            ("rule", .string(setup.ruleURL.path)),
            (
                "extension",
                .object([
                    ("bundleIdentifier", .string(setup.identity.bundleIdentifier)),
                    ("executable", .string(setup.executable)),
                    ("pid", .int(Int(report.pid))),
                    ("outcome", .string(report.outcome.rawValue)),
                    ("reason", .string(report.reason)),
                    ("exitStatus", .string("\(report.status)")),
                    ("peakMemoryBytes", .int(report.peakMemoryBytes)),
                    ("peakResidentBytes", .int(report.peakResidentBytes)),
                    ("activity", .optional(report.activity)),
                    (
                        "limits",
                        .object([
                            ("memoryBytes", .int(limits.memoryBytes)),
                            ("timeoutSeconds", Self.milliseconds(limits.timeout).map { .double($0 / 1000) } ?? .null),
                            ("openFiles", .int(limits.openFiles)), ("processes", .int(limits.processes)),
                        ])
                    ),
                    (
                        "sandbox",
                        .object([
                            ("enforced", .bool(sandbox?.isEnforced ?? false)),
                            ("status", .optional(sandbox?.status.rawValue)),
                            ("landlockABI", .int(sandbox?.landlockABI ?? 0)),
                            ("networkDenied", .bool(sandbox?.networkDenied ?? false)),
                            ("scopes", .strings(sandbox?.scopes ?? [])),
                            ("noNewPrivileges", .bool(sandbox?.noNewPrivileges ?? false)),
                            ("capabilities", .optional(sandbox?.capabilities)),
                        ])
                    ),
                ])
            ),
        ]
    }

    static func attachmentJSON(_ attachment: Attachment) -> JSONValue {
        .object([
            ("name", .string(attachment.name)), ("type", .optional(attachment.type)),
            ("kind", .optional(attachment.kind)), ("bytes", .int(Int(attachment.bytes))),
            ("milliseconds", .double((attachment.milliseconds * 1000).rounded() / 1000)),
            ("destination", .optional(attachment.destination)), ("error", .optional(attachment.error)),
        ])
    }

    var trailing: [(String, JSONValue)] {
        [
            ("group", .string(setup.group.rawValue)),
            ("container", .string(groupURL.path)),
            ("extensionContainer", .string(containerURL.path)),
            ("committed", .int(committed.count)),
            ("refusals", .strings(report.refusals)),
            (
                "timings",
                .object([
                    ("ruleMilliseconds", Self.milliseconds(ruleTime).map(JSONValue.double) ?? .null),
                    ("helloMilliseconds", Self.milliseconds(report.timings.hello).map(JSONValue.double) ?? .null),
                    ("finishedMilliseconds", Self.milliseconds(report.timings.finished).map(JSONValue.double) ?? .null),
                    ("extensionMilliseconds", Self.milliseconds(report.timings.total).map(JSONValue.double) ?? .null),
                    ("totalMilliseconds", Self.milliseconds(total).map(JSONValue.double) ?? .null),
                ])
            ),
            ("messages", .strings(report.messages.map { "\($0.level.rawValue): \($0.text)" })),
            ("log", .string(report.log)),
            ("logDroppedBytes", .int(report.logDroppedBytes)),
        ]
    }

    var text: String {
        var lines: [String] = []
        lines.append(
            "\(payload) → \(setup.identity.bundleIdentifier): \(report.outcome.rawValue) — \(report.reason) (pid \(report.pid), \(report.status))"
        )
        if let sandbox = report.sandbox {
            var parts = [
                sandbox.isEnforced
                    ? "Landlock ABI \(sandbox.landlockABI) enforced" : "NOT ENFORCED (\(sandbox.status.rawValue))"
            ]
            if sandbox.networkDenied { parts.append("TCP denied") }
            if !sandbox.scopes.isEmpty { parts.append("scopes \(sandbox.scopes.joined(separator: ","))") }
            if sandbox.noNewPrivileges { parts.append("no_new_privs") }
            if let capabilities = sandbox.capabilities { parts.append("capabilities \(capabilities)") }
            lines.append("  sandbox: " + parts.joined(separator: ", "))
        } else {
            lines.append("  sandbox: no report from the launcher")
        }
        lines.append(
            "  memory: peak footprint \(report.peakMemoryBytes.byteDescription) of \(report.limits.memoryBytes.byteDescription)"
                + " (peak resident \(report.peakResidentBytes.byteDescription))")
        lines.append("  attachments:")
        let rows = attachments
        func padded(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        let nameWidth = min(40, rows.map(\.name.count).max() ?? 0)
        let typeWidth = min(40, rows.map { ($0.type ?? "-").count }.max() ?? 0)
        let kindWidth = rows.map { ($0.kind ?? "-").count }.max() ?? 0
        for row in rows {
            let head =
                "    \(padded(row.name, nameWidth))  \(padded(row.type ?? "-", typeWidth))  "
                + padded(row.kind ?? "-", kindWidth)
            if let error = row.error {
                lines.append("\(head)  FAILED: \(error)")
            } else {
                let size = padded(Int(row.bytes).byteDescription, 10)
                let time = padded(String(format: "%.1f ms", row.milliseconds), 9)
                lines.append("\(head)  \(size)  \(time)  → \(row.destination ?? "-")")
            }
        }
        lines.append(
            "  group \(setup.group): \(groupURL.path) (\(committed.count) entr\(committed.count == 1 ? "y" : "ies") committed)"
        )
        let hello = Self.milliseconds(report.timings.hello).map { String(format: "%.1f ms", $0) } ?? "-"
        let finished = Self.milliseconds(report.timings.finished).map { String(format: "%.1f ms", $0) } ?? "-"
        let whole = Self.milliseconds(total).map { String(format: "%.1f ms", $0) } ?? "-"
        let rule = Self.milliseconds(ruleTime).map { String(format: "%.2f ms", $0) } ?? "-"
        lines.append("  timings: rule \(rule), extension hello \(hello), request done \(finished), total \(whole)")
        if !report.refusals.isEmpty {
            lines.append("  refused by the host:")
            for refusal in report.refusals { lines.append("    \(refusal)") }
        }
        if !report.messages.isEmpty {
            lines.append("  messages:")
            for message in report.messages { lines.append("    \(message.level.rawValue): \(message.text)") }
        }
        let log = report.log.split(separator: "\n", omittingEmptySubsequences: false)
        if !report.log.isEmpty {
            lines.append("  log:")
            for line in log where !line.isEmpty { lines.append("    | \(line)") }
            if report.logDroppedBytes > 0 { lines.append("    | … \(report.logDroppedBytes) more bytes dropped") }
        }
        return lines.joined(separator: "\n")
    }
}
