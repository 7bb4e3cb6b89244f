public import Foundation
import HostSystem

/// The emulated device's `Containers/` folder: bundles, and the data and group containers laid out
/// as on a simulator (`Data/Application/<UUID>`, `Data/PluginKitPlugin/<UUID>`,
/// `Shared/AppGroup/<UUID>`).
public struct DeviceRoot: Sendable, Hashable {
    /// The root directory.
    public let url: URL

    /// A root at `url` (created on first container creation).
    public init(url: URL) { self.url = url.standardizedFileURL }

    /// `Bundles/` (checked-in `.app` bundles with their `PlugIns/*.appex`).
    public var bundlesURL: URL { url.appendingPathComponent("Bundles") }

    // MARK: - Lookup

    /// Every container of `kind` (all kinds when nil), sorted by kind then identifier. Directories
    /// without readable metadata are skipped.
    public func containers(of kind: ContainerKind? = nil) -> [ContainerInfo] {
        let kinds = kind.map { [$0] } ?? ContainerKind.allCases
        var found: [ContainerInfo] = []
        for kind in kinds {
            let directory = url.appendingPathComponent(kind.relativeDirectory)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let containerURL = directory.appendingPathComponent(name)
                guard let metadata = try? ContainerMetadata.read(containerAt: containerURL), metadata.kind == kind
                else { continue }
                found.append(ContainerInfo(metadata: metadata, url: containerURL))
            }
        }
        return found.sorted { ($0.kind.contentClass, $0.identifier) < ($1.kind.contentClass, $1.identifier) }
    }

    /// The existing container of `kind` for `identifier`, compared case-insensitively as the
    /// container manager's lookups do; nil when there is none.
    public func existingContainer(_ kind: ContainerKind, identifier: String) -> ContainerInfo? {
        containers(of: kind).first { $0.identifier.caseInsensitiveCompare(identifier) == .orderedSame }
    }

    /// The container of `kind` for `identifier`, created on first use with a fresh UUID that is
    /// kept from then on.
    ///
    /// Creation happens under an exclusive lock on `<kind directory>/.lock`, so two processes
    /// asking at once get the same container. The directory is built as `.tmp-<random>` (metadata,
    /// `Library/Caches`, `Library/Preferences`, and `tmp/` for an extension), synced, then renamed
    /// to its UUID: a crash never leaves a half-made container.
    /// - Throws: ``AppGroupError`` `.io`.
    public func container(_ kind: ContainerKind, identifier: String) throws -> ContainerInfo {
        if let existing = existingContainer(kind, identifier: identifier) { return existing }
        let kindURL = url.appendingPathComponent(kind.relativeDirectory)
        do {
            try FileManager.default.createDirectory(at: kindURL, withIntermediateDirectories: true)
        } catch {
            throw AppGroupError(.io, "cannot create \(kindURL.path)", cause: UnderlyingFailure(error))
        }
        let kindDirectory = try ContainerDirectory(url: kindURL)
        defer { kindDirectory.close() }
        let lock = ContainerLock(directory: kindDirectory, path: try ContainerPath(".lock"))
        return try lock.withLock(.exclusive) {
            if let existing = existingContainer(kind, identifier: identifier) { return existing }
            // A creation interrupted by a crash left a `.tmp-*` directory; nobody else can be
            // building one now (we hold the lock), so it is safe to remove.
            let names = (try? FileManager.default.contentsOfDirectory(atPath: kindURL.path)) ?? []
            for name in names where name.hasPrefix(StagedFile.temporaryPrefix) {
                try? FileManager.default.removeItem(at: kindURL.appendingPathComponent(name))
            }
            let uuid = UUID()
            let temporary = try ContainerPath(StagedFile.temporaryPrefix + uuid.uuidString)
            var made = ["Library/Caches", "Library/Preferences"]
            if kind == .appExtension { made.append("tmp") }
            if kind == .application { made.append("Documents") }
            for path in made {
                try kindDirectory.openDirectory(temporary.appending(path: ContainerPath(path)), creating: true).close()
            }
            let metadata = ContainerMetadata(identifier: identifier, kind: kind, uuid: uuid)
            try kindDirectory.writeAtomically(
                try metadata.encoded(), to: try temporary.appending(ContainerMetadata.fileName))
            let directory = try kindDirectory.descriptor()
            do throws(Errno) {
                try directory.rename(temporary.description, to: uuid.uuidString, flags: .noReplace)
                try directory.sync()
            } catch {
                throw AppGroupError.rename(error, from: temporary.description, to: uuid.uuidString)
            }
            return ContainerInfo(metadata: metadata, url: kindURL.appendingPathComponent(uuid.uuidString))
        }
    }

    // MARK: - As an identity

    /// `containerURL(forSecurityApplicationGroupIdentifier:)`: the group's container for
    /// `identity`, created on first use, or nil when the identity is not entitled to the group or
    /// the identifier is not `group.`-prefixed (as on iOS).
    public func containerURL(forSecurityApplicationGroupIdentifier group: String, as identity: BundleIdentity) -> URL? {
        guard let group = AppGroupIdentifier(rawValue: group), identity.isEntitled(to: group) else { return nil }
        return try? container(.appGroup, identifier: group.rawValue).url
    }

    /// The group container for `identity`, created on first use.
    /// - Throws: ``AppGroupError`` `.invalidIdentifier`, `.notEntitled` (naming the group, the bundle
    ///   identifier and its entitlements file), `.io`.
    public func groupContainer(_ group: AppGroupIdentifier, as identity: BundleIdentity) throws -> ContainerInfo {
        try identity.requireEntitlement(to: group)
        return try container(.appGroup, identifier: group.rawValue)
    }

    /// The identity's own data container (`Data/Application` for an app, `Data/PluginKitPlugin`
    /// with `tmp/` for an extension), created on first use.
    /// - Throws: ``AppGroupError`` `.io`.
    public func dataContainer(for identity: BundleIdentity) throws -> ContainerInfo {
        try container(
            identity.kind == .application ? .application : .appExtension, identifier: identity.bundleIdentifier)
    }

    /// The installed bundle (an `.app` or `.appex`) whose `CFBundleIdentifier` is `bundleIdentifier`,
    /// compared case-insensitively as the device compares them; nil when there is none.
    public func installedBundle(_ bundleIdentifier: String, pathExtension: String) -> URL? {
        bundleURLs().filter { $0.pathExtension == pathExtension }.first {
            (try? BundleIdentity.load(bundle: $0))?.bundleIdentifier.caseInsensitiveCompare(bundleIdentifier)
                == .orderedSame
        }
    }

    /// Every bundle under `Bundles/`: each `*.app` and each of its `PlugIns/*.appex`.
    public func bundleURLs() -> [URL] {
        var urls: [URL] = []
        let apps = (try? FileManager.default.contentsOfDirectory(atPath: bundlesURL.path)) ?? []
        for app in apps.sorted() where app.hasSuffix(".app") {
            let appURL = bundlesURL.appendingPathComponent(app)
            urls.append(appURL)
            let plugIns = appURL.appendingPathComponent("PlugIns")
            let extensions = (try? FileManager.default.contentsOfDirectory(atPath: plugIns.path)) ?? []
            for appex in extensions.sorted() where appex.hasSuffix(".appex") {
                urls.append(plugIns.appendingPathComponent(appex))
            }
        }
        return urls
    }
}
