public import AppGroups
public import ExtensionHost
public import ExtensionIPC
import Foundation
import LocatedDocuments
import UniformTypes

/// What running a shortcut did.
public struct ShortcutReport: Codable, Sendable {
    /// One action as it ran.
    public struct Step: Codable, Sendable {
        /// Its position (0-based).
        public var index: Int
        /// `WFWorkflowActionIdentifier`.
        public var action: String
        /// What Shortcuts calls it.
        public var title: String
        /// What it received.
        public var received: [String]
        /// What it produced.
        public var produced: [String]
        /// What it decided (an If's condition, a photo chosen).
        public var note: String?
    }

    /// One parameter as delivered.
    public struct Parameter: Codable, Sendable {
        /// Its name.
        public var name: String
        /// `string`, `file`, `url`, `number`.
        public var kind: String
        /// A string, URL or number, as text.
        public var value: String?
        /// A file's name.
        public var filename: String?
        /// A file's type.
        public var typeIdentifier: String?
        /// A file's size.
        public var bytes: Int?
    }

    /// The intent delivered to the app.
    public struct Delivered: Codable, Sendable {
        /// The app.
        public var bundleIdentifier: String
        /// `NSUserActivity.activityType` (the intent's class name).
        public var activityType: String
        /// The parameters.
        public var parameters: [Parameter]
        /// Whether running the intent opens the app.
        public var opensApp: Bool
        /// For an App Intent, where its `perform()` ran: `foreground` (`openAppWhenRun: true`: the app
        /// launched or brought forward) or `background` (a background launch without scenes); nil for
        /// a SiriKit custom intent (delivered as an `NSUserActivity`).
        public var perform: String? = nil
    }

    /// The shortcut's name.
    public var shortcut: String
    /// Its input (what the share sheet gave it, filtered to the classes it accepts).
    public var input: [String]
    /// Each action that ran.
    public var steps: [Step]
    /// The intent it ran, if any.
    public var delivered: Delivered?
    /// The app's process receiving the activity.
    public var app: AppOpenReport?
}

/// Runs a shortcut on a device: its actions in order, an If's branches by its condition, Select
/// Photos from the device's library (`<root>/Media/DCIM`), and an app's intent delivered to the
/// app as an `NSUserActivity`.
public struct ShortcutRunner: Sendable {
    /// Delivers an activity to an app (warm or cold).
    public typealias Deliver =
        @Sendable (_ bundleIdentifier: String, _ activity: UserActivityDescription) async throws ->
        AppOpenReport

    /// The device.
    public var root: DeviceRoot
    /// The photo Select Photos picks (by file name; nil: the first, by name).
    public var pick: String?
    /// How the activity reaches the app.
    public var deliver: Deliver
    /// Performs an App Intent in the app (warm, or launched cold in the foreground or background);
    /// nil: App Intents cannot be run.
    public var performIntent: PerformIntent?

    /// Performs an App Intent in an app.
    public typealias PerformIntent =
        @Sendable (_ bundleIdentifier: String, _ invocation: AppIntentInvocation) async throws -> AppOpenReport

    /// A runner.
    public init(root: DeviceRoot, pick: String? = nil, deliver: @escaping Deliver) {
        self.root = root
        self.pick = pick
        self.deliver = deliver
    }

