public import Foundation
import LocatedDocuments

/// Why a shortcut or an intent definition cannot be used: the file, and the line and column where
/// one applies.
public struct ShortcutError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// 1-based line (0: none).
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What is wrong.
    public var message: String
    /// Bad input (exit 2) rather than a failure to run (exit 1).
    public var isBadInput: Bool

    init(_ file: URL, _ location: LocatedValue.Location?, _ message: String, badInput: Bool = true) {
        self.file = file.path
        self.line = location?.line ?? 0
        self.column = location?.column ?? 0
        self.message = message
        self.isBadInput = badInput
    }

    /// `file:line:column: message`.
    public var description: String { line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)" }
}

/// A custom intent an app declares: in an intent definition (`.intentdefinition`, SiriKit, iOS 13+)
/// or in its App Intents metadata (`Metadata.appintents/extract.actionsdata`, iOS 16+).
public struct IntentDeclaration: Codable, Sendable, Hashable {
    /// One parameter.
    public struct Parameter: Codable, Sendable, Hashable {
        /// Its name (`INIntentParameterName`).
        public var name: String
        /// Its type (`String`, `File`, `URL`, `Integer`, `Decimal`, `Boolean`, `Date`, `Object`, …).
        public var type: String
        /// Whether it may be left empty.
        public var isOptional: Bool
    }

    /// `INIntentName` (or the App Intent's type name).
    public var name: String
    /// The class name, which is also the delivered `NSUserActivity.activityType`:
    /// `INIntentClassName`, else `<INIntentClassPrefix><INIntentName>Intent`.
    public var className: String
    /// Its title.
    public var title: String?
    /// Its parameters.
    public var parameters: [Parameter]
    /// The parameter a shortcut's input fills (`INIntentInput`, else the first).
    public var inputParameter: String?
    /// Whether running it opens the app (a custom intent without an Intents extension does; an App
    /// Intent when `openAppWhenRun`).
    public var opensApp: Bool
    /// `intentdefinition` or `app-intents`.
    public var source: String
    /// The file it was read from.
    public var file: String
    /// An App Intent's `mangledTypeName` (how the app's process finds its type).
    public var mangledTypeName: String? = nil
}

/// The intents of an installed app bundle.
public enum IntentCatalog {
    /// Parameter types an intent definition may use.
    static let parameterTypes: Set<String> = [
        "String", "File", "URL", "Integer", "Decimal", "Boolean", "Date", "DateComponents", "Duration", "Object",
        "Person", "CurrencyAmount", "Placemark", "Location", "PaymentMethod", "Distance", "Mass", "Speed",
        "Temperature",
        "Volume", "Energy", "Enum",
    ]

