public import AppGroups
public import Foundation
import HostSystem

/// `exthost import` as a library: read the project, plan, write the Swift package into
/// `.exthost/`, build it with `swift build`, assemble the `.app` with its `PlugIns/*.appex`, and
/// install it on a device. The CLI only maps options and renders the ``ImportReport``.
public enum ProjectImport {
    /// What the import is told.
    public struct Options: Sendable {
        /// An `.xcodeproj`, an `.xcworkspace`, or a folder holding one (or an `ios/` folder that does).
        public var path: URL
        public var configuration: String = "Debug"
        /// The application target (default: the one that embeds app extensions).
        public var app: String?
        /// Where the package goes (default: `.exthost/` beside the `.xcodeproj`).
        public var output: URL?
        /// exthost's package, which the generated one depends on by path.
        public var exthostPackage: URL
        /// The folders searched for the `swift` program that builds the package (`PATH`).
        public var searchPath: [String]
        /// `swift build --scratch-path` (default: `.build` in the package). Projects imported with
        /// the same one build exthost's modules once.
        public var buildPath: URL?
        /// The device the app is installed on.
        public var device: DeviceRoot

        public init(path: URL, exthostPackage: URL, searchPath: [String], device: DeviceRoot) {
            self.path = path
            self.exthostPackage = exthostPackage
            self.searchPath = searchPath
            self.device = device
        }
    }

    /// The file beside the package recording what the last import built, to skip unchanged work.
    static let stateFile = "import-state.json"

    /// Imports the project as ``Options`` say. Nothing is written before the project has been read
    /// and checked in full; nothing is installed unless the build succeeded.
    /// - Parameter progress: called with a line for each step (building, installing).
    /// - Throws: ``XcodeProjectError``: input (exit 2) for anything wrong with the project, failed
    ///   (exit 1) when writing, building or installing fails.
    public static func run(_ options: Options, progress: @Sendable (String) -> Void = { _ in })
        async throws(XcodeProjectError) -> ImportReport
    {
        let clock = ContinuousClock()
        let start = clock.now
        let projectURL = try XcodeProject.locate(options.path)
        let project = try XcodeProject.read(projectURL, configuration: options.configuration)
        let plan = try ImportPlan.make(project, app: options.app)
        let output = (options.output ?? projectURL.deletingLastPathComponent().appendingPathComponent(".exthost"))
            .standardizedFileURL
        let generated = PackageWriter(plan: plan, exthost: options.exthostPackage)
        // A rebuilt exthost (its checkout changed) imports afresh.
        let program = Bundle.main.executablePath ?? ""
        let attributes = (try? FileManager.default.attributesOfItem(atPath: program)) ?? [:]
        let salt =
            "\(program) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) "
            + "\(attributes[.size] as? Int ?? 0)"
        let fingerprint = try generated.fingerprint(salt: salt)
        let previous = ImportState.load(output.appendingPathComponent(stateFile))
        let installedPath = options.device.bundlesURL.appendingPathComponent(plan.app.bundleName)
        var report = ImportReport(plan: plan, output: output, device: options.device)

        let upToDate =
            previous?.fingerprint == fingerprint && previous?.device == options.device.url.path
            && FileManager.default.fileExists(atPath: installedPath.appendingPathComponent("Info.plist").path)
        if upToDate {
            report.unchanged = true
            report.seconds.total = Self.seconds(clock.now - start)
            return report
        }
        do {
            try generated.write(into: output)
        } catch {
            throw XcodeProjectError(.failed, "cannot write the package into \(output.path): \(error)")
        }
        progress("building \(output.path) (swift build)")
        let buildStart = clock.now
        let scratch = options.buildPath ?? output.appendingPathComponent(".build")
        guard
            let swift = options.searchPath.map({ $0 + "/swift" }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw XcodeProjectError(
                .failed,
                "no 'swift' program in \(options.searchPath.joined(separator: ":")) to build \(output.path) with")
        }
        // Diagnostics name the links in the package; the listing names the project's own files.
        var originals: [String: String] = [:]
        for product in ([plan.app] + plan.extensions).filter(\.built) {
            for source in product.sources where source.adaptation == nil {
                let link = output.appendingPathComponent("Sources/\(product.module)/\(source.relativePath)").path
                originals[link] = source.url.path
            }
        }
        try await build(output, scratch: scratch, swift: swift, originals: originals, localPackages: plan.localPackages)
        report.seconds.build = Self.seconds(clock.now - buildStart)

        progress("installing \(plan.app.bundleName) on \(options.device.url.path)")
        let bundle = output.appendingPathComponent("Bundles").appendingPathComponent(plan.app.bundleName)
        do {
            try generated.assemble(at: bundle)
        } catch {
            throw XcodeProjectError(.failed, "cannot assemble \(bundle.path): \(error)")
        }
        do {
            report.install = try options.device.install(
                appAt: bundle, productDirectories: [scratch.appendingPathComponent("debug")])
        } catch let error as AppGroupError {
            throw XcodeProjectError(error.code == .invalidBundle ? .input : .failed, error.description)
        } catch {
            throw XcodeProjectError(.failed, "cannot install \(bundle.path): \(error)")
        }
        ImportState(fingerprint: fingerprint, device: options.device.url.path).save(
            output.appendingPathComponent(stateFile))
        report.seconds.total = Self.seconds(clock.now - start)
        return report
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `swift build --package-path DIR --scratch-path SCRATCH`, its output in `DIR/build.log`.
    /// - Throws: ``XcodeProjectError``: input (exit 2) naming the local package whose files the
    ///   errors are in (it does not build on Linux); otherwise failed, with the log's last lines.
    static func build(
        _ package: URL, scratch: URL, swift: String, originals: [String: String], localPackages: [LocalPackage] = []
    ) async throws(XcodeProjectError) {
        let logURL = package.appendingPathComponent("build.log")
        let log: FileDescriptor
        do {
            log = try FileDescriptor.open(logURL.path, [.writeOnly, .create, .truncate])
        } catch {
            throw XcodeProjectError(.failed, "cannot write \(logURL.path): \(error)")
        }
        // SwiftPM (6.3.1) reuses the build plan of the last package built in a scratch path when that
        // build failed, so a project imported next with the same --build-path builds the other one's
        // targets (observed: a broken local package failed every later import). When the scratch path
        // last built another package, its plan (debug.yaml) is removed first: SwiftPM plans afresh,
        // and what it compiled stays.
        let marker = scratch.appendingPathComponent("exthost-import-package")
        if (try? String(contentsOf: marker, encoding: .utf8)) != package.path {
            try? FileManager.default.removeItem(at: scratch.appendingPathComponent("debug.yaml"))
            try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try? Data(package.path.utf8).write(to: marker, options: .atomic)
        }
        var spawn = Spawn(
            executable: swift, arguments: ["build", "--package-path", package.path, "--scratch-path", scratch.path])
        spawn.descriptors = [1: log, 2: log]
        let status: TerminationStatus
        do {
            (_, status) = try await withChildProcess(spawn) { child in await child.exitStatus() }
        } catch {
            try? log.close()
            throw XcodeProjectError(.failed, "cannot run \(swift) build: \(error)")
        }
        try? log.close()
        guard status == .exited(0) else {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            let relevant = text.split(separator: "\n").filter { $0.contains("error:") && !$0.hasPrefix(" ") }
            let lines = (relevant.isEmpty ? text.split(separator: "\n").suffix(20) : relevant.prefix(20)).map { line in
                var line = String(line)
                for (link, original) in originals where line.hasPrefix(link + ":") {
                    line = original + line.dropFirst(link.count)
                }
                return line
            }
            if let local = localPackages.first(where: { local in
                relevant.contains { $0.hasPrefix(local.url.path + "/") }
            }) {
                throw XcodeProjectError(
                    .input,
                    "the local package \(local.identity) (\(local.url.path)) does not build on Linux; the whole log is "
                        + "\(logURL.path):\n  "
                        + relevant.filter { $0.hasPrefix(local.url.path + "/") }.prefix(20).joined(separator: "\n  "))
            }
            throw XcodeProjectError(
                .failed,
                "swift build failed (\(status)); the whole log is \(logURL.path):\n  "
                    + lines.joined(separator: "\n  "))
        }
    }
}

/// What the last import built, beside the package.
struct ImportState: Codable {
    var fingerprint: String
    var device: String

