public import AppGroups
import ExtensionIPC
import Foundation
import HostSystem

/// How an installed app's program ran (`exthost app run`).
public struct AppRunReport: Codable, Sendable {
    /// The app.
    public var bundleIdentifier: String
    /// The program that ran.
    public var executable: String
    /// Its process id.
    public var pid: Int
    /// How it ended (`exited 0`, `killed by SIGKILL`).
    public var exitStatus: String
    /// Whether it exited 0.
    public var succeeded: Bool
    /// Its standard output and error, interleaved.
    public var output: String
    /// Whether Landlock confined it.
    public var sandboxEnforced: Bool
}

extension ExtensionHost {
    /// Runs the program of the app `bundleIdentifier` installed on `root`, as the device would run
    /// the app: in its own data container (`HOME`, `TMPDIR`), entitled to its App Groups (so
    /// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` and
    /// `UserDefaults(suiteName:)` answer as on a device), confined by the same launcher as an
    /// extension: read-only its bundle and the runtime, read-write its containers, nothing else.
    ///
    /// - Parameters:
    ///   - arguments: passed to the program.
    ///   - timeout: the program is killed after this long.
    /// - Throws: ``ShareError`` when the app is not installed or holds no program.
    public static func runApp(
        _ bundleIdentifier: String, on root: DeviceRoot, launcher: String, arguments: [String] = [],
        timeout: Duration = .seconds(60)
    ) async throws(ShareError) -> AppRunReport {
        guard let bundle = root.installedBundle(bundleIdentifier, pathExtension: "app") else {
            throw ShareError(badInput: true, "no app '\(bundleIdentifier)' is installed on \(root.url.path)")
        }
        let identity: BundleIdentity
        let container: ContainerInfo
        var groups: [String: String] = [:]
        do {
            identity = try BundleIdentity.load(bundle: bundle)
            container = try root.dataContainer(for: identity)
            for name in identity.applicationGroups {
                guard let group = AppGroupIdentifier(rawValue: name) else { continue }
                groups[name] = try root.groupContainer(group, as: identity).url.path
            }
            try FileManager.default.createDirectory(
                at: container.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        } catch {
            throw ShareError(badInput: true, "\(error)")
        }
        guard let program = InstalledBundle.executable(of: bundle) else {
            throw ShareError(badInput: true, "\(bundle.path) holds no program (CFBundleExecutable)")
        }
        let process = ProcessEnvironment(
            bundleIdentifier: identity.bundleIdentifier, bundlePath: bundle.path, containerPath: container.url.path,
            groupContainers: groups, rootPath: root.url.path,
            declarationFiles: [bundle.appendingPathComponent("Info.plist").path])
        var launch = ExtensionLaunch(
            executable: program.path, arguments: arguments, launcher: launcher, process: process)
        launch.extraReadOnlyPaths = [bundle.path]
        do {
            let output = try FileDescriptor.pipe()
            let report = try FileDescriptor.pipe()
            var spawn = launch.policy().spawn(
                launcher: launcher, program: program.path, arguments: arguments, socket: nil, report: report.writeEnd,
                standardOutput: output.writeEnd, standardError: output.writeEnd)
            spawn.environment = launch.environmentEntries()
            spawn.workingDirectory = container.url.path
            let outputCapture = OutputCapture(reading: output.readEnd, keepingAtMost: 4 << 20)
            let reportCapture = OutputCapture(reading: report.readEnd, keepingAtMost: 4096)
            let (pid, status) = try await withChildProcess(spawn, teardown: Teardown(gracePeriod: .milliseconds(200))) {
                child in
                try? output.writeEnd.close()
                try? report.writeEnd.close()
                if await !child.waitForTermination(timeout: timeout) { try? child.send(.kill) }
                return child.pid
            }
            let text = (try? await outputCapture.output().text) ?? ""
            let sandbox = SandboxReport(parsing: (try? await reportCapture.output().text) ?? "")
            return AppRunReport(
                bundleIdentifier: identity.bundleIdentifier, executable: program.path, pid: Int(pid.rawValue),
                exitStatus: "\(status)", succeeded: status.isSuccess, output: text,
                sandboxEnforced: sandbox?.isEnforced ?? false)
        } catch {
            throw ShareError(badInput: false, "cannot run \(program.path): \(error)")
        }
    }
}