    /// Every intent the app at `bundle` declares: its `.intentdefinition` files (anywhere in the
    /// bundle, e.g. `Base.lproj/`) and `Metadata.appintents/extract.actionsdata`.
    /// - Throws: ``ShortcutError`` naming the file, line and column of a bad definition.
    public static func intents(ofAppAt bundle: URL) throws(ShortcutError) -> [IntentDeclaration] {
        var found: [IntentDeclaration] = []
        let walker = FileManager.default.enumerator(at: bundle, includingPropertiesForKeys: nil)
        var definitions: [URL] = []
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "intentdefinition" { definitions.append(url) }
            if url.pathExtension == "appex" { walker?.skipDescendants() }
        }
        for file in definitions.sorted(by: { $0.path < $1.path }) { found += try definition(file) }
        let metadata = bundle.appendingPathComponent("Metadata.appintents/extract.actionsdata")
        if FileManager.default.fileExists(atPath: metadata.path) { found += try appIntents(metadata) }
        return found
    }

    /// The intents of one `.intentdefinition` property list.
    /// - Throws: ``ShortcutError``.
    public static func definition(_ file: URL) throws(ShortcutError) -> [IntentDeclaration] {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ShortcutError(file, nil, "cannot read the file")
        }
        let root: LocatedValue
        do { root = try LocatedValue.read([UInt8](data), as: .propertyList) } catch {
            throw ShortcutError(file, error.location, error.message)
        }
        guard root.isDictionary else {
            throw ShortcutError(file, root.location, "an intent definition is a dictionary")
        }
        guard let intents = root["INIntents"]?.array else {
            throw ShortcutError(file, root.location, "no INIntents array")
        }
        return try intents.map { intent throws(ShortcutError) in
            guard intent.isDictionary else { throw ShortcutError(file, intent.location, "an intent is a dictionary") }
            guard let name = intent["INIntentName"]?.string, !name.isEmpty else {
                throw ShortcutError(file, intent.location, "an intent without INIntentName")
            }
            let explicit = intent["INIntentClassName"]?.string ?? ""
            let className =
                explicit.isEmpty ? (intent["INIntentClassPrefix"]?.string ?? "") + name + "Intent" : explicit
            var parameters: [IntentDeclaration.Parameter] = []
            for parameter in intent["INIntentParameters"]?.array ?? [] {
                guard let parameterName = parameter["INIntentParameterName"]?.string, !parameterName.isEmpty else {
                    throw ShortcutError(
                        file, parameter.location, "a parameter of \(name) without INIntentParameterName")
                }
                guard let type = parameter["INIntentParameterType"] else {
                    throw ShortcutError(
                        file, parameter.location, "parameter \(parameterName) of \(name) has no INIntentParameterType")
                }
                guard let typeName = type.string, parameterTypes.contains(typeName) else {
                    throw ShortcutError(
                        file, type.location,
                        "parameter \(parameterName) of \(name) has an unknown INIntentParameterType '\(type.string ?? "")' "
                            + "(one of \(parameterTypes.sorted().joined(separator: ", ")))")
                }
                parameters.append(.init(name: parameterName, type: typeName, isOptional: true))
            }
            let input = intent["INIntentInput"]?.string ?? parameters.first?.name
            if let input, !parameters.contains(where: { $0.name == input }) {
                throw ShortcutError(
                    file, intent["INIntentInput"]?.location,
                    "INIntentInput names \(input), which is not a parameter of \(name)")
            }
            return IntentDeclaration(
                name: name, className: className, title: intent["INIntentTitle"]?.string, parameters: parameters,
                inputParameter: input, opensApp: true, source: "intentdefinition", file: file.path)
        }
    }

    /// The App Intents of `Metadata.appintents/extract.actionsdata` (JSON; `actions` keyed by type
    /// name; a parameter's primitive `typeIdentifier` 0 is String, 8 Date; others are kept by number).
    /// - Throws: ``ShortcutError``.
    public static func appIntents(_ file: URL) throws(ShortcutError) -> [IntentDeclaration] {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ShortcutError(file, nil, "cannot read the file")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw ShortcutError(file, nil, "not JSON: \(error.localizedDescription)")
        }
        guard let root = object as? [String: Any], let actions = root["actions"] as? [String: Any] else {
            throw ShortcutError(file, nil, "no 'actions' object")
        }
        return try actions.keys.sorted().map { key throws(ShortcutError) in
            // The type name is the class name a shortcut calls and the activity type the app receives.
            guard !key.isEmpty else { throw ShortcutError(file, nil, "an action in 'actions' has an empty type name") }
            guard let action = actions[key] as? [String: Any] else {
                throw ShortcutError(file, nil, "actions.\(key) is not an object")
            }
            let parameters = try ((action["parameters"] as? [[String: Any]]) ?? []).map {
                parameter throws(ShortcutError) -> IntentDeclaration.Parameter in
                guard let name = parameter["name"] as? String else {
                    throw ShortcutError(file, nil, "a parameter of actions.\(key) has no name")
                }
                let valueType = parameter["valueType"] as? [String: Any]
                let primitive =
                    ((valueType?["primitive"] as? [String: Any])?["wrapper"] as? [String: Any])?[
                        "typeIdentifier"] as? Int
                let type: String
                switch primitive {
                case 0: type = "String"
                case 8: type = "Date"
                case let number?: type = "Primitive(\(number))"
                case nil: type = valueType?["entity"] != nil ? "Object" : "Unknown"
                }
                return .init(name: name, type: type, isOptional: parameter["isOptional"] as? Bool ?? false)
            }
            let title = (action["title"] as? [String: Any])?["key"] as? String
            return IntentDeclaration(
                name: key, className: key, title: title, parameters: parameters, inputParameter: parameters.first?.name,
                opensApp: action["openAppWhenRun"] as? Bool ?? false, source: "app-intents", file: file.path,
                mangledTypeName: action["mangledTypeName"] as? String)
        }
    }
}