    /// Runs `shortcut` with `input` (what the sheet shared; nothing when run from the Shortcuts app).
    /// - Throws: ``ShortcutError`` for an action that cannot run (no app declares the intent, the
    ///   Photos library is empty, a condition it cannot evaluate), with where it is written.
    public func run(_ shortcut: Shortcut, input given: [ContentItem]) async throws(ShortcutError) -> ShortcutReport {
        let input = shortcut.acceptedInput(given)
        var report = ShortcutReport(
            shortcut: shortcut.name, input: input.map(\.summary), steps: [], delivered: nil, app: nil)
        var outputs: [String: [ContentItem]] = [:]
        var previous = input
        var index = 0
        let actions = shortcut.actions
        while index < actions.count {
            let action = actions[index]
            let received =
                try resolve(action.parameter("WFInput"), input: input, outputs: outputs, shortcut) ?? previous
            var produced = received
            var note: String?
            var next = index + 1
            switch action.identifier {
            case "is.workflow.actions.detect.images":
                produced = received.compactMap(Self.image)
            case "is.workflow.actions.detect.text":
                produced = received.filter {
                    if case .text = $0 { true } else if case .richText = $0 { true } else { false }
                }
            case "is.workflow.actions.detect.link":
                produced = received.filter { if case .url = $0 { true } else { false } }
            case "is.workflow.actions.count":
                produced = [.number(Double(received.count))]
            case "is.workflow.actions.gettext":
                produced = [.text(action.parameter("WFTextActionText")?.string ?? "")]
            case "is.workflow.actions.selectphoto":
                let (photos, chosen) = try selectPhotos(action, shortcut)
                produced = photos
                note = chosen
            case "is.workflow.actions.conditional":
                let group = action.parameter("GroupingIdentifier")?.string ?? ""
                let block = shortcut.blocks[group]
                switch Int(action.parameter("WFControlFlowMode")?.number ?? 0) {
                case 0:
                    let holds = try condition(action, on: received, shortcut)
                    note = "condition \(holds ? "holds" : "does not hold"): \(holds ? "If" : "Otherwise") branch"
                    produced = previous
                    if !holds, let block { next = (block.otherwise ?? block.end) + 1 }
                    if !holds, block?.otherwise == nil { produced = previous }
                case 1:
                    // Reached after the If branch ran: skip the Otherwise branch.
                    if let block { next = block.end }
                    produced = previous
                    note = "end of the If branch"
                default:
                    produced = previous
                    note = "End If: the branch's output"
                }
            default:
                let (delivered, app) = try await runIntent(
                    action, received: received, input: input, outputs: outputs, shortcut)
                report.delivered = delivered
                report.app = app
                produced = []
            }
            report.steps.append(
                .init(
                    index: index, action: action.identifier,
                    title: Self.title(action),
                    received: received.map(\.summary), produced: produced.map(\.summary), note: note))
            if let uuid = action.parameter("UUID")?.string { outputs[uuid] = produced }
            previous = produced
            index = next
        }
        return report
    }

    /// What Shortcuts shows for the action: `If`, `Otherwise`, `End If`, `Count`, `Run <intent>`.
    static func title(_ action: Shortcut.Action) -> String {
        if action.identifier == "is.workflow.actions.conditional" {
            return ["If", "Otherwise", "End If"][
                max(0, min(2, Int(action.parameter("WFControlFlowMode")?.number ?? 0)))]
        }
        return Shortcut.knownActions[action.identifier] ?? "Run \(action.identifier)"
    }

    // MARK: - Values

    /// A parameter that is a variable (`{Value: {Type: ExtensionInput | ActionOutput, OutputUUID}}`,
    /// as a `WFTextTokenAttachment`) or a literal string; nil when absent.
    func resolve(
        _ value: LocatedValue?, input: [ContentItem], outputs: [String: [ContentItem]], _ shortcut: Shortcut
    ) throws(ShortcutError) -> [ContentItem]? {
        guard let value else { return nil }
        if let text = value.string { return [.text(text)] }
        if let number = value.number { return [.number(number)] }
        let attachment = value["Value"] ?? value
        switch attachment["Type"]?.string {
        case "ExtensionInput"?: return input
        case "ActionOutput"?:
            guard let uuid = attachment["OutputUUID"]?.string, let output = outputs[uuid] else {
                throw ShortcutError(
                    shortcut.file, attachment.location, "an ActionOutput variable names no earlier action's UUID")
            }
            return output
        default:
            throw ShortcutError(
                shortcut.file, value.location, "a variable of an unknown Type (ExtensionInput or ActionOutput)")
        }
    }

    static func image(_ item: ContentItem) -> ContentItem? {
        switch item {
        case .image: return item
        case .file(let url, let type):
            guard let identifier = UniformTypeIdentifier(validating: type),
                TypeRegistry.system.conforms(identifier, to: .image),
                let data = try? Data(contentsOf: url)
            else {
                return nil
            }
            return .image(name: url.lastPathComponent, data: data, typeIdentifier: type)
        default: return nil
        }
    }

