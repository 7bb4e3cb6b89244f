import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem

/// Handing URLs to an app's process: the launch options every command uses (the built-in app for
/// bundles without a program), delivery warm or cold, and its one-line summary.
enum AppHandOff {
    /// Launch options with the built-in app (`exthost-builtin-app __app`) for bundles without a program.
    /// - Throws: ``CommandError`` when the exthost executable is not found.
    static func options(_ programs: InstalledPrograms) throws -> AppLaunchOptions {
        _ = try Executables.exthost(of: programs)
        return AppLaunchOptions(programs: programs)
    }

    /// Runs `body`, turning a ``ShareError`` into the command's exit code (2 bad input, 1 otherwise).
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ShareError {
            throw CommandError(error)
        }
    }

    /// Delivers `contexts` to `bundle`: to the running app (warm), or by launching it (cold).
    static func deliver(
        _ contexts: [OpenURLContextDescription], userActivities: [UserActivityDescription] = [],
        appIntent: AppIntentInvocation? = nil, to bundle: String, on root: DeviceRoot
    ) async throws -> AppOpenReport {
        let programs = try Executables.programs()
        var options = try options(programs)
        options.appIntent = appIntent
        return try await mapped {
            try await AppLaunchServer.deliver(
                contexts, userActivities: userActivities, to: bundle, on: root, launcher: programs.launcher,
                options: options)
        }
    }

    /// `delivered cold to BUNDLE (pid N) through scene(_:willConnectTo:options:): …` or `LOST …`.
    static func line(_ delivery: AppDelivery, start: String, bundle: String, pid: Int? = nil) -> String {
        let process = pid.map { " (pid \($0))" } ?? ""
        switch delivery.method {
        case .lost:
            return "LOST: \(bundle)\(process), started \(start), never received it — \(delivery.detail)"
        case .willConnectTo:
            return
                "delivered \(start) to \(bundle)\(process) through scene(_:willConnectTo:options:) (connectionOptions.urlContexts)"
        case .openURLContexts:
            return "delivered \(start) to \(bundle)\(process) through scene(_:openURLContexts:)"
        case .applicationOpen:
            return
                "delivered \(start) to \(bundle)\(process) through application(_:open:options:), which returned \(delivery.handled)"
        case .userActivities:
            return
                "delivered \(start) to \(bundle)\(process) through scene(_:willConnectTo:options:) (connectionOptions.userActivities)"
        case .sceneContinue:
            return "delivered \(start) to \(bundle)\(process) through scene(_:continue:)"
        case .applicationContinue:
            return
                "delivered \(start) to \(bundle)\(process) through application(_:continue:restorationHandler:), which returned \(delivery.handled)"
        case .perform, .performInBackground:
            return "performed \(start) in \(bundle)\(process): \(delivery.detail)"
        }
    }

    /// `sourceApplication: com.example.sender — why`, or `sourceApplication: nil — why`.
    static func sourceLine(_ source: String?, reason: String? = nil) -> String {
        "sourceApplication: \(source ?? "nil")" + (reason.map { " — \($0)" } ?? "")
    }

    /// `refused: WHY` for each call the app's sandbox refused with a reason (a write to its Inbox copy).
    static func refusalLines(_ app: AppOpenReport) -> [String] {
        (app.run?.refusals ?? []).map { "refused: \($0)" }
    }

    /// Calls `stop` on SIGINT or SIGTERM (which then no longer end the process) while the
    /// returned value lives.
    static func stopOnSignals(_ stop: @escaping @Sendable () -> Void) -> SignalHandlers {
        SignalHandlers([.interrupt, .terminate], stop)
    }
}
