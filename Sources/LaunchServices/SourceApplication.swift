import Foundation

/// What `options.sourceApplication` an app receives with a URL, and why.
public struct SourceApplicationDecision: Codable, Sendable, Hashable {
    /// The sender's bundle identifier, or nil when iOS gives none.
    public var value: String?
    /// Why (the teams compared, or the sender that is not installed).
    public var reason: String
}

extension InstalledBundles {
    /// `UIApplication.OpenURLOptionsKey.sourceApplication` (and `UIScene.OpenURLOptions
    /// .sourceApplication`) for a URL `sender` hands to `receiver`, as iOS fills it: the sender's
    /// bundle identifier when both are installed and their entitlements name the same team ID,
    /// else nil. Apple: "If the team identifier of the originating app is different than the team
    /// identifier of the current app, the value of the key is `nil`." An app that is not installed
    /// has no team, and an app whose entitlements name none (`application-identifier`,
    /// `com.apple.developer.team-identifier`) is compared as one whose team is unknown: nil.
    public func sourceApplication(from sender: String?, to receiver: String) -> SourceApplicationDecision {
        guard let sender else { return SourceApplicationDecision(value: nil, reason: "no sending app") }
        guard let from = app(sender) else {
            return SourceApplicationDecision(
                value: nil, reason: "\(sender) is not installed on this device, so it has no team ID to compare: nil")
        }
        guard let to = app(receiver) else {
            return SourceApplicationDecision(value: nil, reason: "\(receiver) is not installed")
        }
        switch (from.teamIdentifier, to.teamIdentifier) {
        case (let a?, let b?) where a == b:
            return SourceApplicationDecision(
                value: from.identifier, reason: "\(from.identifier) and \(to.identifier) share the team ID \(a)")
        case (let a?, let b?):
            return SourceApplicationDecision(
                value: nil,
                reason:
                    "\(from.identifier) is of team \(a) and \(to.identifier) of team \(b): a different team gets nil")
        case (nil, _):
            return SourceApplicationDecision(
                value: nil, reason: "\(from.identifier)'s entitlements name no team ID (application-identifier): nil")
        case (_, nil):
            return SourceApplicationDecision(
                value: nil, reason: "\(to.identifier)'s entitlements name no team ID (application-identifier): nil")
        }
    }

    /// The installed app `identifier` (compared case-insensitively, as the device compares them).
    public func app(_ identifier: String) -> App? {
        apps.first { $0.identifier.caseInsensitiveCompare(identifier) == .orderedSame }
    }
}
