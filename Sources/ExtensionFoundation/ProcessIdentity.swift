public import ExtensionIPC
public import Foundation
import HostSystem
import ItemProviders
public import UniformTypes

/// Who the running process is on the emulated device: its bundle, its container and the App
/// Groups it is entitled to. exthost tells a process it launches (a share extension, an app)
/// through its `ProcessEnvironment` variable; code run any other way (a unit test reading the
/// group as the app) sets ``environment`` itself.
///
/// `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` and
/// `UserDefaults(suiteName:)` answer from it, as iOS answers from the entitlements.
public enum ProcessIdentity {
    private struct State: Sendable {
        var environment: ProcessEnvironment?
        var registry: TypeRegistry?
    }

    private static let state = Locked(State(environment: ProcessEnvironment.current()))

    /// The process's identity (nil: not started by exthost and not set: no group is reachable).
    public static var environment: ProcessEnvironment? {
        get { state.withLock { $0.environment } }
        set {
            state.withLock {
                $0.environment = newValue
                $0.registry = nil
            }
        }
    }

    /// The types the process knows: the system's plus those its bundle (and its app) declare.
    public static var typeRegistry: TypeRegistry {
        if let cached = state.withLock({ $0.registry }) { return cached }
        let files = (environment?.declarationFiles ?? []).map { URL(fileURLWithPath: $0) }
        let readable = files.filter { FileManager.default.isReadableFile(atPath: $0.path) }
        let registry = (try? TypeRegistry.system.adding(declarationsFromPlistsAt: readable).0) ?? .system
        state.withLock { $0.registry = registry }
        return registry
    }

    /// The App Groups the process is entitled to, sorted (empty when exthost did not start it).
    public static var applicationGroups: [String] { environment?.groupContainers.keys.sorted() ?? [] }

    /// The container of App Group `group` when the process is entitled to it.
    public static func groupContainer(_ group: String) -> URL? {
        environment?.groupContainers[group].map { URL(fileURLWithPath: $0, isDirectory: true) }
    }
}
