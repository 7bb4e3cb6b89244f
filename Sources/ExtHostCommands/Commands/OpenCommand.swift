import ActivationRules
import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import LaunchServices
import Reporting

/// `exthost open`: which installed apps open a file or URL, which one iOS picks, and the file
/// handed to it (a copy in its Inbox, or the original in place).
enum OpenCommand {
    static var all: [CommandSpec] { [open] }

    /// `exthost open --json`: the decision's keys, then `delivery` (null when nothing was handed
    /// over) in the same object.
    struct Report: Codable, Sendable {
        var decision: LaunchDecision
        var delivery: FileDelivery?
        /// Why the app received the `sourceApplication` it did (`delivery.app.sourceApplication`);
        /// nil when nothing was delivered.
        var sourceApplicationReason: String?

        enum Key: String, CodingKey { case delivery, sourceApplicationReason }

        func encode(to encoder: any Encoder) throws {
            try decision.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(delivery, forKey: .delivery)
            try container.encode(sourceApplicationReason, forKey: .sourceApplicationReason)
        }
    }

    static let open = CommandSpec(
        ["open"],
        summary: "Which apps open a file or URL and which one iOS picks; hand the file to it (exit 0, 2, 3).",
        arguments: "FILE|URL", positionalCount: 1...1,
        options: [
            .value(.with, "BUNDLE-ID", "Open with this app (it must be among the handlers)."),
            .flag(.dryRun, "Only list the handlers and the choice; hand nothing over."),
            .value(.from, "BUNDLE-ID", "The sending app (options.sourceApplication, given only within its team)."),
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            A file qualifies an app when its type (from the filename extension, with every installed app's
            declarations) conforms to a type its CFBundleDocumentTypes claim; LSHandlerRank None never opens.
            The choice: the app that exports the type, then LSHandlerRank (Owner, Default, Alternate), then an
            exact claim over a supertype claim, then install order. The type comes from the filename extension:
            when two installed apps declare different types for it, the later install's type wins (the report's
            typeChoice says who declared what, with each app's install order). A URL with a custom scheme goes to an app
            whose CFBundleURLTypes list it (several: undefined on iOS; exthost takes the first). The file is
            then handed over: the original when the app sets LSSupportsOpeningDocumentsInPlace (openInPlace
            true, security-scoped), else a copy in its Documents/Inbox — and the URL is delivered to the app's
            process (its program, or the built-in app for a bundle without one): warm to a running app ('exthost
            app launch') through scene(_:openURLContexts:), cold by launching it through
            scene(_:willConnectTo:options:); application(_:open:options:) for an app without scenes. An app that
            lacks the entry point for the case loses the URL, and the report says so. options.sourceApplication
            is the --from app only when it is installed and shares the receiver's team ID (the prefix of the
            application-identifier entitlement, or com.apple.developer.team-identifier); nil otherwise. Exit: 0
            delivered (or listed), 1 the app lost the URL, 2 bad input, 3 no app opens it.
            """,
        examples: ["exthost open https://www.apple.com --dry-run"]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let bundles = InstalledBundles(root: root)
        let target = parsed.positionals.first ?? ""
        let isURL = target.contains("://") || (URL(string: target)?.scheme.map { $0.count > 1 } ?? false)
        var decision: LaunchDecision
        var file: URL?
        if isURL, let url = URL(string: target), !(url.isFileURL) {
            decision = bundles.handlers(forURL: url)
        } else {
            let url = context.resolve(target)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw CommandError.input("\(target): no such file")
            }
            decision = bundles.handlers(forFile: url)
            file = url
        }
        if let with = parsed[.with] {
            guard decision.handlers.contains(where: { $0.bundleIdentifier == with }) else {
                throw CommandError.input(
                    "\(with) does not open \(target); handlers: "
                        + (decision.handlers.map(\.bundleIdentifier).joined(separator: ", ")))
            }
            decision.chosen = with
            decision.reason = "chosen with --with"
        }
        var delivery: FileDelivery?
        var source: SourceApplicationDecision?
        if let chosen = decision.chosen, !parsed[.dryRun] {
            let decided = bundles.sourceApplication(from: parsed[.from], to: chosen)
            source = decided
            var context = OpenURLContextDescription(
                url: target, openInPlace: false, sourceApplication: decided.value)
            if let file {
                do {
                    let handed = try bundles.deliver(file: file, to: chosen, on: root)
                    delivery = handed
                    context.url = handed.url
                    context.openInPlace = handed.openInPlace
                } catch {
                    throw CommandError.failed("handing \(file.path) to \(chosen): \(error)")
                }
            }
            var handed = delivery ?? FileDelivery(url: target, openInPlace: false, inbox: nil)
            handed.record(try await AppHandOff.deliver([context], to: chosen, on: root))
            delivery = handed
        }
        if parsed[.json] {
            try context.printJSON(
                encoding: Report(decision: decision, delivery: delivery, sourceApplicationReason: source?.reason))
        } else {
            context.print("\(decision.target)\(decision.typeIdentifier.map { " (\($0))" } ?? "")")
            if let choice = decision.typeChoice { context.print("  type: \(choice.reason)") }
            for handler in decision.handlers {
                let mark = handler.bundleIdentifier == decision.chosen ? "→" : " "
                context.print("  \(mark) \(handler.bundleIdentifier) [\(handler.rank)]: \(handler.reason)")
            }
            context.print("chosen: \(decision.chosen ?? "none") — \(decision.reason)")
            if let delivery, delivery.inbox != nil || delivery.openInPlace {
                context.print(
                    delivery.openInPlace
                        ? "handed over in place: \(delivery.url) (openInPlace true, security-scoped)"
                        : "copied into \(delivery.inbox ?? ""): \(delivery.url) (openInPlace false)")
            }
            if let app = delivery?.app {
                context.print(
                    AppHandOff.line(app.delivery, start: app.start, bundle: app.bundleIdentifier, pid: app.pid))
                if let source { context.print(AppHandOff.sourceLine(app.sourceApplication, reason: source.reason)) }
                for line in AppHandOff.refusalLines(app) { context.print(line) }
                if let output = app.run?.output, !output.isEmpty { context.write(output, toError: false) }
            }
        }
        if decision.chosen == nil { return .no }
        return delivery?.app?.delivery.method == .lost ? .failure : .success
    }
}

extension OpenCommand.Report {
    /// Reads the merged object back: the decision from its own keys, `delivery` beside them.
    init(from decoder: any Decoder) throws {
        decision = try LaunchDecision(from: decoder)
        let container = try decoder.container(keyedBy: Key.self)
        delivery = try container.decodeIfPresent(FileDelivery.self, forKey: .delivery)
        sourceApplicationReason = try container.decodeIfPresent(String.self, forKey: .sourceApplicationReason)
    }
}

/// `exthost app lint`: the checks of an app's Info.plist for the ways into the app.
enum AppLintCommand {
    static var all: [CommandSpec] { [lint] }

    /// `exthost app lint --json`.
    struct Report: Codable, Sendable, Equatable {
        var diagnostics: [Diagnostic]
    }

    static let lint = CommandSpec(
        ["app", "lint"],
        summary: "Check an app's Info.plist: document types, type declarations, URL schemes (exit 1 if any error).",
        arguments: "APP.app", positionalCount: 1...1,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption, .flag(.json, "Print one JSON report.")],
        discussion: """
            Errors: CFBundleDocumentTypes without LSSupportsOpeningDocumentsInPlace or UISupportsDocumentBrowser
            (App Store validation rejects it, ITMS-90737); an LSHandlerRank that is not Owner, Default, Alternate or
            None. Warnings: a public.data/public.item/public.content claim (the app is in every list), a claimed type
            nobody declares (never matches), an exported type conforming to neither public.data nor
            com.apple.package, a URL scheme another installed app registers. Notes: a string LSItemContentTypes, an
            exported type not conforming to public.content (AirDrop).
            """,
        examples: ["exthost init Demo && exthost app lint Demo/MyApp.app"]
    ) { parsed, context in
        let app = context.resolve(parsed.positionals.first ?? "")
        guard FileManager.default.fileExists(atPath: app.appendingPathComponent("Info.plist").path) else {
            throw CommandError.input("\(app.path): not an app bundle (no Info.plist)")
        }
        let root = try ContainerSupport.root(parsed, context)
        var installed = InstalledBundles(root: root)
        installed.apps.removeAll { $0.url.standardizedFileURL == app.standardizedFileURL }
        let diagnostics = InfoPlistLint.lint(appAt: app, installed: installed)
        if parsed[.json] {
            try context.printJSON(encoding: Report(diagnostics: diagnostics))
        } else {
            for diagnostic in diagnostics { context.print(RuleCommands.rendered(diagnostic, context)) }
            if diagnostics.isEmpty { context.print("\(app.lastPathComponent): no findings") }
        }
        return diagnostics.contains { $0.severity == .error } ? .failure : .success
    }
}
