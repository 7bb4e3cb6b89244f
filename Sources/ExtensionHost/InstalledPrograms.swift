import HostSystem

/// A program exthost starts, and the arguments that come before any of the caller's.
public struct ProgramInvocation: Sendable, Hashable {
    /// The executable's path.
    public var executable: String
    /// Its leading arguments (for exthost itself: the hidden command word of a role).
    public var arguments: [String]

    /// `executable` run with `arguments`.
    public init(executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// exthost's installed programs: the sandbox launcher every child is started through, and the
/// programs that run a bundle holding no program of its own — `exthost-builtin-extension` (the
/// built-in share and action extensions; where it is missing, `exthost` in those roles),
/// `exthost-builtin-app` (the built-in app) — and `exthost` itself for its other hidden roles.
///
/// Every call site that starts a child takes its programs from one value of this type, so the
/// launcher is looked up in one place and the role words are spelled once (``Role``).
public struct InstalledPrograms: Sendable, Hashable {
    /// A hidden command word: the role a built-in program (or `exthost`) is started in.
    public enum Role: String, Sendable, CaseIterable {
        /// `exthost __extension`: the built-in save-to-group share extension.
        case shareExtension = "__extension"
        /// `exthost __action-extension`: the built-in action extension.
        case actionExtension = "__action-extension"
        /// `exthost-builtin-app __app`: the built-in app, for an app bundle without a program (its own
        /// program: `exthost` itself does not link UIKit).
        case app = "__app"
        /// `exthost __stress-reader`: a reader of an App Group that `exthost stress` runs beside a share.
        case stressReader = "__stress-reader"
        /// `exthost __airdrop-receive`: the receiving device of an AirDrop transfer.
        case airDropReceiver = "__airdrop-receive"
    }

    /// The sandbox launcher's file name.
    public static let launcherName = "exthost-sandbox-exec"
    /// exthost's own executable's file name.
    public static let exthostName = "exthost"
    /// The built-in extensions' program's file name.
    public static let extensionsName = "exthost-builtin-extension"
    /// The built-in app's program's file name.
    public static let appsName = "exthost-builtin-app"

    /// `exthost-sandbox-exec`: every extension and app process starts through it.
    public var launcher: String
    /// The `exthost` executable (nil: not installed, so bundles without a program cannot run).
    public var exthost: String?
    /// `exthost-builtin-extension`, the built-in extensions as a program of their own (nil: not installed;
    /// `exthost` runs them in its roles instead, starting about ten milliseconds slower).
    public var extensions: String?

    /// `exthost-builtin-app`, the built-in app (nil: not installed, so an app bundle without a
    /// program of its own cannot run).
    public var apps: String?

    /// The programs at the paths given.
    public init(launcher: String, exthost: String?, extensions: String? = nil, apps: String? = nil) {
        self.launcher = launcher
        self.exthost = exthost
        self.extensions = extensions
        self.apps = apps
    }

    /// The programs installed beside the running executable (SwiftPM builds them into one
    /// directory: `.build/debug`, an install prefix's `bin`, or a user's package's build directory
    /// whose test target depends on them), or nil when the launcher is not there.
    public static func nextToExecutable() -> InstalledPrograms? {
        guard let launcher = SiblingExecutable.path(launcherName) else { return nil }
        return InstalledPrograms(
            launcher: launcher, exthost: SiblingExecutable.path(exthostName),
            extensions: SiblingExecutable.path(extensionsName), apps: SiblingExecutable.path(appsName))
    }

    /// `exthost ROLE arguments…`, or nil when exthost is not installed.
    public func invocation(_ role: Role, _ arguments: [String] = []) -> ProgramInvocation? {
        exthost.map { ProgramInvocation(executable: $0, arguments: [role.rawValue] + arguments) }
    }

    /// The built-in share extension: `exthost-builtin-extension __extension` where that program is
    /// installed, else `exthost __extension`.
    public var builtInShareExtension: ProgramInvocation? { builtInExtension(.shareExtension) }
    /// The built-in action extension: `exthost-builtin-extension __action-extension` where that program is
    /// installed, else `exthost __action-extension`.
    public var builtInActionExtension: ProgramInvocation? { builtInExtension(.actionExtension) }

    private func builtInExtension(_ role: Role) -> ProgramInvocation? {
        extensions.map { ProgramInvocation(executable: $0, arguments: [role.rawValue]) } ?? invocation(role)
    }
    /// The built-in app: `exthost-builtin-app __app` (nil where that program is not installed).
    public var builtInApp: ProgramInvocation? {
        apps.map { ProgramInvocation(executable: $0, arguments: [Role.app.rawValue]) }
    }
}
