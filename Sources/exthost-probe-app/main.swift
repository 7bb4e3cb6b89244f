// exthost-probe-app: an app written only against Apple's names (Foundation and UIKit), as it would
// be for iOS. The tests install it under several Info.plists and open files in it, cold and warm.
//
// Which entry points it has depends on the scene delegate its Info.plist names:
//   (no UIApplicationSceneManifest)  the app delegate's application(_:open:options:)
//   $(PRODUCT_MODULE_NAME).FullSceneDelegate       willConnectTo reads connectionOptions.urlContexts,
//                                                  and scene(_:openURLContexts:)
//   $(PRODUCT_MODULE_NAME).WarmOnlySceneDelegate   willConnectTo sets up the window only (the article's
//                                                  bug), and scene(_:openURLContexts:)
//   $(PRODUCT_MODULE_NAME).ColdOnlySceneDelegate   willConnectTo only
//
// At launch it prints `PROBE-APP launched … bundle=<Bundle.main.bundleIdentifier> info=<its CFBundleName>`.
// For every URL it prints one line:
//   PROBE-APP <entry> <file name> inPlace=<bool> source=<bundle|nil> noscope=<ok|denied> scoped=<ok N|denied|->
//   after=<ok|denied|->
// where noscope reads the file without a security scope, scoped between start and stop, after once stopped.
// With ProbeTriesInbox (a Bool in its Info.plist), a copy (not in place) is then edited in place, a
// new file and a folder are made beside it, a file of its own is moved in from Documents, the copy
// is deleted, then the Inbox itself:
//   PROBE-APP inbox edit=<R> create=<R> mkdir=<R> move-in=<R> delete=<R> remove-inbox=<R>
// where R is ok or denied(CODE).
// With ProbePasteboard (a String in its Info.plist), at launch it reads UIPasteboard.general, sets its
// string to that value, and reads it again:
//   PROBE-APP pasteboard before count=<changeCount> items=<numberOfItems> string=<string|nil> url=<url|nil>
//   PROBE-APP pasteboard after count=<changeCount> string=<string|nil> types=<types, comma-separated>
// Its App Intents (declared to exthost by a test's Metadata.appintents) print when performed:
//   PROBE-APP intent <type> text=<text> file=<filename|nil> bytes=<size> type=<UTI|nil> scenes=<connected scenes>
// ProbeNoteIntent opens the app (openAppWhenRun), ProbeBackgroundIntent does not, ProbeFailingIntent throws.
// ProbeCopyIntent shares its text with the app's own UIActivityViewController and performs Copy:
//   PROBE-APP copy completed=<Bool> type=<activity type|nil> error=<message|nil> pasteboard=<UIPasteboard string|nil>
// ProbeSaveIntent does the same with Save to Files:
//   PROBE-APP save completed=<Bool> type=<activity type|nil> error=<message|nil>
// A URL that is not a file (one an extension opened to hand over) prints, per App Group it is entitled to:
//   PROBE-APP <entry> <url> defaults <group> names=<the group defaults' "names", comma-separated>

import AppIntents
import Foundation
import Intents
import UIKit
import UniformTypeIdentifiers

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        print(
            "PROBE-APP launched scenes=\(launchOptions == nil ? "or-no-url" : "no") url=\((launchOptions?[.url] as? NSURL)?.lastPathComponent ?? "nil")"
                + " bundle=\(Bundle.main.bundleIdentifier ?? "nil") info=\(Bundle.main.infoDictionary?["CFBundleName"] ?? "nil")"
        )
        if let text = Bundle.main.infoDictionary?["ProbePasteboard"] as? String {
            let pasteboard = UIPasteboard.general
            print(
                "PROBE-APP pasteboard before count=\(pasteboard.changeCount) items=\(pasteboard.numberOfItems) "
                    + "string=\(pasteboard.string ?? "nil") url=\(pasteboard.url?.absoluteString ?? "nil")")
            pasteboard.string = text
            print(
                "PROBE-APP pasteboard after count=\(pasteboard.changeCount) string=\(pasteboard.string ?? "nil") "
                    + "types=\(pasteboard.types.joined(separator: ","))")
        }
        return true
    }

    func application(
        _ application: UIApplication, continue userActivity: NSUserActivity,
        restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void
    ) -> Bool {
        Probe.activity("application-continue", userActivity)
        return true
    }

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
        Probe.inspect(
            "application-open", url, inPlace: options[.openInPlace] as? Bool ?? false,
            source: options[.sourceApplication] as? String)
        return true
    }
}

