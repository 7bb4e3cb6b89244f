import Foundation
import HostSystem

/// The host's security-scope broker: issues one opaque token per open-in-place representation
/// and decides every `startAccessingSecurityScopedResource()` / `stop…` the extension asks for.
///
/// A token is `ssb1.<share id>.<attachment>.<random>`. The broker refuses a token it never issued
/// (forged), one issued by another share (foreign), a stop without a matching start (stopped),
/// and everything once the share has ended (revoked). Starts nest: access lasts until every start
/// has been balanced by a stop.
public final class SecurityScopeTokens: Sendable {
    /// Why the broker refused a token.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not a token this broker issued.
        case forged
        /// A token of another share.
        case foreign
        /// A stop (or an in-place load) without a start in force.
        case notAccessing
        /// The share ended.
        case revoked

        /// One phrase for the report.
        public var description: String {
            switch self {
            case .forged: return "forged token (never issued)"
            case .foreign: return "foreign token (issued to another share)"
            case .notAccessing: return "token not being accessed (never started, or already stopped)"
            case .revoked: return "token revoked (the share ended)"
            }
        }
    }

    /// This share's identifier (part of each token).
    public let shareID: String

    private struct Grant {
        var attachment: Int
        var starts = 0
    }
    private struct State {
        var grants: [String: Grant] = [:]
        var revoked = false
    }
    private let state = Locked(State())

    /// A broker for one share.
    public init(shareID: String = SecurityScopeTokens.randomHex(8)) { self.shareID = shareID }

    /// Issues the token for `attachment`'s open-in-place representation.
    public func issue(for attachment: Int) -> String {
        let token = "ssb1.\(shareID).\(attachment).\(Self.randomHex(16))"
        state.withLock { $0.grants[token] = Grant(attachment: attachment) }
        return token
    }

    /// Starts access; returns the attachment the token guards.
    public func start(_ token: String) -> Result<Int, Refusal> {
        state.withLock { state in
            switch lookup(token, in: state) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let grant):
                state.grants[token]?.starts += 1
                return .success(grant.attachment)
            }
        }
    }

    /// Balances one start.
    public func stop(_ token: String) -> Result<Int, Refusal> {
        state.withLock { state in
            switch lookup(token, in: state) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let grant) where grant.starts == 0: return .failure(.notAccessing)
            case .success(let grant):
                state.grants[token]?.starts -= 1
                return .success(grant.attachment)
            }
        }
    }

    /// Whether `token` is valid for `attachment` and being accessed now.
    public func checkAccess(_ token: String?, attachment: Int) -> Result<Void, Refusal> {
        guard let token else { return .failure(.forged) }
        return state.withLock { state in
            switch lookup(token, in: state) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let grant) where grant.attachment != attachment: return .failure(.foreign)
            case .success(let grant) where grant.starts == 0: return .failure(.notAccessing)
            case .success: return .success(())
            }
        }
    }

    /// Whether `token` is a live token of this share whose scope is started (the kernel broker's
    /// question for every open of a scoped original).
    public func isAccessing(_ token: String) -> Bool {
        state.withLock { state in
            if case .success(let grant) = lookup(token, in: state) { return grant.starts > 0 }
            return false
        }
    }

    /// Tokens still being accessed (starts without stops), for the end-of-share report.
    public var unbalanced: [String] { state.withLock { $0.grants.filter { $0.value.starts > 0 }.map(\.key).sorted() } }

    /// Ends the share: every later request is refused.
    public func revokeAll() { state.withLock { $0.revoked = true } }

    private func lookup(_ token: String, in state: State) -> Result<Grant, Refusal> {
        if state.revoked { return .failure(.revoked) }
        if let grant = state.grants[token] { return .success(grant) }
        let parts = token.split(separator: ".")
        if parts.count == 4, parts[0] == "ssb1", parts[1] != shareID { return .failure(.foreign) }
        return .failure(.forged)
    }

    /// `count` random bytes as lowercase hex.
    public static func randomHex(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
