import Foundation
import HostSystem

/// One app `exthost install` put on the device: when (its place in the device's install
/// sequence) and what it is signed as (its team).
public struct InstallRecord: Codable, Sendable, Hashable {
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// The bundle's folder under `Bundles/` (`CardDrop.app`).
    public var bundleName: String
    /// Its place in the device's install sequence: 1 for the first install, growing by one with
    /// each install (an update of an installed app takes a new number: it registers again).
    public var sequence: Int
    /// The team its entitlements name (``BundleIdentity/teamIdentifier``); nil for none.
    public var teamIdentifier: String?

    /// A record.
    public init(bundleIdentifier: String, bundleName: String, sequence: Int, teamIdentifier: String?) {
        self.bundleIdentifier = bundleIdentifier
        self.bundleName = bundleName
        self.sequence = sequence
        self.teamIdentifier = teamIdentifier
    }
}

/// The device's install records: `<root>/InstallRecords.plist`, written atomically (staged, synced,
/// renamed) under an exclusive lock on `<root>/.install.lock`, so two installs at once take two
/// numbers and a crash leaves the previous file whole.
public struct InstallRecords: Codable, Sendable, Hashable {
    /// The file's name in the device root.
    public static let fileName = "InstallRecords.plist"
    static let lockName = ".install.lock"

    /// The number the next install takes (never reused, also after an uninstall).
    public var nextSequence: Int
    /// The installed apps, by sequence.
    public var records: [InstallRecord]

    /// No installs yet.
    public init() {
        nextSequence = 1
        records = []
    }

    /// The record of `bundleIdentifier` (compared case-insensitively, as the device compares them).
    public func record(for bundleIdentifier: String) -> InstallRecord? {
        records.first { $0.bundleIdentifier.caseInsensitiveCompare(bundleIdentifier) == .orderedSame }
    }

    /// The record of the app in the folder `bundleName` under `Bundles/`.
    public func record(bundleName: String) -> InstallRecord? {
        records.first { $0.bundleName == bundleName }
    }
}

extension DeviceRoot {
    /// The install records; empty when nothing was installed with `exthost install` (bundles put
    /// under `Bundles/` by hand have none).
    /// - Throws: ``AppGroupError`` `.corrupt` naming the file when it is not a records plist.
    public func installRecords() throws -> InstallRecords {
        let file = url.appendingPathComponent(InstallRecords.fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return InstallRecords() }
        do {
            return try PropertyListDecoder().decode(InstallRecords.self, from: data)
        } catch {
            throw AppGroupError(
                .corrupt, "\(file.path) is not an install-records property list", cause: UnderlyingFailure(error))
        }
    }

    /// Changes the install records under the lock and writes them back atomically.
    /// - Throws: ``AppGroupError`` `.io`, `.corrupt`; what `change` throws.
    @discardableResult
    func updateInstallRecords<R>(_ change: (inout InstallRecords) throws -> R) throws -> R {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw AppGroupError(.io, "cannot create \(url.path)", cause: UnderlyingFailure(error))
        }
        let directory = try ContainerDirectory(url: url)
        defer { directory.close() }
        let lock = ContainerLock(directory: directory, path: try ContainerPath(InstallRecords.lockName))
        return try lock.withLock(.exclusive) {
            var records = try installRecords()
            let result = try change(&records)
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            let data: Data
            do {
                data = try encoder.encode(records)
            } catch {
                throw AppGroupError(.io, "cannot encode the install records", cause: UnderlyingFailure(error))
            }
            try directory.writeAtomically(Array(data), to: try ContainerPath(InstallRecords.fileName))
            return result
        }
    }
}
