import Foundation
import Shortcuts
import Testing

/// A shortcut file that Shortcuts would not run is refused when it is read, naming the file and
/// the line and column of the action that is wrong.
struct ShortcutFileErrorTests {
    /// A shortcut whose actions are `actions` (XML, one action a line after the header), with
    /// `extra` members at the top.
    static func shortcut(_ actions: [String], extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>\(extra)<key>WFWorkflowActions</key><array>
        \(actions.joined(separator: "\n"))
        </array></dict>
        </plist>
        """
    }

    static func conditional(_ group: String?, mode: Int?) -> String {
        var parameters = ""
        if let group { parameters += "<key>GroupingIdentifier</key><string>\(group)</string>" }
        if let mode { parameters += "<key>WFControlFlowMode</key><integer>\(mode)</integer>" }
        return "<dict><key>WFWorkflowActionIdentifier</key><string>is.workflow.actions.conditional</string>"
            + "<key>WFWorkflowActionParameters</key><dict>\(parameters)</dict></dict>"
    }

    static let count = "<dict><key>WFWorkflowActionIdentifier</key><string>is.workflow.actions.count</string></dict>"

    @Test(arguments: [
        (shortcut([count, "<dict><key>Other</key><true/></dict>"]), 5, "an action without WFWorkflowActionIdentifier"),
        (
            shortcut([
                "<dict><key>WFWorkflowActionIdentifier</key><string>is.workflow.actions.count</string>"
                    + "<key>WFWorkflowActionParameters</key><array/></dict>"
            ]), 4, "WFWorkflowActionParameters must be a dictionary"
        ),
        (shortcut([conditional(nil, mode: 0)]), 4, "an If without GroupingIdentifier"),
        (shortcut([conditional("g", mode: 1)]), 4, "Otherwise without its If (GroupingIdentifier g)"),
        (shortcut([conditional("g", mode: 0), conditional("h", mode: 2)]), 5, "End If without its If"),
        (shortcut([conditional("g", mode: 7)]), 4, "WFControlFlowMode must be 0 (If), 1 (Otherwise) or 2 (End If)"),
        (shortcut([count, conditional("g", mode: 0), count]), 5, "an If without End If"),
        (
            shortcut(
                [count],
                extra: "<key>WFWorkflowInputContentItemClasses</key><array>\n<string>WFPDFContentItem</string>\n"
                    + "<string>WFHologramContentItem</string></array>"), 5,
            "unknown input class 'WFHologramContentItem'"
        ),
    ])
    func aShortcutShortcutsWouldRefuseIsRefusedAtItsLine(text: String, line: Int, message: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).shortcut")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: ShortcutError.self) { try Shortcut.load(contentsOf: file) }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
        #expect(error?.isBadInput == true)
    }

    @Test func wellFormedBlocksAndAMissingFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ok-\(UUID().uuidString).shortcut")
        defer { try? FileManager.default.removeItem(at: file) }
        let text = Self.shortcut([
            Self.conditional("g", mode: 0), Self.count, Self.conditional("g", mode: 1), Self.conditional("g", mode: 2),
        ])
        try Data(text.utf8).write(to: file)
        let shortcut = try Shortcut.load(contentsOf: file)
        #expect(shortcut.name == file.deletingPathExtension().lastPathComponent, "no WFWorkflowName: the file's name")
        #expect(!shortcut.showsInShareSheet)

        let missing = URL(fileURLWithPath: "/nonexistent-exthost/x.shortcut")
        let error = #expect(throws: ShortcutError.self) { try Shortcut.load(contentsOf: missing) }
        #expect(error?.description == "\(missing.path): cannot read the shortcut")
        let noActions = file.deletingLastPathComponent().appendingPathComponent("none-\(UUID().uuidString).shortcut")
        defer { try? FileManager.default.removeItem(at: noActions) }
        try PropertyListSerialization.data(fromPropertyList: ["WFWorkflowName": "x"], format: .binary, options: 0)
            .write(to: noActions)
        let noActionsError = #expect(throws: ShortcutError.self) { try Shortcut.load(contentsOf: noActions) }
        #expect(noActionsError?.message == "no WFWorkflowActions array")
    }
}
