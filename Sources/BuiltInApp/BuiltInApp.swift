import Foundation
import Intents
import UIKit

/// The app exthost runs for an installed app bundle that has no program of its own (the demo's
/// CardDrop and Reader): written only against Apple's names, it keeps every file it receives in
/// `Documents/Received` — moving an Inbox copy out of the Inbox, as Apple advises, and copying an
/// in-place original inside its security scope — and lists what it holds at every launch.
///
/// It implements both URL entry points of a scene (`scene(_:willConnectTo:options:)` for a cold
/// start, `scene(_:openURLContexts:)` while it runs) and `application(_:open:options:)` for a
/// bundle without a scene manifest: the fixed version of the bug exthost reports.
public enum BuiltInApp {
    /// The file name of the program that runs it.
    public static let programName = "exthost-builtin-app"
    /// The command word the host starts that program with (ExtensionHost's `InstalledPrograms.Role.app`).
    public static let commandWord = "__app"

    /// Runs the app (`exthost-builtin-app __app`, on the main thread); returns the exit status.
    @MainActor
    public static func main() -> Int32 {
        UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self))
    }
}

/// The app delegate.
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Received.list()
        return true
    }

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
        Received.keep(url, inPlace: options[.openInPlace] as? Bool ?? false)
    }

    func application(
        _ application: UIApplication, continue userActivity: NSUserActivity,
        restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void
    ) -> Bool {
        Received.keep(userActivity)
    }
}

/// The scene delegate (named by the bundle's `UIApplicationSceneManifest`).
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        window = UIWindow(windowScene: windowScene)
        window?.makeKeyAndVisible()
        for context in connectionOptions.urlContexts {
            _ = Received.keep(context.url, inPlace: context.options.openInPlace)
        }
        for activity in connectionOptions.userActivities { _ = Received.keep(activity) }
    }

    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
        _ = Received.keep(userActivity)
    }

    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        for context in URLContexts { _ = Received.keep(context.url, inPlace: context.options.openInPlace) }
    }
}

/// `Documents/Received`.
@MainActor
enum Received {
    static var folder: URL { URL.documentsDirectory.appendingPathComponent("Received", isDirectory: true) }

    /// Prints what the app holds.
    static func list() {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        print("\(names.count) received file\(names.count == 1 ? "" : "s") in Documents/Received")
        for name in names {
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[
                .size]
            print("  \(name) (\((size as? NSNumber)?.intValue ?? 0) bytes)")
        }
    }

    /// Keeps the file at `url`: moved out of the Inbox, or copied from the original in its scope.
    static func keep(_ url: URL, inPlace: Bool) -> Bool {
        guard url.isFileURL else {
            print("opened \(url.absoluteString)")
            return true
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let target = unique(url.lastPathComponent)
            if inPlace {
                guard url.startAccessingSecurityScopedResource() else {
                    print("cannot open \(url.lastPathComponent) in place: its security scope was refused")
                    return false
                }
                defer { url.stopAccessingSecurityScopedResource() }
                try Data(contentsOf: url).write(to: target, options: .atomic)
            } else {
                try FileManager.default.moveItem(at: url, to: target)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: target.path))?[.size] as? NSNumber
            print(
                "received \(target.lastPathComponent) (\(size?.intValue ?? 0) bytes, "
                    + "\(inPlace ? "read in place" : "moved out of Documents/Inbox"))")
            return true
        } catch {
            print("cannot keep \(url.lastPathComponent): \(error.localizedDescription)")
            return false
        }
    }

    /// Keeps what a Shortcuts intent carries: each text parameter as a `.txt`, each file as itself.
    static func keep(_ activity: NSUserActivity) -> Bool {
        guard let intent = activity.interaction?.intent else {
            print("activity \(activity.activityType) carries no intent")
            return false
        }
        var kept: [String] = []
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, value) in intent.parameterValues.sorted(by: { $0.key < $1.key }) {
                if let file = value as? INFile {
                    let target = unique(file.filename)
                    try file.data.write(to: target, options: .atomic)
                    kept.append(
                        "\(name)=\(target.lastPathComponent) (\(file.typeIdentifier ?? "?"), \(file.data.count) bytes)")
                } else if let text = value as? String {
                    let target = unique("\(name).txt")
                    try Data(text.utf8).write(to: target, options: .atomic)
                    kept.append("\(name)=\"\(text)\" as \(target.lastPathComponent)")
                }
            }
        } catch {
            print("cannot keep the intent's parameters: \(error.localizedDescription)")
            return false
        }
        print("received intent \(activity.activityType): \(kept.joined(separator: ", "))")
        return true
    }

    private static func unique(_ name: String) -> URL {
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var candidate = folder.appendingPathComponent(name)
        var index = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent(ext.isEmpty ? "\(base)-\(index)" : "\(base)-\(index).\(ext)")
            index += 1
        }
        return candidate
    }
}
