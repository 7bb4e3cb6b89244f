import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HeadlessScreens
import HostSystem

/// `exthost share`'s report as text and as JSON (the keys of ``ExtensionHost/ShareReport``).
struct ShareReportRendering {
    var report: ShareReport

    /// The JSON report, from ``ExtensionHost/ShareReport``'s `Codable` conformance (its keys in
    /// declaration order): the keys before `attachments` and the keys after it, so that
    /// `exthost share --json` streams the attachments between them.
    func jsonParts() throws -> (leading: [(String, JSONValue)], trailing: [(String, JSONValue)]) {
        var withoutAttachments = report
        withoutAttachments.attachments = []
        guard case .object(let pairs) = try JSONValue(encoding: withoutAttachments),
            let split = pairs.firstIndex(where: { $0.0 == "attachments" })
        else { return ([], []) }
        return (Array(pairs[..<split]), Array(pairs[(split + 1)...]))
    }

    /// The extension's screens as a page: the sheet when it appeared, each step, the end (nil when
    /// the extension showed none).
    var screensPage: String? {
        guard let ui = report.userInterface, let initial = ui.initialScreen ?? ui.finalScreen else { return nil }
        var entries = [ScreenPage.Entry(caption: "1 · the sheet appeared", screen: initial)]
        for (offset, step) in ui.steps.enumerated() {
            let outcome = step.outcome == .performed ? "" : " (\(step.outcome.rawValue))"
            entries.append(
                ScreenPage.Entry(
                    caption: "\(offset + 2) · \(step.step)\(outcome)", screen: step.screen, note: step.note))
        }
        if let final = ui.finalScreen, final != entries.last?.screen {
            entries.append(ScreenPage.Entry(caption: "\(entries.count + 1) · the end", screen: final))
        }
        return ScreenPage.render(
            title: report.extension?.bundleIdentifier ?? report.principal?.className ?? "extension", entries: entries,
            lifeCycle: ui.lifeCycle, diagnostics: ui.diagnostics)
    }

