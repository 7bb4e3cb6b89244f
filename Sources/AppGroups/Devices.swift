public import Foundation
import HostSystem

/// A named emulated device: a device root (``DeviceRoot``) with a `device.plist` saying what it
/// is, kept under the user's data directory as `xcrun simctl` keeps simulators:
/// `$XDG_DATA_HOME/exthost/Devices/<name>/` (`~/.local/share/…` when `XDG_DATA_HOME` is unset).
public struct DeviceInfo: Codable, Hashable, Sendable {
    /// The device's name (`default`, `iPhone-A`).
    public var name: String
    /// Its unique identifier.
    public var udid: String
    /// The iOS version it emulates (behaviours that changed between versions follow it).
    public var iosVersion: String
    /// When it was made.
    public var created: Date
}

/// The devices of one user: where they live, and making, listing and erasing them.
public struct DeviceSet: Sendable {
    /// The name of the device used when none is named.
    public static let defaultName = "default"
    /// The iOS version a new device emulates unless told otherwise (``IOSVersion/current``).
    public static let defaultIOSVersion = IOSVersion.current.description
    /// The file in a device's root that describes it.
    public static let infoFileName = "device.plist"

    /// The folder holding one folder per device.
    public let directory: URL

    /// The devices under `directory`.
    public init(directory: URL) { self.directory = directory.standardizedFileURL }

    /// The user's devices: `$XDG_DATA_HOME/exthost/Devices`, else `$HOME/.local/share/exthost/Devices`.
    public static func user(environment: [String: String] = ProcessInfo.processInfo.environment) -> DeviceSet {
        let data: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            data = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        }
        return DeviceSet(directory: data.appendingPathComponent("exthost/Devices", isDirectory: true))
    }

    /// The root of the device `name` (whether or not it exists).
    public func root(named name: String) -> DeviceRoot { DeviceRoot(url: directory.appendingPathComponent(name)) }

    /// Every device, by name.
    public func list() -> [DeviceInfo] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { info(named: $0) }
    }

    /// The device `name`, or nil when there is none.
    public func info(named name: String) -> DeviceInfo? {
        let file = directory.appendingPathComponent(name).appendingPathComponent(Self.infoFileName)
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? PropertyListDecoder().decode(DeviceInfo.self, from: data)
    }

    /// Makes the device `name` (an empty device root and its `device.plist`).
    /// - Throws: ``AppGroupError`` `.invalidIdentifier` for a name that is not one plain file name,
    ///   `.exists` when the device exists, `.io`.
    @discardableResult
    public func create(named name: String, iosVersion: String = DeviceSet.defaultIOSVersion) throws -> DeviceInfo {
        try Self.validate(name)
        guard info(named: name) == nil else {
            throw AppGroupError(
                .alreadyExists, "a device named '\(name)' exists already (\(root(named: name).url.path))")
        }
        guard let version = IOSVersion(iosVersion) else {
            throw AppGroupError(.invalidIdentifier, "'\(iosVersion)' is not an iOS version (like 17.4)")
        }
        let info = DeviceInfo(name: name, udid: UUID().uuidString, iosVersion: version.description, created: Date())
        let root = root(named: name)
        do {
            try FileManager.default.createDirectory(at: root.bundlesURL, withIntermediateDirectories: true)
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            try encoder.encode(info).write(
                to: root.url.appendingPathComponent(Self.infoFileName), options: .atomic)
        } catch {
            throw AppGroupError(.io, "cannot make the device at \(root.url.path)", cause: UnderlyingFailure(error))
        }
        return info
    }

    /// The device `name`, made on first use.
    /// - Throws: ``AppGroupError`` as ``create(named:iosVersion:)``.
    public func existing(orNew name: String) throws -> DeviceRoot {
        if info(named: name) == nil { try create(named: name) }
        return root(named: name)
    }

    /// Erases the device `name` as `simctl erase` does: every installed app and every container
    /// goes; the device itself (its name, identifier and iOS version) stays.
    /// - Throws: ``AppGroupError`` `.notFound` for an unknown device, `.io`.
    public func erase(named name: String) throws {
        try Self.validate(name)
        guard info(named: name) != nil else { throw AppGroupError(.notFound, "no device named '\(name)'") }
        let root = root(named: name)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.url.path)) ?? []
        for entry in names where entry != Self.infoFileName {
            do {
                try FileManager.default.removeItem(at: root.url.appendingPathComponent(entry))
            } catch {
                throw AppGroupError(.io, "cannot erase \(root.url.path)/\(entry)", cause: UnderlyingFailure(error))
            }
        }
        try? FileManager.default.createDirectory(at: root.bundlesURL, withIntermediateDirectories: true)
    }

    /// Deletes the device `name` and everything on it.
    /// - Throws: ``AppGroupError`` `.notFound`, `.io`.
    public func delete(named name: String) throws {
        try Self.validate(name)
        guard info(named: name) != nil else { throw AppGroupError(.notFound, "no device named '\(name)'") }
        do {
            try FileManager.default.removeItem(at: root(named: name).url)
        } catch {
            throw AppGroupError(.io, "cannot delete the device '\(name)'", cause: UnderlyingFailure(error))
        }
    }

    static func validate(_ name: String) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        guard !name.isEmpty, name.count <= 64, !name.hasPrefix("."), name.unicodeScalars.allSatisfy(allowed.contains)
        else {
            throw AppGroupError(
                .invalidIdentifier, "'\(name)' is not a device name (letters, digits, '-', '_' and '.', not leading)")
        }
    }
}

extension DeviceRoot {
    /// The root a command uses: `--root DIR`, else `--device NAME`, else `$EXTHOST_ROOT`, else
    /// `$EXTHOST_DEVICE`, else `./Containers` when it exists, else the user's default device (made on
    /// first use). Relative paths resolve against `currentDirectory`.
    /// - Throws: ``AppGroupError`` when a named device does not exist or the default cannot be made.
    public static func resolve(
        option: String?, device: String?, environment: [String: String], currentDirectory: String
    ) throws -> DeviceRoot {
        func absolute(_ path: String) -> DeviceRoot {
            if path.hasPrefix("/") { return DeviceRoot(url: URL(fileURLWithPath: path)) }
            return DeviceRoot(url: URL(fileURLWithPath: currentDirectory).appendingPathComponent(path))
        }
        let devices = DeviceSet.user(environment: environment)
        func named(_ name: String) throws -> DeviceRoot {
            guard devices.info(named: name) != nil else {
                throw AppGroupError(
                    .notFound,
                    "no device named '\(name)' under \(devices.directory.path); make it with 'exthost device create \(name)'"
                )
            }
            return devices.root(named: name)
        }
        if let option { return absolute(option) }
        if let device { return try named(device) }
        if let root = environment["EXTHOST_ROOT"], !root.isEmpty { return absolute(root) }
        if let name = environment["EXTHOST_DEVICE"], !name.isEmpty { return try named(name) }
        let local = absolute("Containers")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local.url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return local
        }
        return try devices.existing(orNew: DeviceSet.defaultName)
    }

    /// The device's `device.plist`, when the root is a named device.
    public var deviceInfo: DeviceInfo? {
        guard let data = try? Data(contentsOf: url.appendingPathComponent(DeviceSet.infoFileName)) else { return nil }
        return try? PropertyListDecoder().decode(DeviceInfo.self, from: data)
    }
}
