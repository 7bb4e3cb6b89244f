/// An iOS App Group identifier: `group.` followed by a reverse-DNS name.
///
/// iOS requires the `group.` prefix (macOS uses a team-ID prefix instead); the identifier must
/// exactly match one string of the `com.apple.security.application-groups` entitlement.
public struct AppGroupIdentifier: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier, e.g. `group.com.example.carddrop`.
    public let rawValue: String

    /// Validates `rawValue`; nil when it is not `group.` + 1–240 characters of letters, digits,
    /// `.`, `-` and `_`.
    public init?(rawValue: String) {
        guard rawValue.hasPrefix("group."), rawValue.utf8.count > 6, rawValue.utf8.count <= 246 else { return nil }
        let allowed = rawValue.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x2D || byte == 0x5F
        }
        guard allowed, !rawValue.hasSuffix("."), !rawValue.contains("..") else { return nil }
        self.rawValue = rawValue
    }

    /// Validates `text`.
    /// - Throws: ``AppGroupError`` `.invalidIdentifier`, saying what the form must be.
    public init(validating text: String) throws {
        guard let value = AppGroupIdentifier(rawValue: text) else {
            throw AppGroupError(
                .invalidIdentifier,
                "'\(text)' is not an iOS App Group identifier: it must be 'group.' followed by a reverse-DNS name "
                    + "(letters, digits, '.', '-', '_'), e.g. group.com.example.carddrop")
        }
        self = value
    }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders by the identifier text.
    public static func < (lhs: AppGroupIdentifier, rhs: AppGroupIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}