    var text: String {
        var lines: [String] = []
        guard let run = report.extension else { return "\(report.payload): the extension did not run" }
        lines.append(
            "\(report.payload) → \(run.bundleIdentifier): \(run.outcome) — \(run.reason) (pid \(run.pid), \(run.exitStatus))"
        )
        if let standIn = run.standIn { lines.append("  bundle: \(standIn)") }
        if let principal = report.principal {
            let storyboard = principal.storyboard.map { " \($0)" } ?? ""
            lines.append(
                "  principal: \(principal.className) (\(principal.kind.rawValue), from \(principal.source.rawValue)"
                    + "\(storyboard), made with \(principal.initializer))")
        }
        let sandbox = run.sandbox
        if sandbox.status != nil {
            var parts = [
                sandbox.enforced
                    ? "Landlock ABI \(sandbox.landlockABI) enforced" : "NOT ENFORCED (\(sandbox.status ?? "unknown"))"
            ]
            if sandbox.networkDenied { parts.append("TCP denied") }
            if !sandbox.scopes.isEmpty { parts.append("scopes \(sandbox.scopes.joined(separator: ","))") }
            if sandbox.noNewPrivileges { parts.append("no_new_privs") }
            if let capabilities = sandbox.capabilities { parts.append("capabilities \(capabilities)") }
            if sandbox.scopeEnforcement != "not-needed" {
                parts.append(
                    sandbox.scopeEnforcement == "kernel"
                        ? "security scopes enforced by the kernel"
                        : "security scopes NOT enforced by the kernel (API only)")
            }
            lines.append("  sandbox: " + parts.joined(separator: ", "))
        } else {
            lines.append("  sandbox: no report from the launcher")
        }
        lines.append(
            "  memory: peak footprint \(run.peakMemoryBytes.byteDescription) of \(run.limits.memoryBytes.byteDescription)"
                + " (peak resident \(run.peakResidentBytes.byteDescription); enforced by "
                + (run.limits.memoryEnforcement == "watchdog"
                    ? "the watchdog alone" : "the watchdog and \(run.limits.memoryEnforcement)") + ")")
        lines.append("  attachments:")
        let rows = report.attachments
        let nameWidth = min(40, rows.map(\.name.count).max() ?? 0)
        let typeWidth = min(40, rows.map { ($0.type ?? "-").count }.max() ?? 0)
        let kindWidth = rows.map { ($0.kind ?? "-").count }.max() ?? 0
        for row in rows {
            let head =
                "    \(row.name.padded(nameWidth))  \((row.type ?? "-").padded(typeWidth))  "
                + (row.kind ?? "-").padded(kindWidth)
            if let error = row.error {
                lines.append("\(head)  FAILED: \(error)")
            } else {
                let size = row.bytes.byteDescription.padded(10)
                let time = String(format: "%.1f ms", row.milliseconds).padded(9)
                lines.append("\(head)  \(size)  \(time)  → \(row.destination ?? "-")")
            }
        }
        if !report.grantedReadOnly.isEmpty {
            lines.append(
                "  granted read-only (file URLs it was handed): " + report.grantedReadOnly.joined(separator: ", "))
        }
        let committed = report.committed
        lines.append(
            "  group \(report.group ?? "-"): \(report.container ?? "-") (\(committed) entr\(committed == 1 ? "y" : "ies") committed)"
        )
        func shown(_ value: Double?, _ digits: Int = 1) -> String {
            value.map { String(format: "%.\(digits)f ms", $0) } ?? "-"
        }
        let timings = report.timings
        lines.append(
            "  timings: rule \(shown(timings.ruleMilliseconds, 2)), extension hello \(shown(timings.helloMilliseconds)), "
                + "request done \(shown(timings.finishedMilliseconds)), total \(shown(timings.totalMilliseconds))")
        if let ui = report.userInterface {
            lines.append("  life cycle: " + ui.lifeCycle.map(\.description).joined(separator: ", "))
            if let text = ui.initialScreenText {
                lines.append("  the sheet appeared:")
                for line in text.split(separator: "\n") { lines.append("    \(line)") }
            }
            for step in ui.steps {
                lines.append(
                    "  step \(step.step) — \(step.outcome.rawValue)\(step.note.isEmpty ? "" : ": \(step.note)")")
                for line in step.screenText.split(separator: "\n") { lines.append("    \(line)") }
            }
            for diagnostic in ui.diagnostics { lines.append("  UI: \(diagnostic)") }
        }
        for handOff in report.handOff {
            let outcome: String
            if let delivery = handOff.delivery, let app = handOff.app {
                outcome =
                    handOff.received
                    ? "\(app) received it \(handOff.start ?? "") through \(delivery.method.rawValue)"
                    : "\(app) never received it: \(delivery.detail)"
            } else {
                outcome = "no app received it"
            }
            lines.append(
                "  hand-over: \(handOff.requested) \(handOff.url) → told \(handOff.opened ? "opened" : "not opened"); "
                    + outcome)
            lines.append("    iOS \(handOff.iosVersion): \(handOff.ios)")
            if let output = handOff.appOutput?.trimmingCharacters(in: .newlines), !output.isEmpty {
                lines.append("    the app printed:")
                for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append("    | \(line)")
                }
            }
        }
        if !report.mistakes.isEmpty {
            lines.append("  mistakes a device would punish:")
            for mistake in report.mistakes { lines.append("    \(mistake)") }
        }
        if !report.refusals.isEmpty {
            lines.append("  refused by the host:")
            for refusal in report.refusals { lines.append("    \(refusal)") }
        }
        if !report.messages.isEmpty {
            lines.append("  messages:")
            for message in report.messages { lines.append("    \(message)") }
        }
        if !report.log.isEmpty {
            lines.append("  log:")
            for line in report.log.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                lines.append("    | \(line)")
            }
            if report.logDroppedBytes > 0 { lines.append("    | … \(report.logDroppedBytes) more bytes dropped") }
        }
        return lines.joined(separator: "\n")
    }
}
