public import Foundation
package import HostSystem

/// Process-wide settings of the item-provider model.
///
/// The extension process sets them once at start-up (its container's `tmp/`, the broker that
/// asks the host about security scopes); tests set and restore them.
public enum ItemProviderConfiguration {
    private struct State: Sendable {
        var temporaryDirectory = FileManager.default.temporaryDirectory
        var securityScopeMode = SecurityScopeMode.strict
        var securityScopeBroker: any SecurityScopeBroker = InProcessSecurityScopeBroker()
        var completionOrder: CompletionOrder?
        var descriptorCopier: (@Sendable (_ source: FileDescriptor, _ destination: FileDescriptor) throws -> Void)?
    }

    private static let state = Locked(State())

    /// Where ``ItemProvider/loadFileRepresentation(for:completionHandler:)`` makes its fresh
    /// directories (default: the process's temporary directory).
    public static var temporaryDirectory: URL {
        get { state.withLock { $0.temporaryDirectory } }
        set { state.withLock { $0.temporaryDirectory = newValue } }
    }

    /// Whether security-scoped files need an active scope (``SecurityScopeMode/strict``, the
    /// default, like a device) or not (``SecurityScopeMode/lenient``, like the simulator).
    public static var securityScopeMode: SecurityScopeMode {
        get { state.withLock { $0.securityScopeMode } }
        set { state.withLock { $0.securityScopeMode = newValue } }
    }

    /// Who grants `startAccessingSecurityScopedResource()` (default: ``InProcessSecurityScopeBroker``).
    public static var securityScopeBroker: any SecurityScopeBroker {
        get { state.withLock { $0.securityScopeBroker } }
        set { state.withLock { $0.securityScopeBroker = newValue } }
    }

    /// When set, every load's completion is held back by a delay drawn from this seeded order, so
    /// loads finish in an order other than the one they started in — as they do on a device, where
    /// a photo's file arrives after a URL that started later. Nil (the default): as soon as ready.
    public static var completionOrder: CompletionOrder? {
        get { state.withLock { $0.completionOrder } }
        set { state.withLock { $0.completionOrder = newValue } }
    }

    /// How a descriptor representation's temporary copy is made: called with the descriptor (at
    /// offset 0) and the new, empty temporary file (open for reading and writing). Nil (the
    /// default): clone, `copy_file_range` or a bounded buffer. The extension runtime sets the
    /// App Group store's copy, which hashes the bytes as they are copied so a file moved into the
    /// group is not read again at commit. Package access: an extension's own code cannot set it.
    package static var descriptorCopier:
        (@Sendable (_ source: FileDescriptor, _ destination: FileDescriptor) throws -> Void)?
    {
        get { state.withLock { $0.descriptorCopier } }
        set { state.withLock { $0.descriptorCopier = newValue } }
    }

    /// The next load's delay under ``completionOrder`` (zero without one).
    static func nextCompletionDelay() -> Duration {
        state.withLock { state in
            guard var order = state.completionOrder else { return .zero }
            defer { state.completionOrder = order }
            return order.nextDelay()
        }
    }
}

/// A seeded, reproducible shuffle of the order in which loads complete: each load waits a delay of
/// 0 to ``maximumDelay`` drawn from the seed, in the order the loads start.
public struct CompletionOrder: Sendable, Hashable {
    /// The seed (`exthost share --shuffle-loads SEED`).
    public let seed: UInt64
    /// The longest delay.
    public var maximumDelay: Duration
    private var state: UInt64

    /// An order drawn from `seed`, delays up to `maximumDelay` (default 40 ms).
    public init(seed: UInt64, maximumDelay: Duration = .milliseconds(40)) {
        self.seed = seed
        self.maximumDelay = maximumDelay
        state = seed
    }

    /// The delays the first `count` loads get, in the order they start.
    public func delays(count: Int) -> [Duration] {
        var order = self
        return (0..<count).map { _ in order.nextDelay() }
    }

    /// The next delay (splitmix64 of the running state).
    mutating func nextDelay() -> Duration {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let microseconds = UInt64(min(max(1, (maximumDelay.milliseconds * 1000).rounded()), 1e18))
        return .microseconds(Int64(z % microseconds))
    }
}
