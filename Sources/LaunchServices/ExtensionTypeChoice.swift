import Foundation
import UniformTypes

/// Which type a filename extension gives on the device, who declares it, and why it won.
public struct ExtensionTypeChoice: Codable, Sendable, Hashable {
    /// One type declared with the extension.
    public struct Candidate: Codable, Sendable, Hashable {
        /// The type.
        public var typeIdentifier: String
        /// `system`, `exported` or `imported`.
        public var declaration: String
        /// The installed app whose bundle declares it (nil for a system type).
        public var bundleIdentifier: String?
        /// That app's place in the install order (`install #2`, or found without a record).
        public var installOrder: String?
    }

    /// The extension (without a dot).
    public var `extension`: String
    /// The type it gives.
    public var typeIdentifier: String
    /// Every declared type with the extension (conforming to `public.data`), the winner first.
    public var candidates: [Candidate]
    /// Why the winner won.
    public var reason: String
}

extension InstalledBundles {
    /// The type the filename extension `ext` (no dot) gives on this device (the type iOS types such a file
    /// with), every type declared with it, and why the winner won: a public (system) type first;
    /// between types apps declare, the latest install's ("After the second app is installed, every
    /// `.innocent` file is typed with the second app's UTI"; deleting it restores the first's);
    /// none: a `dyn.` type.
    public func typeChoice(forFilenameExtension ext: String) -> ExtensionTypeChoice {
        let found = registry.types(forFilenameExtension: ext, conformingTo: .data)
        let candidates = found.filter { !$0.isDynamic }.map { type -> ExtensionTypeChoice.Candidate in
            let (kind, app) = declarer(of: type)
            return ExtensionTypeChoice.Candidate(
                typeIdentifier: type.rawValue, declaration: kind, bundleIdentifier: app?.identifier,
                installOrder: app.map { $0.installOrder.description })
        }
        let winner = registry.preferredType(forFilenameExtension: ext)
        let reason: String
        if winner.isDynamic {
            reason = "no system type and no installed app declares .\(ext): the file gets the dynamic type \(winner)"
        } else if candidates.count == 1, let only = candidates.first {
            reason =
                only.bundleIdentifier.map { "only \($0) declares .\(ext) (\(only.declaration) \(winner))" }
                ?? "the system type \(winner) has .\(ext)"
        } else if let first = candidates.first, first.declaration == "system" || winner.isPublic {
            reason = "\(winner) is a public type: public types win .\(ext) over the ones apps declare"
        } else if let first = candidates.first {
            let others = candidates.dropFirst().map {
                "\($0.typeIdentifier) (\($0.bundleIdentifier ?? "system"), \($0.installOrder ?? "system"))"
            }
            reason =
                "\(first.bundleIdentifier ?? "?") (\(first.installOrder ?? "?")) was installed after the other "
                + "declarers of .\(ext) — \(others.joined(separator: ", ")) — and the later install takes the "
                + "extension (uninstalling it gives it back)"
        } else {
            reason = "\(winner)"
        }
        return ExtensionTypeChoice(
            extension: ext, typeIdentifier: winner.rawValue, candidates: candidates, reason: reason)
    }

    /// How `type` is declared (`system`, `exported`, `imported`, `dynamic`) and the installed app
    /// whose bundle (or one of its extensions) declares it.
    func declarer(of type: UniformTypeIdentifier) -> (String, App?) {
        guard let declaration = registry.declaration(for: type) else { return ("dynamic", nil) }
        let path: String
        let kind: String
        switch declaration.source {
        case .system: return ("system", nil)
        case .dynamic: return ("dynamic", nil)
        case .exported(let file):
            path = file
            kind = "exported"
        case .imported(let file):
            path = file
            kind = "imported"
        }
        let app = apps.first {
            path == $0.url.appendingPathComponent("Info.plist").path || path.hasPrefix($0.url.path + "/")
        }
        return (kind, app)
    }
}
