public import Reporting

/// `exthost open --json`: the decision's keys, then `delivery` (null when nothing was handed over)
/// and why the app received the `sourceApplication` it did, in the same object.
public struct OpenReport: Codable, Sendable {
    /// Which apps open the file or URL, and which one iOS picks.
    public var decision: LaunchDecision
    /// What was handed to the app and how it received it; nil when nothing was handed over.
    public var delivery: FileDelivery?
    /// Why the app received the `sourceApplication` it did (`delivery.app.sourceApplication`);
    /// nil when nothing was delivered.
    public var sourceApplicationReason: String?

    /// A report of `decision` and what followed it.
    public init(decision: LaunchDecision, delivery: FileDelivery?, sourceApplicationReason: String?) {
        self.decision = decision
        self.delivery = delivery
        self.sourceApplicationReason = sourceApplicationReason
    }

    enum Key: String, CodingKey { case delivery, sourceApplicationReason }

    /// The decision's keys, then `delivery` and `sourceApplicationReason` (both written, null when absent).
    public func encode(to encoder: any Encoder) throws {
        try decision.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(delivery, forKey: .delivery)
        try container.encode(sourceApplicationReason, forKey: .sourceApplicationReason)
    }

    /// Reads the merged object back: the decision from its own keys, `delivery` beside them.
    public init(from decoder: any Decoder) throws {
        decision = try LaunchDecision(from: decoder)
        let container = try decoder.container(keyedBy: Key.self)
        delivery = try container.decodeIfPresent(FileDelivery.self, forKey: .delivery)
        sourceApplicationReason = try container.decodeIfPresent(String.self, forKey: .sourceApplicationReason)
    }
}

/// `exthost app lint --json`: what ``InfoPlistLint`` found in an app's Info.plist.
public struct AppLintReport: Codable, Sendable, Equatable {
    /// The findings, errors first.
    public var diagnostics: [Diagnostic]

    /// A report of `diagnostics`.
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
