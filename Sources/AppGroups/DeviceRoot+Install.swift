public import Foundation
import HostSystem

/// What `exthost install` did.
public struct InstallReport: Codable, Sendable {
    /// The app's bundle identifier.
    public var bundleIdentifier: String
    /// Where the bundle now lives on the device.
    public var bundlePath: String
    /// The app's data container.
    public var dataContainer: String
    /// Its extensions' bundle identifiers.
    public var extensions: [String]
    /// The App Group containers the app's and its extensions' entitlements name, by group.
    public var groupContainers: [String: String]
    /// The programs copied in (`CFBundleExecutable` found beside the bundle), by bundle identifier.
    public var executables: [String: String]
    /// Whether an earlier install of the same app was replaced (its containers are kept, as on iOS).
    public var replaced: Bool
    /// Its place in the device's install sequence (``InstallRecord/sequence``): the later install
    /// wins a filename extension two apps export different types for.
    public var sequence: Int
    /// The team its entitlements name (`com.apple.developer.team-identifier`, else the prefix of
    /// `application-identifier`); nil when they name none.
    public var teamIdentifier: String?
}

extension DeviceRoot {
    /// Installs the app bundle at `appURL` as a device does: the bundle (with its `PlugIns/*.appex`)
    /// is copied to `Bundles/<name>.app`, the app's data container and every App Group container
    /// the app's and its extensions' entitlements name are made.
    ///
    /// A bundle's `CFBundleExecutable`, when it names one, must be a program: inside the bundle, or
    /// one of `productDirectories` (where `swift build` puts what the user built), from which it is
    /// copied in. Everything is checked and staged first, then renamed into place: a failure leaves
    /// the device as it was. Installing an app that is installed replaces its bundle and keeps its
    /// containers. The install is recorded (``InstallRecords``): its number in the device's install
    /// sequence and the app's team.
    ///
    /// - Throws: ``AppGroupError`` `.invalidBundle` naming the file (no or unreadable `Info.plist`,
    ///   entitlements that are not a plist, a missing executable), `.io`.
    @discardableResult
    public func install(appAt appURL: URL, productDirectories: [URL] = [], defines: [String: String] = [:]) throws
        -> InstallReport
    {
        let source = appURL.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), isDirectory.boolValue,
            source.pathExtension == "app"
        else {
            throw AppGroupError(.invalidBundle, "\(source.path): not an app bundle (a folder named NAME.app)")
        }
        // Check everything before anything is written.
        let app = try BundleIdentity.load(bundle: source, defines: defines)
        guard app.kind == .application else {
            throw AppGroupError(
                .invalidBundle,
                "\(source.appendingPathComponent("Info.plist").path): not an app (CFBundlePackageType APPL)")
        }
        let plugInNames =
            ((try? FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent("PlugIns").path)) ?? [])
            .filter { $0.hasSuffix(".appex") }.sorted()
        var extensions: [BundleIdentity] = []
        for name in plugInNames {
            extensions.append(
                try BundleIdentity.load(
                    bundle: source.appendingPathComponent("PlugIns").appendingPathComponent(name), defines: defines))
        }
        var programs: [(relative: String, from: URL, identifier: String)] = []
        for (identity, relative) in [(app, "")] + zip(extensions, plugInNames.map { "PlugIns/\($0)" }) {
            let bundle = relative.isEmpty ? source : source.appendingPathComponent(relative)
            guard let program = try Self.program(of: bundle, searching: productDirectories) else { continue }
            if program.deletingLastPathComponent().standardizedFileURL.path != bundle.standardizedFileURL.path {
                programs.append(
                    (
                        (relative.isEmpty ? "" : relative + "/") + program.lastPathComponent, program,
                        identity.bundleIdentifier
                    ))
            }
        }

        // Stage the copy beside its final place, then rename.
        try? FileManager.default.createDirectory(at: bundlesURL, withIntermediateDirectories: true)
        let destination = bundlesURL.appendingPathComponent(source.lastPathComponent)
        let staged = bundlesURL.appendingPathComponent(StagedFile.temporaryPrefix + UUID().uuidString)
        let retired = bundlesURL.appendingPathComponent(StagedFile.temporaryPrefix + "old-" + UUID().uuidString)
        defer {
            try? FileManager.default.removeItem(at: staged)
            try? FileManager.default.removeItem(at: retired)
        }
        var executables: [String: String] = [:]
        let replaced = FileManager.default.fileExists(atPath: destination.path)
        do {
            try FileManager.default.copyItem(at: source, to: staged)
            for program in programs {
                let target = staged.appendingPathComponent(program.relative)
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: program.from, to: target)
                executables[program.identifier] = program.from.path
            }
            if replaced { try FileManager.default.moveItem(at: destination, to: retired) }
            try FileManager.default.moveItem(at: staged, to: destination)
        } catch {
            if replaced, !FileManager.default.fileExists(atPath: destination.path) {
                try? FileManager.default.moveItem(at: retired, to: destination)
            }
            throw AppGroupError(
                .io, "cannot install \(source.path) into \(bundlesURL.path)", cause: UnderlyingFailure(error))
        }

        // The containers a device makes at install.
        let installedApp = try BundleIdentity.load(bundle: destination, defines: defines)
        let dataContainer = try self.dataContainer(for: installedApp)
        var groups: [String: String] = [:]
        for identity in [app] + extensions {
            for name in identity.applicationGroups {
                guard let group = AppGroupIdentifier(rawValue: name) else { continue }
                groups[name] = try container(.appGroup, identifier: group.rawValue).url.path
            }
        }
        let record = try updateInstallRecords { records in
            records.records.removeAll {
                $0.bundleName == destination.lastPathComponent
                    || $0.bundleIdentifier.caseInsensitiveCompare(app.bundleIdentifier) == .orderedSame
            }
            let record = InstallRecord(
                bundleIdentifier: app.bundleIdentifier, bundleName: destination.lastPathComponent,
                sequence: records.nextSequence, teamIdentifier: installedApp.teamIdentifier)
            records.nextSequence += 1
            records.records.append(record)
            return record
        }
        return InstallReport(
            bundleIdentifier: app.bundleIdentifier, bundlePath: destination.path, dataContainer: dataContainer.url.path,
            extensions: extensions.map(\.bundleIdentifier), groupContainers: groups, executables: executables,
            replaced: replaced, sequence: record.sequence, teamIdentifier: record.teamIdentifier)
    }

    /// Removes the installed app `bundleIdentifier` as a device does: its bundle, its install record
    /// (an extension it took from an earlier install goes back to that one), its data container
    /// and its extensions', and each App Group container no installed app is entitled to any more.
    /// - Returns: the paths removed.
    /// - Throws: ``AppGroupError`` `.notFound` when no installed app has that identifier, `.io`.
    @discardableResult
    public func uninstall(bundleIdentifier: String) throws -> [String] {
        guard let appURL = installedBundle(bundleIdentifier, pathExtension: "app") else {
            throw AppGroupError(.notFound, "no app '\(bundleIdentifier)' is installed on \(url.path)")
        }
        let identities = bundleURLs().filter { $0.path.hasPrefix(appURL.path + "/") || $0 == appURL }
            .compactMap { try? BundleIdentity.load(bundle: $0) }
        var removed: [String] = []
        func remove(_ target: URL) throws {
            do {
                try FileManager.default.removeItem(at: target)
                removed.append(target.path)
            } catch {
                throw AppGroupError(.io, "cannot remove \(target.path)", cause: UnderlyingFailure(error))
            }
        }
        try remove(appURL)
        try updateInstallRecords { records in
            records.records.removeAll {
                $0.bundleName == appURL.lastPathComponent
                    || $0.bundleIdentifier.caseInsensitiveCompare(bundleIdentifier) == .orderedSame
            }
        }
        for identity in identities {
            let kind: ContainerKind = identity.kind == .application ? .application : .appExtension
            if let container = existingContainer(kind, identifier: identity.bundleIdentifier) {
                try remove(container.url)
            }
        }
        let stillEntitled = Set(
            bundleURLs().compactMap { try? BundleIdentity.load(bundle: $0) }.flatMap(\.applicationGroups))
        for group in Set(identities.flatMap(\.applicationGroups)) where !stillEntitled.contains(group) {
            if let container = existingContainer(.appGroup, identifier: group) { try remove(container.url) }
        }
        return removed
    }

    /// The program `CFBundleExecutable` names — an executable `NAME`, or a dynamic library
    /// `libNAME.so` (an extension built as a `.library(type: .dynamic)` product, which the sandbox
    /// launcher loads as iOS loads an `.appex`'s code) — in the bundle, else in the first of
    /// `directories` that holds one; nil when the bundle names none.
    /// - Throws: ``AppGroupError`` `.invalidBundle` naming the `Info.plist` when it names one that is
    ///   nowhere.
    static func program(of bundle: URL, searching directories: [URL]) throws -> URL? {
        let info = bundle.appendingPathComponent("Info.plist")
        guard let name = InstalledBundle.info(bundle)?["CFBundleExecutable"] as? String else { return nil }
        guard !name.isEmpty, !name.contains("/") else {
            throw AppGroupError(.invalidBundle, "\(info.path): CFBundleExecutable '\(name)' is not a file name")
        }
        for directory in [bundle] + directories {
            if let program = InstalledBundle.program(named: name, in: directory) { return program.url }
        }
        let searched = ([bundle] + directories).map(\.path).joined(separator: ", ")
        throw AppGroupError(
            .invalidBundle,
            "\(info.path): CFBundleExecutable '\(name)' is missing: no executable '\(name)' and no library "
                + "'\(InstalledBundle.libraryName(name))' in \(searched) (build it with 'swift build', or pass --products DIR)"
        )
    }
}
