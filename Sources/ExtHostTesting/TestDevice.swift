@_exported public import AppGroups
@_exported public import ExtensionHost
import ExtensionIPC
public import Foundation
import HostSystem
import LaunchServices

/// A fresh emulated device for one test: install your app, share items with its extension through
/// the real pipeline (a separate, sandboxed, memory-limited process), run the app, and read what
/// it reads from its App Group.
///
/// ```swift
/// import ExtHostTesting
/// import Testing
///
/// @Test func savesThePhoto() async throws {
///     let device = try TestDevice()
///     defer { device.remove() }
///     try device.install(appAt: TestDevice.packageDirectory.appendingPathComponent("MyApp.app"))
///     let report = try await device.share(itemsAt: itemsFolder)
///     #expect(report.completed)
///     #expect(try device.inbox(group: "group.com.example.myapp").count == 1)
/// }
/// ```
///
/// The test target depends on `ExtHostTesting` and on the `exthost-sandbox-exec` product (so the
/// launcher is built beside the tests), and on the targets of the programs the app bundle names.
public struct TestDevice: Sendable {
    /// The device's root (a fresh folder under the temporary directory).
    public let root: DeviceRoot
    /// Where `swift build` put the programs (the test bundle's own directory).
    public let products: URL
    /// The sandbox launcher the next share takes, started when the previous one ended so that its
    /// move into a memory cgroup (the kernel's slowest step of a launch) is off the next share's path.
    private let nextLauncher = Locked<PreparedLauncher?>(nil)

    /// A new, empty device.
    /// - Throws: ``TestDeviceError`` when the sandbox launcher is not built beside the tests.
    public init() throws {
        guard let directory = SiblingExecutable.directory else {
            throw TestDeviceError("cannot tell where the test bundle is (/proc/self/exe is unreadable)")
        }
        products = URL(fileURLWithPath: directory, isDirectory: true)
        guard InstalledPrograms.nextToExecutable() != nil else {
            throw TestDeviceError(
                "exthost-sandbox-exec is not built in \(directory): add .product(name: \"exthost-sandbox-exec\", "
                    + "package: \"exthost\") to the test target's dependencies")
        }
        root = DeviceRoot(
            url: FileManager.default.temporaryDirectory.appendingPathComponent(
                "exthost-test-device-\(UUID().uuidString)"))
        do {
            try FileManager.default.createDirectory(at: root.bundlesURL, withIntermediateDirectories: true)
        } catch {
            throw TestDeviceError("cannot make a device at \(root.url.path): \(error)")
        }
    }

    /// Removes the device and everything on it (and ends the launcher kept for its next share).
    public func remove() {
        nextLauncher.withLock { launcher in
            launcher?.discardInBackground()
            launcher = nil
        }
        try? FileManager.default.removeItem(at: root.url)
    }

