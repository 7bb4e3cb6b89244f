import Foundation

/// The iOS version a device emulates: a device property (`exthost device create --ios VERSION`,
/// stored in its `device.plist`), read in one place — ``DeviceRoot/iosVersion`` — by every
/// behaviour that changed between versions.
///
/// Behaviours that follow it:
/// - ``opensURLsThroughOpenURLSelector``: from iOS 18 the deprecated `openURL:` reached with
///   `perform(_:with:)` through an extension's responder chain opens nothing (silently), while
///   `UIApplication.open(_:options:completionHandler:)` still opens the app.
public struct IOSVersion: Comparable, Hashable, Sendable, CustomStringConvertible, Codable {
    /// The major version (`18`).
    public var major: Int
    /// The minor version (`4` of 17.4).
    public var minor: Int
    /// The patch version (`1` of 17.4.1).
    public var patch: Int

    /// The version a device emulates unless told otherwise (the current iOS).
    public static let current = IOSVersion(major: 18, minor: 0)

    /// A version.
    public init(major: Int, minor: Int = 0, patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The version `text` spells (`18`, `17.4`, `17.4.1`); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }) else {
            return nil
        }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        self.init(
            major: numbers[0], minor: numbers.count > 1 ? numbers[1] : 0, patch: numbers.count > 2 ? numbers[2] : 0)
    }

    /// `18.0`, `17.4.1`.
    public var description: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    /// Orders by major, minor, then patch.
    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// Whether `openURL:` sent through an extension's responder chain (`perform(_:with:)` on the
    /// `UIApplication`) opens the URL: before iOS 18 it does; from iOS 18 on it does nothing and
    /// reports nothing (`UIApplication.open(_:options:completionHandler:)` is the call that works).
    public var opensURLsThroughOpenURLSelector: Bool { major < 18 }

    /// Encodes as its text (`"18.0"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes its text.
    /// - Throws: `DecodingError` for text that is not a version.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = IOSVersion(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an iOS version")
        }
        self = version
    }
}

extension DeviceRoot {
    /// The iOS version the device emulates: its `device.plist`'s, else ``IOSVersion/current`` (a
    /// root that is not a named device: `--root DIR`, `./Containers`).
    public var iosVersion: IOSVersion {
        deviceInfo.flatMap { IOSVersion($0.iosVersion) } ?? .current
    }
}