    static func load(_ url: URL) -> ImportState? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(ImportState.self, from: data)
    }

    func save(_ url: URL) {
        if let data = try? JSONEncoder().encode(self) { try? data.write(to: url, options: .atomic) }
    }
}

/// What `exthost import` found, did and measured.
public struct ImportReport: Codable, Sendable {
    public struct Target: Codable, Sendable {
        public var name: String
        public var productType: String
        public var module: String
        public var languageMode: String
        public var bundleIdentifier: String
        public var bundleName: String
        public var swiftFiles: [String]
        public var resources: [String]
        public var settings: [String: String]
        /// False for an app installed without its program (see ``ImportReport/notes``).
        public var built: Bool
    }

    public struct Seconds: Codable, Sendable {
        public var build: Double?
        public var total: Double = 0
    }

    public var project: String
    public var configuration: String
    public var output: String
    public var device: String
    public var app: Target
    public var extensions: [Target]
    public var adaptations: [AdaptedLine]
    public var notes: [String]
    public var skippedTargets: [String]
    /// True when nothing changed since the last import: nothing was written, built or installed.
    public var unchanged = false
    public var install: InstallReport?
    public var seconds = Seconds()

    init(plan: ImportPlan, output: URL, device: DeviceRoot) {
        func target(_ product: ImportPlan.Product) -> Target {
            Target(
                name: product.target, productType: product.productType.rawValue, module: product.module,
                languageMode: product.languageMode, bundleIdentifier: product.bundleIdentifier,
                bundleName: product.bundleName, swiftFiles: product.sources.map(\.url.path),
                resources: product.resources.map(\.path), settings: product.settingsUsed, built: product.built)
        }
        project = plan.project.url.path
        configuration = plan.project.configuration
        self.output = output.path
        self.device = device.url.path
        app = target(plan.app)
        extensions = plan.extensions.map(target)
        adaptations = plan.adaptedLines
        notes = plan.project.notes
        skippedTargets = plan.project.skippedTargets.map { "\($0.name) (\($0.productType))" }
    }
}