final class FullSceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        window = UIWindow(windowScene: windowScene)
        window?.makeKeyAndVisible()
        for context in connectionOptions.urlContexts {
            Probe.inspect(
                "willConnectTo", context.url, inPlace: context.options.openInPlace,
                source: context.options.sourceApplication)
        }
        for activity in connectionOptions.userActivities { Probe.activity("userActivities", activity) }
    }

    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts {
            Probe.inspect(
                "openURLContexts", context.url, inPlace: context.options.openInPlace,
                source: context.options.sourceApplication)
        }
    }

    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
        Probe.activity("scene-continue", userActivity)
    }
}

final class WarmOnlySceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        window = UIWindow(windowScene: windowScene)
        window?.makeKeyAndVisible()
    }

    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts {
            Probe.inspect(
                "openURLContexts", context.url, inPlace: context.options.openInPlace,
                source: context.options.sourceApplication)
        }
    }
}

final class ColdOnlySceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        for context in connectionOptions.urlContexts {
            Probe.inspect(
                "willConnectTo", context.url, inPlace: context.options.openInPlace,
                source: context.options.sourceApplication)
        }
    }
}

/// The probe's intent class, as Xcode would generate it from the definition.
final class ProbeTextIntent: INIntent {
    var text: String? { value(forKey: "text") as? String }
}

enum Probe {
    @MainActor
    static func activity(_ entry: String, _ activity: NSUserActivity) {
        let intent = activity.interaction?.intent
        let typed = (intent as? ProbeTextIntent).map { "ProbeTextIntent text=\($0.text ?? "nil")" }
        let file = intent?.value(forKey: "file") as? INFile
        print(
            "PROBE-APP \(entry) \(activity.activityType) \(typed ?? "INIntent")"
                + (file.map { " file=\($0.filename) \($0.typeIdentifier ?? "?") \($0.data.count)" } ?? ""))
    }

    static func read(_ url: URL) -> String {
        guard let data = try? Data(contentsOf: url) else { return "denied" }
        return "ok \(data.count)"
    }

    @MainActor
    static func inspect(_ entry: String, _ url: URL, inPlace: Bool, source: String?) {
        if !url.isFileURL {
            // A URL an extension opened to hand over: what it wrote into the group's defaults.
            for group in ProcessIdentity.applicationGroups {
                let names = UserDefaults(suiteName: group)?.stringArray(forKey: "names") ?? []
                print(
                    "PROBE-APP \(entry) \(url.absoluteString) defaults \(group) names=\(names.joined(separator: ","))")
            }
        }
        var scoped = "-"
        var after = "-"
        let plain = read(url)
        if url.startAccessingSecurityScopedResource() {
            scoped = read(url)
            url.stopAccessingSecurityScopedResource()
            after = read(url)
        }
        print(
            "PROBE-APP \(entry) \(url.lastPathComponent) inPlace=\(inPlace) source=\(source ?? "nil") "
                + "noscope=\(plain.hasPrefix("ok") ? "ok" : plain) scoped=\(scoped) after=\(after.hasPrefix("ok") ? "ok" : after)"
        )
        if url.isFileURL, !inPlace, Bundle.main.infoDictionary?["ProbeTriesInbox"] as? Bool == true {
            tryInbox(url)
        }
    }

    /// What an app that edits its Inbox copy in place meets: the edit, a new file and a folder
    /// beside it, a file moved in, deleting the copy, then the Inbox (see the header for the line).
    static func tryInbox(_ url: URL) {
        func attempt(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "ok"
            } catch {
                return "denied(\((error as NSError).code))"
            }
        }
        let edit = attempt { try Data("edited in place\n".utf8).write(to: url) }
        let create = attempt {
            try Data("new\n".utf8).write(to: url.deletingLastPathComponent().appendingPathComponent("made-by-app.txt"))
        }
        let inbox = url.deletingLastPathComponent()
        let folder = attempt {
            try FileManager.default.createDirectory(
                at: inbox.appendingPathComponent("folder"), withIntermediateDirectories: false)
        }
        let outside = inbox.deletingLastPathComponent().appendingPathComponent("mine.txt")
        let moveIn = attempt {
            try Data("mine\n".utf8).write(to: outside)
            try FileManager.default.moveItem(at: outside, to: inbox.appendingPathComponent("mine.txt"))
        }
        let delete = attempt { try FileManager.default.removeItem(at: url) }
        let removeInbox = attempt { try FileManager.default.removeItem(at: inbox) }
        print(
            "PROBE-APP inbox edit=\(edit) create=\(create) mkdir=\(folder) move-in=\(moveIn) delete=\(delete) "
                + "remove-inbox=\(removeInbox)")
    }
}