    /// `WFCondition`: 0 <, 1 ≤, 2 >, 3 ≥, 4 is, 5 is not, 99 contains, 100 has any value, 101 does
    /// not have any value; compared with `WFNumberValue` or `WFConditionalActionString`.
    func condition(_ action: Shortcut.Action, on items: [ContentItem], _ shortcut: Shortcut) throws(ShortcutError)
        -> Bool
    {
        let code = Int(action.parameter("WFCondition")?.number ?? 100)
        let number: Double? =
            items.count == 1
            ? {
                switch items[0] {
                case .number(let value): return value
                case .text(let text): return Double(text)
                default: return nil
                }
            }() : nil
        let text = items.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined(separator: "\n")
        let numberValue = action.parameter("WFNumberValue").flatMap { $0.number ?? $0.string.flatMap(Double.init) }
        let stringValue = action.parameter("WFConditionalActionString")?.string
        switch code {
        case 100: return !items.isEmpty && number.map { _ in true } != false
        case 101: return items.isEmpty
        case 99: return text.contains(stringValue ?? "")
        case 4, 5:
            let equal: Bool
            if let numberValue, let number {
                equal = number == numberValue
            } else {
                equal = text == (stringValue ?? "")
            }
            return code == 4 ? equal : !equal
        case 0, 1, 2, 3:
            guard let number, let numberValue else {
                throw ShortcutError(
                    shortcut.file, action.location, "a numeric condition needs a number input and WFNumberValue")
            }
            return [number < numberValue, number <= numberValue, number > numberValue, number >= numberValue][code]
        default:
            throw ShortcutError(
                shortcut.file, action.parameter("WFCondition")?.location ?? action.location,
                "unknown WFCondition \(code) (0 <, 1 ≤, 2 >, 3 ≥, 4 is, 5 is not, 99 contains, 100 has any value, "
                    + "101 does not have any value)")
        }
    }

