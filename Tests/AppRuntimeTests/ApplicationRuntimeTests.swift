import AppGroups
import ExtHostTestSupport
import ExtensionHost
import ExtensionIPC
import Foundation
import HostSystem
import Testing

/// The app runtime in a real app process (`exthost-probe-app`, written only against Foundation and
/// UIKit, which finds the runtime by name): a launch URL reaches the entry point iOS uses for the
/// app's shape, and an intent arrives as the app's own intent class.
@Suite(.timeLimit(.minutes(2)))
struct ApplicationRuntimeTests {
    /// Runs the probe, installed with `sceneDelegate`, cold with `options`.
    static func run(sceneDelegate: String?, _ options: AppLaunchOptions) async throws -> AppRunReport {
        let root = try TestSupport.scratchRoot("app-runtime")
        defer { try? FileManager.default.removeItem(at: root) }
        try TestSupport.installProbeApp(on: root, sceneDelegate: sceneDelegate)
        let launcher = try #require(InstalledPrograms.nextToExecutable()?.launcher)
        return try await ExtensionHost.runApp(
            "com.example.probe", on: DeviceRoot(url: root), launcher: launcher, options: options)
    }

    static func opening(_ url: String) -> AppLaunchOptions {
        var options = AppLaunchOptions()
        options.urlContexts = [
            OpenURLContextDescription(url: url, openInPlace: false, sourceApplication: "com.example.sender")
        ]
        return options
    }

    @Test func aLaunchURLReachesWillConnectToOfTheScene() async throws {
        let report = try await Self.run(sceneDelegate: "FullSceneDelegate", Self.opening("probe://card/alice"))
        #expect(report.succeeded && report.ranLifeCycle, "\(report.output)")
        #expect(report.launchDelivery?.method == .willConnectTo, "\(report)")
        #expect(
            report.output.contains("PROBE-APP willConnectTo alice inPlace=false source=com.example.sender"),
            "\(report.output)")
    }

    @Test func anAppWithoutScenesGetsTheURLInApplicationOpen() async throws {
        let report = try await Self.run(sceneDelegate: nil, Self.opening("probe://card/bob"))
        #expect(report.launchDelivery?.method == .applicationOpen, "\(report)")
        #expect(report.output.contains("PROBE-APP application-open bob"), "\(report.output)")
    }

    @Test func aSceneThatNeverReadsTheURLContextsLosesTheURLAndSaysWhere() async throws {
        let report = try await Self.run(sceneDelegate: "WarmOnlySceneDelegate", Self.opening("probe://card/carol"))
        #expect(report.launchDelivery?.method == .lost, "\(report)")
        #expect(report.launchDelivery?.detail.contains("never read connectionOptions.urlContexts") == true, "\(report)")
    }

    @Test func anIntentArrivesAsTheAppsOwnIntentClass() async throws {
        var options = AppLaunchOptions()
        options.userActivities = [
            UserActivityDescription(
                activityType: "ProbeTextIntent", intentClassName: "ProbeTextIntent",
                parameters: [IntentParameterValue(name: "text", kind: "string", string: "typed")])
        ]
        let report = try await Self.run(sceneDelegate: "FullSceneDelegate", options)
        #expect(report.launchDelivery?.method == .userActivities, "\(report)")
        #expect(
            report.output.contains("PROBE-APP userActivities ProbeTextIntent ProbeTextIntent text=typed"),
            "\(report.output)")
    }
}
