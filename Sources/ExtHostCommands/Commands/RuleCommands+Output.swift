import ActivationRules
import Foundation

// Rendering for `exthost rule …`: the JSON report, diagnostics with their caret excerpts, the
// explanation tree and the coverage table.

extension RuleCommands {
    /// `file:line:column: severity: message [code]` and the caret excerpt, coloured on a terminal.
    static func rendered(_ diagnostic: RuleDiagnostic, _ context: CommandContext) -> String {
        guard context.usesColor else { return diagnostic.rendered }
        let color =
            diagnostic.severity == .error
            ? "\u{1B}[1;31m" : diagnostic.severity == .warning ? "\u{1B}[1;33m" : "\u{1B}[1;36m"
        let text = diagnostic.description.replacingFirst(
            "\(diagnostic.severity.rawValue):", with: "\(color)\(diagnostic.severity.rawValue):\u{1B}[0m")
        guard let excerpt = diagnostic.excerpt else { return text }
        let lines = excerpt.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2 else { return text + "\n" + excerpt }
        return text + "\n" + lines[0] + "\n\u{1B}[1;32m" + lines[1] + "\u{1B}[0m"
    }
}

/// Draws an ``Explanation`` as an indented tree.
struct TreeRenderer {
    /// Whether to use ANSI colours.
    var colors: Bool
    /// The most children shown under one node; decisive ones are always shown.
    var maxChildren = 40
    /// The longest node text shown.
    var maxText = 160

    func render(_ root: Explanation) -> String {
        var lines: [String] = []
        let deciding = root.decidingPath.count - 1
        write(root, prefix: "", childPrefix: "", depth: 0, deciding: deciding, onPath: true, into: &lines)
        return lines.joined(separator: "\n")
    }

    private func write(
        _ node: Explanation, prefix: String, childPrefix: String, depth: Int, deciding: Int, onPath: Bool,
        into lines: inout [String]
    ) {
        var text = node.text.count > maxText ? String(node.text.prefix(maxText - 1)) + "…" : node.text
        text = text.replacingOccurrences(of: "\n", with: " ")
        var line = prefix + (node.isDecisive ? "* " : "")
        line += colors && node.isDecisive ? "\u{1B}[1m\(text)\u{1B}[0m" : text
        if let value = node.value { line += " → " + paint(value) }
        if onPath, depth == deciding { line += colors ? "  \u{1B}[1;33m← decided here\u{1B}[0m" : "  ← decided here" }
        lines.append(line)
        var shown = Array(node.children.enumerated())
        var hidden = 0
        if shown.count > maxChildren {
            let kept = shown.prefix(maxChildren / 2) + shown.suffix(maxChildren / 2)
            let keptSet = Set(kept.map(\.offset))
            shown = shown.filter { keptSet.contains($0.offset) || $0.element.isDecisive }
            hidden = node.children.count - shown.count
        }
        let pathChild = node.children.firstIndex(where: \.isDecisive)
        for (position, entry) in shown.enumerated() {
            let last = position == shown.count - 1 && hidden == 0
            if hidden > 0, position == shown.count / 2 {
                lines.append(childPrefix + "├─ … \(hidden) more")
            }
            write(
                entry.element, prefix: childPrefix + (last ? "└─ " : "├─ "),
                childPrefix: childPrefix + (last ? "   " : "│  "),
                depth: depth + 1, deciding: deciding, onPath: onPath && entry.offset == pathChild, into: &lines)
        }
    }

    private func paint(_ value: String) -> String {
        guard colors else { return value }
        switch value {
        case "true", "activates", "accepted": return "\u{1B}[32m\(value)\u{1B}[0m"
        case "false", "does not activate", "rejected", "not accepted": return "\u{1B}[31m\(value)\u{1B}[0m"
        default:
            return value.hasPrefix("error") || value.hasPrefix("evaluation failed")
                ? "\u{1B}[31m\(value)\u{1B}[0m" : value
        }
    }
}

/// The coverage table of `exthost rule matrix`.
enum MatrixTable {
    static func render(rules: [String], payloads: [String], results: [[Bool?]], colors: Bool) -> String {
        let ruleWidth = max(4, rules.map(\.count).max() ?? 0)
        let widths = payloads.map { max(5, $0.count) }
        var lines = [
            "rule".padded(ruleWidth) + "  " + zip(payloads, widths).map { $0.0.padded($0.1) }.joined(separator: "  ")
        ]
        for (rule, row) in zip(rules, results) {
            let cells = zip(row, widths).map { value, width -> String in
                let text = value.map { $0 ? "yes" : "no" } ?? "error"
                let padded = text.padded(width)
                guard colors else { return padded }
                let color = value == true ? "\u{1B}[32m" : value == false ? "\u{1B}[2m" : "\u{1B}[31m"
                return color + padded + "\u{1B}[0m"
            }
            lines.append(rule.padded(ruleWidth) + "  " + cells.joined(separator: "  "))
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
