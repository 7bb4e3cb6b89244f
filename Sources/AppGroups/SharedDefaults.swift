public import Foundation
import HostSystem

/// A `UserDefaults(suiteName:)`-like suite stored as a binary plist at
/// `Library/Preferences/<suite>.plist` in a container.
///
/// Every change is a read-modify-write under an exclusive cross-process lock
/// (`.exthost/defaults-<suite>.lock`) followed by an atomic, durable replace of the plist, so two
/// processes setting different keys at once lose nothing, and a reader never sees a half-written
/// file. As on iOS, other processes learn of a change only by reading again (no change
/// notification crosses processes; pair it with a ``DarwinNotification``).
public struct SharedDefaults: Sendable {
    /// The suite name (the group identifier for a group suite).
    public let suiteName: String
    /// The container the suite lives in.
    public let directory: ContainerDirectory
    private let path: ContainerPath
    private let lock: ContainerLock

    /// The suite `suiteName` in `directory`.
    /// - Throws: ``AppGroupError`` `.invalidPath` for a suite name that is not one file name.
    public init(suiteName: String, in directory: ContainerDirectory) throws {
        self.suiteName = suiteName
        self.directory = directory
        path = try ContainerPath("Library/Preferences").appending("\(suiteName).plist")
        lock = ContainerLock(
            directory: directory, path: try ContainerPath(".exthost").appending("defaults-\(suiteName).lock"))
    }

    /// The plist's URL.
    public var fileURL: URL { directory.url(for: path) }

    /// Every key and value.
    /// - Throws: ``AppGroupError`` `.corrupt` when the plist does not decode.
    public func dictionary() throws -> [String: DefaultsValue] {
        try lock.withLock(.shared) { try load() }
    }

    /// The value for `key`, or nil.
    /// - Throws: ``AppGroupError`` `.corrupt`.
    public func value(forKey key: String) throws -> DefaultsValue? { try dictionary()[key] }

    /// Sets `key` to `value` (read-modify-write under the exclusive lock, atomic replace).
    /// - Throws: ``AppGroupError``.
    public func set(_ value: DefaultsValue, forKey key: String) throws {
        try update { $0[key] = value }
    }

    /// Removes `key`; returns whether it was there.
    /// - Throws: ``AppGroupError``.
    @discardableResult
    public func removeValue(forKey key: String) throws -> Bool {
        var existed = false
        try update { values in existed = values.removeValue(forKey: key) != nil }
        return existed
    }

    /// Runs `change` on the current values under the exclusive lock and writes the result.
    /// - Throws: ``AppGroupError``.
    public func update(_ change: (inout [String: DefaultsValue]) throws -> Void) throws {
        try lock.withLock(.exclusive) {
            var values = try load()
            try change(&values)
            let object = values.mapValues(\.propertyList)
            let data: Data
            do {
                data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
            } catch {
                throw AppGroupError(.io, "cannot encode \(path)", cause: UnderlyingFailure(error))
            }
            try directory.writeAtomically(Array(data), to: path, permissions: 0o600)
        }
    }

    /// The XML plist text of the suite (what `plutil -convert xml1` prints).
    /// - Throws: ``AppGroupError``.
    public func xml() throws -> String {
        let object = try dictionary().mapValues(\.propertyList)
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw AppGroupError(.io, "cannot encode \(path)", cause: UnderlyingFailure(error))
        }
    }

    private func load() throws -> [String: DefaultsValue] {
        let bytes: [UInt8]
        do {
            bytes = try directory.readFile(path)
        } catch let error as AppGroupError where error.code == .notFound {
            return [:]
        }
        if bytes.isEmpty { return [:] }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        } catch {
            throw AppGroupError(.corrupt, "\(fileURL.path) is not a property list", cause: UnderlyingFailure(error))
        }
        guard let plist = object as? [String: Any], case .dictionary(let values)? = DefaultsValue(propertyList: plist)
        else {
            throw AppGroupError(.corrupt, "\(fileURL.path): the top level is not a dictionary of plist values")
        }
        return values
    }
}

extension SharedDefaults {
    /// `UserDefaults(suiteName:)` as `identity` sees it: for a group the identity is entitled to,
    /// the group container's suite (shared); otherwise — like iOS, which still returns a non-nil
    /// `UserDefaults` — a suite of the same name in the identity's own data container, which no
    /// other process shares.
    /// - Throws: ``AppGroupError`` `.io`, `.invalidPath`.
    public static func suite(named suiteName: String, as identity: BundleIdentity, root: DeviceRoot) throws
        -> SharedDefaults
    {
        let container: ContainerInfo
        if let group = AppGroupIdentifier(rawValue: suiteName), identity.isEntitled(to: group) {
            container = try root.groupContainer(group, as: identity)
        } else {
            container = try root.dataContainer(for: identity)
        }
        return try SharedDefaults(suiteName: suiteName, in: try ContainerDirectory(url: container.url))
    }
}

extension AppGroupStore {
    /// The group's shared defaults suite (`Library/Preferences/<group>.plist`).
    /// - Throws: ``AppGroupError``.
    public func defaults() throws -> SharedDefaults { try SharedDefaults(suiteName: group.rawValue, in: directory) }
}
