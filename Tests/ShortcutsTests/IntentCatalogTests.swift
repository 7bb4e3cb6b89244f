import Foundation
import Shortcuts
import Testing

/// An app's intents as Shortcuts finds them — `.intentdefinition` files (XML or binary property
/// lists) and App Intents metadata — and each malformed input refused with the file and, for a
/// property list, the line and column.
struct IntentCatalogTests {
    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("shortcuts-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func write(_ plist: Any, _ format: PropertyListSerialization.PropertyListFormat, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0).write(to: url)
    }

    static var definition: [String: Any] {
        [
            "INIntents": [
                [
                    "INIntentName": "SaveCard", "INIntentClassPrefix": "CD", "INIntentTitle": "Save Card",
                    "INIntentInput": "card",
                    "INIntentParameters": [
                        ["INIntentParameterName": "note", "INIntentParameterType": "String"],
                        ["INIntentParameterName": "card", "INIntentParameterType": "File"],
                    ],
                ],
                ["INIntentName": "Refresh", "INIntentClassName": "RefreshNowIntent"],
            ]
        ]
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func anIntentDefinitionIsRead(format: PropertyListSerialization.PropertyListFormat) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Intents.intentdefinition")
        try write(Self.definition, format, to: file)
        let intents = try IntentCatalog.definition(file)
        #expect(intents.map(\.name) == ["SaveCard", "Refresh"])
        #expect(intents.map(\.className) == ["CDSaveCardIntent", "RefreshNowIntent"])
        #expect(intents[0].title == "Save Card" && intents[0].inputParameter == "card")
        #expect(intents[0].parameters.map(\.name) == ["note", "card"])
        #expect(intents[0].parameters.map(\.type) == ["String", "File"])
        #expect(intents[1].parameters.isEmpty && intents[1].inputParameter == nil)
        #expect(intents.allSatisfy { $0.opensApp && $0.source == "intentdefinition" && $0.file == file.path })
    }

    /// App Intents metadata: parameters typed by their primitive (0 String, 8 Date, others by
    /// number), an entity as Object.
    @Test func appIntentsMetadataIsRead() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("CardDrop.app")
        let metadata: [String: Any] = [
            "actions": [
                "OpenCardIntent": [
                    "title": ["key": "Open Card"], "openAppWhenRun": true,
                    "parameters": [
                        ["name": "name", "valueType": ["primitive": ["wrapper": ["typeIdentifier": 0]]]],
                        [
                            "name": "when", "isOptional": true,
                            "valueType": ["primitive": ["wrapper": ["typeIdentifier": 8]]],
                        ],
                        ["name": "count", "valueType": ["primitive": ["wrapper": ["typeIdentifier": 3]]]],
                        ["name": "card", "valueType": ["entity": ["type": "CardEntity"]]],
                        ["name": "other"],
                    ],
                ]
            ]
        ]
        let file = app.appendingPathComponent("Metadata.appintents/extract.actionsdata")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: metadata).write(to: file)
        try write(Self.definition, .xml, to: app.appendingPathComponent("Base.lproj/Intents.intentdefinition"))
        // An extension's own definitions are not the app's.
        try write(Self.definition, .xml, to: app.appendingPathComponent("PlugIns/Share.appex/Other.intentdefinition"))

        let intents = try IntentCatalog.intents(ofAppAt: app)
        #expect(intents.map(\.name) == ["SaveCard", "Refresh", "OpenCardIntent"])
        let open = try #require(intents.last)
        #expect(open.className == "OpenCardIntent" && open.title == "Open Card" && open.opensApp)
        #expect(open.source == "app-intents" && open.inputParameter == "name")
        #expect(open.parameters.map(\.type) == ["String", "Date", "Primitive(3)", "Object", "Unknown"])
        #expect(open.parameters.map(\.isOptional) == [false, true, false, false, false])
    }

    @Test(arguments: [
        (#"[1, 2]"#, "no 'actions' object"),
        (#"{"actions": {"A": 3}}"#, "actions.A is not an object"),
        (#"{"actions": {"A": {"parameters": [{"valueType": {}}]}}}"#, "a parameter of actions.A has no name"),
        ("{not json", "not JSON"),
    ])
    func badAppIntentsMetadataIsRefused(json: String, message: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("extract.actionsdata")
        try Data(json.utf8).write(to: file)
        let error = #expect(throws: ShortcutError.self) { try IntentCatalog.appIntents(file) }
        #expect(error?.file == file.path && error?.isBadInput == true)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func missingFilesAreNamed() {
        let missing = URL(fileURLWithPath: "/nonexistent-exthost/Intents.intentdefinition")
        let definition = #expect(throws: ShortcutError.self) { try IntentCatalog.definition(missing) }
        #expect(definition?.description == "\(missing.path): cannot read the file")
        let metadata = #expect(throws: ShortcutError.self) { try IntentCatalog.appIntents(missing) }
        #expect(metadata?.message == "cannot read the file" && metadata?.line == 0)
    }

    /// Each bad definition is refused at the line of what is wrong.
    @Test(arguments: [
        ("<array/>", 3, "an intent definition is a dictionary"),
        ("<dict><key>Other</key><string>x</string></dict>", 3, "no INIntents array"),
        ("<dict><key>INIntents</key><array>\n<dict/></array></dict>", 4, "an intent without INIntentName"),
        (
            "<dict><key>INIntents</key><array>\n<dict><key>INIntentName</key><string>A</string>"
                + "<key>INIntentParameters</key><array>\n<dict/></array></dict></array></dict>", 5,
            "a parameter of A without INIntentParameterName"
        ),
        (
            "<dict><key>INIntents</key><array>\n<dict><key>INIntentName</key><string>A</string>"
                + "<key>INIntentParameters</key><array>\n<dict><key>INIntentParameterName</key><string>p</string>"
                + "</dict></array></dict></array></dict>", 5, "parameter p of A has no INIntentParameterType"
        ),
        (
            "<dict><key>INIntents</key><array>\n<dict><key>INIntentName</key><string>A</string>\n"
                + "<key>INIntentInput</key><string>q</string></dict></array></dict>", 5,
            "INIntentInput names q, which is not a parameter of A"
        ),
        ("<dict><key>INIntents</key>\n<integer>x</integer></dict>", 4, "<integer> holds 'x', not a number"),
        ("<dict>\n<string>no key</string></dict>", 4, ""),
        ("<array><key>k</key></array>", 3, "<key> outside a <dict>"),
        ("<dict><key>INIntents</key>\n<frobnicate/></dict>", 4, "unknown element <frobnicate>"),
    ])
    func aBadDefinitionIsRefusedAtItsLine(body: String, line: Int, message: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Bad.intentdefinition")
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            \(body)
            </plist>
            """
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: ShortcutError.self) { try IntentCatalog.definition(file) }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("\(file.path):\(line):") == true)
    }
}
