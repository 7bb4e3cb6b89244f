public import AppGroups
public import Foundation

/// The extension bundle a program run in place of an extension's own stands in for (`exthost share
/// --extension-executable PATH`): the process is that bundle's — `Bundle.main`, its identifier, its
/// container, its App Groups — whichever file the kernel executes.
public struct ExtensionStandIn: Sendable, Hashable {
    /// The bundle the program runs as.
    public var bundle: URL
    /// How it was chosen, in words (the report's ``ShareReport/ExtensionRun/standIn``).
    public var reason: String
    /// Whether it is exthost's generic extension (no installed extension names the program).
    public var isGeneric: Bool

    /// A stand-in for `bundle`, chosen for `reason`.
    public init(bundle: URL, reason: String, isGeneric: Bool = false) {
        self.bundle = bundle
        self.reason = reason
        self.isGeneric = isGeneric
    }

    /// The bundle `executable` stands in for on `root`: the installed extension whose
    /// `CFBundleExecutable` is the program's file name (the one it replaces, as a freshly built
    /// program replaces the installed copy), else exthost's generic extension (installed for the
    /// purpose; its `Info.plist` has none of the keys the program may read, and ``reason`` says so).
    /// - Throws: ``AppGroups/AppGroupError`` when the generic extension cannot be installed.
    public static func choose(for executable: URL, on root: DeviceRoot) throws -> ExtensionStandIn {
        let name = executable.lastPathComponent
        let installed = root.bundleURLs().filter { $0.pathExtension == "appex" }
        if let replaced = installed.first(where: { InstalledBundle.executableName(of: $0) == name }) {
            let identifier =
                (try? BundleIdentity.load(bundle: replaced))?.bundleIdentifier ?? replaced.lastPathComponent
            return ExtensionStandIn(
                bundle: replaced,
                reason: "\(executable.path) replaces the program of the installed extension \(identifier) "
                    + "(its CFBundleExecutable is \(name)); Bundle.main is \(replaced.path)")
        }
        let generic =
            try root.installedBundle(GenericApp.extensionIdentifier, pathExtension: "appex")
            ?? GenericApp.install(on: root)
        let others = installed.compactMap { InstalledBundle.executableName(of: $0) }
        return ExtensionStandIn(
            bundle: generic,
            reason: "no installed extension has CFBundleExecutable \(name)"
                + (others.isEmpty ? "" : " (installed: \(others.sorted().joined(separator: ", ")))")
                + ": \(executable.path) stands in for exthost's generic extension \(GenericApp.extensionIdentifier) "
                + "(App Group \(GenericApp.group)); Bundle.main is that bundle, whose Info.plist has only its own keys "
                + "— install your app, or pass --extension BUNDLE.appex",
            isGeneric: true)
    }
}