    /// Select Photos: the device's library, `<root>/Media/DCIM/**`, by name; one unless
    /// `WFSelectMultiplePhotos`.
    func selectPhotos(_ action: Shortcut.Action, _ shortcut: Shortcut) throws(ShortcutError) -> ([ContentItem], String)
    {
        let library = root.url.appendingPathComponent("Media/DCIM")
        let walker = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)
        var photos: [URL] = []
        while let url = walker?.nextObject() as? URL {
            let type = TypeRegistry.system.preferredType(forFileNamed: url.path)
            if TypeRegistry.system.conforms(type, to: .image) { photos.append(url) }
        }
        photos.sort { $0.lastPathComponent < $1.lastPathComponent }
        guard !photos.isEmpty else {
            throw ShortcutError(
                shortcut.file, action.location, "Select Photos: the device's Photos library (\(library.path)) is empty",
                badInput: false)
        }
        var chosen = photos
        if action.parameter("WFSelectMultiplePhotos")?.bool != true {
            if let pick {
                guard let match = photos.first(where: { $0.lastPathComponent == pick }) else {
                    throw ShortcutError(
                        shortcut.file, action.location,
                        "Select Photos: no photo \(pick) in the library (\(photos.map(\.lastPathComponent).joined(separator: ", ")))"
                    )
                }
                chosen = [match]
            } else {
                chosen = [photos[0]]
            }
        }
        let items = chosen.compactMap { url -> ContentItem? in
            guard let data = try? Data(contentsOf: url) else { return nil }
            let type = TypeRegistry.system.preferredType(forFileNamed: url.path).rawValue
            return .image(name: url.lastPathComponent, data: data, typeIdentifier: type)
        }
        return (items, "chose \(chosen.map(\.lastPathComponent).joined(separator: ", ")) from the Photos library")
    }

    // MARK: - Intents

    /// Runs an app's intent: `<bundle identifier>.<class name or intent name>` of an installed app.
    func runIntent(
        _ action: Shortcut.Action, received: [ContentItem], input: [ContentItem], outputs: [String: [ContentItem]],
        _ shortcut: Shortcut
    ) async throws(ShortcutError)
        -> (ShortcutReport.Delivered, AppOpenReport?)
    {
        var found: (bundle: URL, identity: BundleIdentity, intent: IntentDeclaration)?
        for bundle in root.bundleURLs() where bundle.pathExtension == "app" {
            guard let identity = try? BundleIdentity.load(bundle: bundle),
                action.identifier.hasPrefix(identity.bundleIdentifier + ".")
            else { continue }
            let name = String(action.identifier.dropFirst(identity.bundleIdentifier.count + 1))
            let intents = try IntentCatalog.intents(ofAppAt: bundle)
            if let intent = intents.first(where: { $0.className == name || $0.name == name }) {
                found = (bundle, identity, intent)
            }
        }
        guard let (_, identity, intent) = found else {
            throw ShortcutError(
                shortcut.file, action.location,
                "no installed app declares the intent \(action.identifier) (<bundle identifier>.<intent class name>)")
        }
        var parameters: [IntentParameterValue] = []
        var reported: [ShortcutReport.Parameter] = []
        for parameter in intent.parameters {
            let given = try resolve(action.parameter(parameter.name), input: input, outputs: outputs, shortcut)
            let items = given ?? (parameter.name == intent.inputParameter ? received : [])
            var typed = parameter
            if intent.source == "app-intents", parameter.type != "String" {
                // The metadata's number for IntentFile (and most others) is not established: the
                // parameter takes what it is given — a file, a URL, a number, else text.
                typed.type =
                    switch items.first {
                    case .image?, .pdf?, .file?: "File"
                    case .url?: "URL"
                    case .number?: "Decimal"
                    default: parameter.type
                    }
            }
            guard let value = try value(for: typed, from: items, app: identity) else { continue }
            parameters.append(value)
            reported.append(
                .init(
                    name: value.name, kind: value.kind, value: value.string ?? value.number.map { "\($0)" },
                    filename: value.filename, typeIdentifier: value.typeIdentifier, bytes: value.bytes))
        }
        let activity = UserActivityDescription(
            activityType: intent.className, intentClassName: intent.className, parameters: parameters)
        var delivered = ShortcutReport.Delivered(
            bundleIdentifier: identity.bundleIdentifier, activityType: intent.className, parameters: reported,
            opensApp: intent.opensApp)
        if intent.source == "app-intents" {
            // An App Intent runs its perform() in the app's process: in the foreground with
            // openAppWhenRun, else in a background launch; no user activity is delivered.
            delivered.perform = intent.opensApp ? "foreground" : "background"
            let invocation = AppIntentInvocation(
                typeName: intent.className, mangledTypeName: intent.mangledTypeName, parameters: parameters,
                background: !intent.opensApp)
            guard let performIntent else {
                throw ShortcutError(
                    shortcut.file, action.location, "\(intent.className) is an App Intent, and apps cannot run here",
                    badInput: false)
            }
            do {
                return (delivered, try await performIntent(identity.bundleIdentifier, invocation))
            } catch {
                throw ShortcutError(
                    shortcut.file, action.location, "cannot run \(identity.bundleIdentifier): \(error)",
                    badInput: false)
            }
        }
        guard intent.opensApp else { return (delivered, nil) }
        do {
            return (delivered, try await deliver(identity.bundleIdentifier, activity))
        } catch {
            throw ShortcutError(
                shortcut.file, action.location, "cannot run \(identity.bundleIdentifier): \(error)", badInput: false)
        }
    }

    /// The value of `parameter` from `items`: text for a String, the first file or image for a
    /// File (copied into the app's `tmp/`, as the app's own `INFile.fileURL`), the first URL for a URL.
    func value(for parameter: IntentDeclaration.Parameter, from items: [ContentItem], app: BundleIdentity)
        throws(ShortcutError) -> IntentParameterValue?
    {
        switch parameter.type {
        case "File":
            for item in items {
                let (name, data, type): (String, Data?, String)
                switch item {
                case .image(let n, let d, let t): (name, data, type) = (n, d, t)
                case .pdf(let url):
                    (name, data, type) = (url.lastPathComponent, try? Data(contentsOf: url), "com.adobe.pdf")
                case .file(let url, let t): (name, data, type) = (url.lastPathComponent, try? Data(contentsOf: url), t)
                case .text(let text), .richText(let text):
                    (name, data, type) = ("text.txt", Data(text.utf8), "public.plain-text")
                default: continue
                }
                guard let data else { continue }
                do {
                    let folder = try root.dataContainer(for: app).url.appendingPathComponent(
                        "tmp/Intents/\(UUID().uuidString)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let target = folder.appendingPathComponent(name)
                    try data.write(to: target, options: .atomic)
                    return IntentParameterValue(
                        name: parameter.name, kind: "file", filename: name, typeIdentifier: type, path: target.path,
                        bytes: data.count)
                } catch {
                    throw ShortcutError(
                        URL(fileURLWithPath: root.url.path), nil, "cannot hand \(name) to the app: \(error)",
                        badInput: false)
                }
            }
            return nil
        case "URL":
            for case .url(let url) in items {
                return IntentParameterValue(name: parameter.name, kind: "url", string: url.absoluteString)
            }
            return nil
        case "Integer", "Decimal", "Boolean":
            for case .number(let number) in items {
                return IntentParameterValue(name: parameter.name, kind: "number", number: number)
            }
            return nil
        default:
            let texts = items.compactMap { item -> String? in
                switch item {
                case .text(let text), .richText(let text): text
                case .url(let url): url.absoluteString
                case .number(let number): String(number)
                default: nil
                }
            }
            guard !texts.isEmpty else { return nil }
            return IntentParameterValue(name: parameter.name, kind: "string", string: texts.joined(separator: "\n"))
        }
    }
}