    /// The package being tested: the folder above `.build` (where `MyApp.app` usually sits).
    public static var packageDirectory: URL {
        var url = URL(fileURLWithPath: SiblingExecutable.directory ?? FileManager.default.currentDirectoryPath)
        while url.path != "/" {
            if url.lastPathComponent == ".build" { return url.deletingLastPathComponent() }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// Installs the app bundle at `appURL`, taking its programs from ``products``.
    /// - Throws: `AppGroupError` naming the file when the bundle is bad.
    @discardableResult
    public func install(appAt appURL: URL) throws -> InstallReport {
        try root.install(appAt: appURL, productDirectories: [products])
    }

    /// Shares the items at `url` (a folder, an archive, a file, or a folder with `share.json`) with
    /// the installed extension `extensionIdentifier` (default: the first installed one).
    /// - Parameters:
    ///   - url: the items.
    ///   - extensionIdentifier: the extension's bundle identifier (nil: the first installed).
    ///   - rule: an activation rule file to use instead of the extension's.
    ///   - lenient: open-in-place files readable without a started scope (the simulator).
    ///   - limits: the extension's limits (default: a device's).
    ///   - shuffleLoads: a seed that shuffles the order in which loads complete.
    /// - Throws: `ShareError` when the share cannot start.
    @MainActor
    public func share(
        itemsAt url: URL, extension extensionIdentifier: String? = nil, rule: URL? = nil, lenient: Bool = false,
        limits: ExtensionLimits = ExtensionLimits(), shuffleLoads: UInt64? = nil
    ) async throws -> ShareReport {
        try await share(.path(url), extensionIdentifier, rule, lenient, limits, shuffleLoads)
    }

    /// Shares a named preset of a real app's share (`safari-webpage`, `files-app-document`, …), with
    /// the options of ``share(itemsAt:extension:rule:lenient:limits:shuffleLoads:)``.
    /// - Parameters:
    ///   - preset: the preset's name.
    ///   - extensionIdentifier: the extension's bundle identifier (nil: the first installed).
    ///   - rule: an activation rule file to use instead of the extension's.
    ///   - lenient: open-in-place files readable without a started scope.
    ///   - limits: the extension's limits.
    ///   - shuffleLoads: a seed that shuffles the order in which loads complete.
    /// - Throws: `ShareError` when the share cannot start.
    @MainActor
    public func share(
        preset: String, extension extensionIdentifier: String? = nil, rule: URL? = nil, lenient: Bool = false,
        limits: ExtensionLimits = ExtensionLimits(), shuffleLoads: UInt64? = nil
    ) async throws -> ShareReport {
        try await share(.preset(preset), extensionIdentifier, rule, lenient, limits, shuffleLoads)
    }

    @MainActor
    private func share(
        _ items: ShareRequest.Items, _ extensionIdentifier: String?, _ rule: URL?, _ lenient: Bool,
        _ limits: ExtensionLimits, _ shuffleLoads: UInt64?
    ) async throws -> ShareReport {
        var request = ShareRequest(
            items: items, root: root, extensionBundle: try extensionBundle(extensionIdentifier),
            programs: try programs())
        request.ruleFile = rule
        request.lenient = lenient
        request.limits = limits
        request.shuffleLoadsSeed = shuffleLoads
        request.preparedLauncher = nextLauncher.withLock { launcher in
            defer { launcher = nil }
            return launcher
        }
        defer {
            // Ready for the next share (a test's shares come one after another).
            let next = PreparedLauncher.start(launcher: request.launcher, limits: limits)
            nextLauncher.withLock { launcher in
                launcher?.discardInBackground()
                launcher = next
            }
        }
        return try await ExtensionHost.share(request)
    }

    /// Runs the installed app `bundleIdentifier`'s program as the device would.
    /// - Throws: `ShareError` when it is not installed or holds no program.
    public func runApp(_ bundleIdentifier: String, arguments: [String] = []) async throws -> AppRunReport {
        let programs = try programs()
        var options = AppLaunchOptions(programs: programs)
        options.arguments = arguments
        return try await ExtensionHost.runApp(bundleIdentifier, on: root, launcher: programs.launcher, options: options)
    }

    /// Opens the file at `url` as the Files app's Open With does (`exthost open`): iOS's choice of
    /// app (or `app`), the file handed over (a copy in the app's `Documents/Inbox`, or the original
    /// for an app that opens documents in place), and the URL delivered to the app's process —
    /// warm inside ``withRunningApp(_:_:)``, else cold by launching it.
    /// `source` reaches the app as `options.sourceApplication` only when it is installed with the
    /// receiver's team ID (nil otherwise, as on iOS).
    /// - Throws: ``TestDeviceError`` when no installed app opens the file; `ShareError` when the app
    ///   cannot run.
    public func open(fileAt url: URL, with app: String? = nil, from source: String? = nil) async throws -> AppOpenReport
    {
        let bundles = InstalledBundles(root: root)
        guard let chosen = app ?? bundles.handlers(forFile: url).chosen else {
            throw TestDeviceError("no installed app opens \(url.lastPathComponent)")
        }
        let delivery = try bundles.deliver(file: url, to: chosen, on: root)
        let programs = try programs()
        return try await AppLaunchServer.deliver(
            [
                OpenURLContextDescription(
                    url: delivery.url, openInPlace: delivery.openInPlace,
                    sourceApplication: bundles.sourceApplication(from: source, to: chosen).value)
            ],
            to: chosen, on: root, launcher: programs.launcher, options: AppLaunchOptions(programs: programs))
    }

    /// Launches the app `bundleIdentifier` and keeps it running while `body` runs (as `exthost app
    /// launch` does), so ``open(fileAt:with:from:)`` delivers to it warm; then terminates it.
    /// - Returns: how the app ran, with each URL it was sent.
    /// - Throws: `ShareError` when it cannot run; what `body` throws.
    public func withRunningApp(
        _ bundleIdentifier: String, _ body: @escaping @Sendable (RunningApp) async throws -> Void
    ) async throws -> AppRunReport {
        let programs = try programs()
        var options = AppLaunchOptions(programs: programs)
        options.keepRunning = true
        let failure = Locked<(any Error)?>(nil)
        let root = self.root
        let report = try await ExtensionHost.runApp(
            bundleIdentifier, on: root, launcher: programs.launcher, options: options
        ) { app in
            // Clients reach the app once its socket is bound; serving answers them meanwhile.
            let listener: AppListener
            do {
                listener = try AppLaunchServer.listen(app, on: root)
            } catch {
                failure.withLock { $0 = TestDeviceError("cannot listen for \(bundleIdentifier): \(error)") }
                return
            }
            let serving = Task { await listener.serve() }
            do { try await body(app) } catch { failure.withLock { $0 = error } }
            listener.stop()
            await serving.value
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return report
    }

    private func programs() throws -> InstalledPrograms {
        guard let programs = InstalledPrograms.nextToExecutable() else {
            throw TestDeviceError("exthost-sandbox-exec is not built beside the tests")
        }
        return programs
    }

    /// The entries committed to `group` that the installed app entitled to it has not consumed —
    /// what `exthost app inbox` lists.
    /// - Throws: `AppGroupError`.
    public func inbox(group: String) throws -> [InboxItem] {
        let identifier = try AppGroupIdentifier(validating: group)
        let app = try appEntitled(to: identifier)
        return try AppGroupInbox(group: identifier, app: app, root: root).pending()
    }

    /// The group's shared defaults suite (`UserDefaults(suiteName: group)`), as property-list values.
    /// - Throws: `AppGroupError`.
    public func defaults(group: String) throws -> [String: Any] {
        let identifier = try AppGroupIdentifier(validating: group)
        let store = try AppGroupStore.inspect(identifier, root: root)
        return try store.defaults().dictionary().mapValues(\.propertyList)
    }

    /// The container of `group`, when it exists.
    public func groupContainer(_ group: String) -> URL? {
        root.existingContainer(.appGroup, identifier: group)?.url
    }

    private func extensionBundle(_ identifier: String?) throws -> URL {
        let bundles = root.bundleURLs().filter { $0.pathExtension == "appex" }
        guard let identifier else {
            guard let first = bundles.first else { throw TestDeviceError("no extension is installed on the device") }
            return first
        }
        guard let bundle = root.installedBundle(identifier, pathExtension: "appex") else {
            throw TestDeviceError("no extension '\(identifier)' is installed on the device")
        }
        return bundle
    }

    private func appEntitled(to group: AppGroupIdentifier) throws -> BundleIdentity {
        let apps = root.bundleURLs().filter { $0.pathExtension == "app" }.compactMap {
            try? BundleIdentity.load(bundle: $0)
        }
        guard let app = apps.first(where: { $0.isEntitled(to: group) }) else {
            throw TestDeviceError("no installed app is entitled to \(group)")
        }
        return app
    }
}

/// Why a ``TestDevice`` cannot do what was asked.
public struct TestDeviceError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var description: String

    init(_ description: String) { self.description = description }
}
