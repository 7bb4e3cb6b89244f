public import AppGroups
import Foundation

/// The `--json` reports of `exthost device …` and `exthost install`, one `Codable` type each: the
/// output is their encoding (the command line prints it) and tests decode them.
public enum DeviceReports {
    /// One device: `exthost device create --json`, and each device of `exthost device list --json`.
    public struct Device: Codable, Sendable, Equatable {
        public var name: String
        public var udid: String
        public var iosVersion: String
        /// The device root's path.
        public var root: String
        /// The installed apps' bundle names (`CardDrop.app`).
        public var apps: [String]
        /// The apps in install order: those `exthost install` recorded by their number, after the
        /// bundles found under `Bundles/` without a record (in discovery order).
        public var installOrder: [Installed]

        /// One app's place in the install order.
        public struct Installed: Codable, Sendable, Equatable {
            public var bundleIdentifier: String
            /// `install #2`, or `found under Bundles/ without an install record (discovery #1)`.
            public var order: String
            /// Its number in the install records (absent for a bundle found without a record).
            public var sequence: Int?
            /// The team its entitlements name (absent: none).
            public var teamIdentifier: String?
        }

        /// The report of the device `info` describes, whose root is `root`.
        public init(_ info: DeviceInfo, root: DeviceRoot) {
            name = info.name
            udid = info.udid
            iosVersion = info.iosVersion
            self.root = root.url.path
            apps = root.bundleURLs().filter { $0.pathExtension == "app" }.map(\.lastPathComponent)
            installOrder = InstalledBundles(root: root).apps.map {
                Installed(
                    bundleIdentifier: $0.identifier, order: $0.installOrder.description,
                    sequence: $0.installOrder.sequence, teamIdentifier: $0.teamIdentifier)
            }
        }
    }

    /// `exthost device list --json`.
    public struct List: Codable, Sendable, Equatable {
        /// Where the devices live.
        public var directory: String
        /// The devices, in the order found.
        public var devices: [Device]

        /// The list of `devices` under `directory`.
        public init(directory: String, devices: [Device]) {
            self.directory = directory
            self.devices = devices
        }
    }

    /// `exthost install --json`.
    public struct Install: Codable, Sendable, Equatable {
        public var bundleIdentifier: String
        /// The installed bundle's path.
        public var bundle: String
        public var dataContainer: String
        /// The extensions' bundle identifiers.
        public var extensions: [String]
        /// Per App Group identifier: its container's path (sorted by identifier).
        public var groupContainers: OrderedObject<String>
        /// Per bundle identifier: the installed program's path (sorted by identifier).
        public var executables: OrderedObject<String>
        /// Whether it replaced an installed copy.
        public var replaced: Bool
        /// The device root's path.
        public var root: String
        /// Its number in the device's install sequence (the later install wins a filename extension
        /// two apps declare different types for).
        public var sequence: Int
        /// The team its entitlements name (null: none).
        public var teamIdentifier: String?

        private enum CodingKeys: String, CodingKey {
            case bundleIdentifier, bundle, dataContainer, extensions, groupContainers, executables, replaced, root
            case sequence, teamIdentifier
        }

        /// Encodes every key, `teamIdentifier` as `null` when the app names none.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(dataContainer, forKey: .dataContainer)
            try container.encode(extensions, forKey: .extensions)
            try container.encode(groupContainers, forKey: .groupContainers)
            try container.encode(executables, forKey: .executables)
            try container.encode(replaced, forKey: .replaced)
            try container.encode(root, forKey: .root)
            try container.encode(sequence, forKey: .sequence)
            try container.encode(teamIdentifier, forKey: .teamIdentifier)
        }

        /// The report of an install into the device at `root`.
        public init(_ report: InstallReport, root: DeviceRoot) {
            bundleIdentifier = report.bundleIdentifier
            bundle = report.bundlePath
            dataContainer = report.dataContainer
            extensions = report.extensions
            groupContainers = OrderedObject(sorting: report.groupContainers)
            executables = OrderedObject(sorting: report.executables)
            replaced = report.replaced
            self.root = root.url.path
            sequence = report.sequence
            teamIdentifier = report.teamIdentifier
        }
    }
}