struct ProbeNoteIntent: AppIntent {
    static let title: LocalizedStringResource = "Probe note"
    static let openAppWhenRun = true

    @Parameter(title: "Text") var text: String
    @Parameter(title: "File") var file: IntentFile?

    func perform() async throws -> some IntentResult {
        await ProbeIntents.say("ProbeNoteIntent", text: text, file: file)
        return .result(value: text.count)
    }
}

struct ProbeBackgroundIntent: AppIntent {
    static let title: LocalizedStringResource = "Probe in the background"

    @Parameter(title: "Text") var text: String

    func perform() async throws -> some IntentResult {
        await ProbeIntents.say("ProbeBackgroundIntent", text: text, file: nil)
        return .result(dialog: "done")
    }
}

struct ProbeFailingIntent: AppIntent {
    static let title: LocalizedStringResource = "Probe failure"
    static let openAppWhenRun = true

    struct Refusal: LocalizedError {
        var errorDescription: String? { "the probe refuses" }
    }

    @Parameter(title: "Refuse", default: true) var refuse: Bool

    func perform() async throws -> some IntentResult {
        if refuse { throw Refusal() }
        return .result()
    }
}

struct ProbeCopyIntent: AppIntent {
    static let title: LocalizedStringResource = "Probe copy"
    static let openAppWhenRun = true

    @Parameter(title: "Text") var text: String

    func perform() async throws -> some IntentResult {
        await ProbeIntents.copy(text)
        return .result()
    }
}

struct ProbeSaveIntent: AppIntent {
    static let title: LocalizedStringResource = "Probe save"
    static let openAppWhenRun = true

    @Parameter(title: "Text") var text: String

    func perform() async throws -> some IntentResult {
        await ProbeIntents.save(text)
        return .result()
    }
}

enum ProbeIntents {
    /// Save to Files from the app's own share sheet.
    @MainActor
    static func save(_ text: String) async {
        let controller = UIActivityViewController(activityItems: [text], applicationActivities: nil)
        var line = "PROBE-APP save"
        controller.completionWithItemsHandler = { type, completed, _, error in
            line += " completed=\(completed) type=\(type?.rawValue ?? "nil") error=\(error.map { "\($0)" } ?? "nil")"
        }
        do {
            try await controller.perform(
                UIActivity.ActivityType(rawValue: "com.apple.DocumentManagerUICore.SaveToFiles"), on: nil)
        } catch {
            line += " failed=\(error)"
        }
        print(line)
    }

    /// Copy from the app's own share sheet, then what UIPasteboard.general reads.
    @MainActor
    static func copy(_ text: String) async {
        let controller = UIActivityViewController(activityItems: [text], applicationActivities: nil)
        var line = "PROBE-APP copy"
        controller.completionWithItemsHandler = { type, completed, _, error in
            line += " completed=\(completed) type=\(type?.rawValue ?? "nil") error=\(error.map { "\($0)" } ?? "nil")"
        }
        do {
            try await controller.perform(.copyToPasteboard, on: nil)
        } catch {
            line += " failed=\(error)"
        }
        print(line + " pasteboard=\(UIPasteboard.general.string ?? "nil")")
    }

    @MainActor
    static func say(_ type: String, text: String, file: IntentFile?) {
        print(
            "PROBE-APP intent \(type) text=\(text) file=\(file?.filename ?? "nil") bytes=\(file?.data.count ?? 0) "
                + "type=\(file?.type?.identifier ?? "nil") scenes=\(UIApplication.shared.connectedScenes.count)")
    }
}

UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self))
