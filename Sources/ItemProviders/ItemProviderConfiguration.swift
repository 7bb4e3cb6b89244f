public import Foundation
import Synchronization

/// Process-wide settings of the item-provider model.
///
/// The extension process sets them once at start-up (its container's `tmp/`, the broker that
/// asks the host about security scopes); tests set and restore them.
public enum ItemProviderConfiguration {
    private struct State: Sendable {
        var temporaryDirectory = FileManager.default.temporaryDirectory
        var securityScopeMode = SecurityScopeMode.strict
        var securityScopeBroker: any SecurityScopeBroker = InProcessSecurityScopeBroker()
    }

    private static let state = Mutex(State())

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
}
