import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import LaunchServices
import Payloads
import Shortcuts

/// `exthost shortcut …`: Shortcuts shortcuts and the intents apps declare.
enum ShortcutCommands {
    static var all: [CommandSpec] { [run, intents] }

    static let run = CommandSpec(
        ["shortcut", "run"],
        summary: "Run a shortcut with shared items; an app intent it runs reaches the app as an NSUserActivity.",
        arguments: "SHORTCUT [ITEMS]", positionalCount: 1...2,
        options: [
            .value(.payload, "NAME", "Share a preset's items instead of ITEMS."),
            .values(.text, "STRING", "Share a string (repeatable)."),
            .value(
                .pick, "PHOTO", "The photo Select Photos picks (a file name in <root>/Media/DCIM; default: the first)."
            ),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            SHORTCUT is a shortcut property list (.shortcut): WFWorkflowTypes (ActionExtension: in the share sheet),
            WFWorkflowInputContentItemClasses (what it accepts) and WFWorkflowActions, each a
            WFWorkflowActionIdentifier with WFWorkflowActionParameters. exthost runs: Get Images/Text/URLs from
            Input (is.workflow.actions.detect.images|text|link), Count (is.workflow.actions.count), If/Otherwise/End
            If (is.workflow.actions.conditional: WFControlFlowMode 0/1/2 paired by GroupingIdentifier, WFCondition
            0 <, 1 ≤, 2 >, 3 ≥, 4 is, 5 is not, 99 contains, 100 has any value, 101 does not have any value, against
            WFNumberValue or WFConditionalActionString), Select Photos (is.workflow.actions.selectphoto, from
            <root>/Media/DCIM), Text (is.workflow.actions.gettext), and an installed app's intent as
            <bundle identifier>.<intent class name>, its parameters by name. A parameter is a literal or a variable
            ({Value: {Type: ExtensionInput}} or {Value: {Type: ActionOutput, OutputUUID}}); an action's input is
            WFInput, else the previous action's output; the intent's input parameter takes the previous output.
            The intent reaches the app (launched cold, or warm when 'exthost app launch' keeps it running) as an
            NSUserActivity whose activityType is the intent's class name: connectionOptions.userActivities,
            scene(_:continue:), or application(_:continue:restorationHandler:) without scenes. A File parameter is
            copied into the app's tmp/ (INFile with data, filename, typeIdentifier, fileURL).
            An App Intent (declared in the bundle's Metadata.appintents/extract.actionsdata) is not an activity:
            the app's AppIntent type of that name is made, its @Parameters set and its perform() run in the app's
            process — with openAppWhenRun true the app is launched in the foreground (or reached warm) with its
            scene; otherwise in a background launch without scenes (the report's delivered.perform says which). A
            parameter other than a String takes what it is given (a file as an IntentFile on a copy in tmp/).
            Exit: 0 the app handled it (or the shortcut ran no intent), 1 it did not (perform() threw: the error
            says what), 2 bad input (a malformed shortcut or intent definition names its line and column; App
            Intents metadata that is not JSON).
            """
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let shortcut: Shortcut
        do {
            shortcut = try Shortcut.load(contentsOf: context.resolve(parsed.positionals[0]))
        } catch {
            throw CommandError.input("\(error)")
        }
        var items: [ActivityItem] = parsed[.text].map(ActivityItem.text)
        do {
            if let name = parsed[.payload] { items += try ActivityItems(preset: name).items }
        } catch {
            throw CommandError.input("\(error)")
        }
        if parsed.positionals.count > 1 {
            let url = context.resolve(parsed.positionals[1])
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                throw CommandError.input("\(parsed.positionals[1]): no such file or folder")
            }
            if isFolder.boolValue {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
                items += names.filter { !$0.hasPrefix(".") }.map { .file(url.appendingPathComponent($0)) }
            } else {
                items.append(.file(url))
            }
        }
        let registry = InstalledBundles(root: root).registry
        var runner = ShortcutRunner(root: root, pick: parsed[.pick]) { bundle, activity in
            try await AppHandOff.deliver([], userActivities: [activity], to: bundle, on: root)
        }
        runner.performIntent = { bundle, invocation in
            try await AppHandOff.deliver([], appIntent: invocation, to: bundle, on: root)
        }
        let report: ShortcutReport
        do {
            report = try await runner.run(shortcut, input: ContentItem.items(from: items, registry: registry))
        } catch let error as ShortcutError {
            throw error.isBadInput ? CommandError.input(error.description) : CommandError.failed(error.description)
        }
        if parsed[.json] {
            try context.printJSON(encoding: report)
        } else {
            context.print(
                "\(report.shortcut): input \(report.input.isEmpty ? "none" : report.input.joined(separator: ", "))")
            for step in report.steps {
                context.print("  \(step.index + 1). \(step.title)\(step.note.map { " — \($0)" } ?? "")")
                if !step.produced.isEmpty { context.print("     → \(step.produced.joined(separator: ", "))") }
            }
            if let delivered = report.delivered {
                let parameters = delivered.parameters.map { parameter in
                    "\(parameter.name)=\(parameter.filename ?? parameter.value ?? "")"
                        + (parameter.kind == "file"
                            ? " (\(parameter.typeIdentifier ?? "?"), \(parameter.bytes ?? 0) bytes)" : "")
                }
                context.print(
                    "intent \(delivered.activityType) for \(delivered.bundleIdentifier): \(parameters.joined(separator: ", "))"
                )
            }
            if let app = report.app {
                context.print(
                    AppHandOff.line(app.delivery, start: app.start, bundle: app.bundleIdentifier, pid: app.pid))
                if report.delivered?.perform == nil {
                    context.print(
                        AppHandOff.sourceLine(
                            app.sourceApplication, reason: "a user activity carries no source application"))
                }
                if let output = app.run?.output, !output.isEmpty { context.write(output, toError: false) }
            }
        }
        if let app = report.app, [.perform, .performInBackground].contains(app.delivery.method),
            !app.delivery.handled
        {
            context.printError("error: \(app.delivery.detail)")
            return .failure
        }
        if let app = report.app, app.delivery.method == .lost || !app.delivery.handled { return .failure }
        return .success
    }

    static let intents = CommandSpec(
        ["shortcut", "intents"], summary: "List the intents an app declares (.intentdefinition, App Intents metadata).",
        arguments: "APP.app", positionalCount: 1...1, options: [.flag(.json, "Print JSON.")],
        discussion: """
            Reads every .intentdefinition in the bundle (INIntents: INIntentName, INIntentClassName or
            <INIntentClassPrefix><INIntentName>Intent — the activity type the app receives — and INIntentParameters
            with INIntentParameterName and INIntentParameterType) and Metadata.appintents/extract.actionsdata.
            Exit: 0, 2 no app bundle at APP.app or a malformed definition (its file, line and column).
            """,
        examples: ["exthost init Demo && exthost shortcut intents Demo/MyApp.app"]
    ) { parsed, context in
        let app = context.resolve(parsed.positionals[0])
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: app.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError.input("\(parsed.positionals[0]): no app bundle (folder) there")
        }
        let declarations: [IntentDeclaration]
        do {
            declarations = try IntentCatalog.intents(ofAppAt: app)
        } catch {
            throw CommandError.input("\(error)")
        }
        if parsed[.json] {
            try context.printJSON(encoding: declarations)
        } else {
            for intent in declarations {
                let parameters = intent.parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
                context.print(
                    "\(intent.className) (\(intent.source)): \(parameters)\(intent.opensApp ? "" : " [background]")")
            }
            if declarations.isEmpty { context.print("no intents") }
        }
        return .success
    }
}
