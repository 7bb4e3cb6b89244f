// Reading a declaration file. This is the only file of the module that imports Foundation, and
// only for reading files and PropertyListSerialization.
public import Foundation
import Reporting

extension TypeRegistry {
    /// The registry with the type declarations of an `Info.plist` added.
    ///
    /// - Parameter url: an `Info.plist` (XML or binary), or a bundle directory: its `Info.plist`,
    ///   or `Contents/Info.plist` for a macOS-style bundle, is read.
    /// - Returns: the new registry and the diagnostics of ``adding(declarationsFrom:sourcePath:)``;
    ///   their `sourcePath` is the path of the plist file read.
    /// - Throws: ``TypeRegistryError`` with code `unreadable` when the file cannot be read (or the
    ///   directory has no `Info.plist`), `malformed` when it is not a property list with a
    ///   dictionary at the top, or a declaration key is not an array. The message names the file.
    public func adding(declarationsFromPlistAt url: URL) throws -> (TypeRegistry, [TypeDiagnostic]) {
        try adding(declarationsFromPlistsAt: [url])
    }

    /// The registry with the type declarations of several `Info.plist` files (or bundle
    /// directories) added in order — an app and its extensions, say. Precedence is as for one file
    /// (exported over imported, first of two exports wins), and the checks that need every
    /// declaration (a parent nobody declares) run once at the end.
    ///
    /// - Throws: ``TypeRegistryError`` for the first file that cannot be read or is malformed;
    ///   nothing is added then.
    public func adding(declarationsFromPlistsAt urls: [URL]) throws -> (TypeRegistry, [TypeDiagnostic]) {
        try adding(plists: urls.map { try Self.readPlist(at: $0) })
    }

    /// The top-level dictionary of the plist at `url` (or of a bundle's `Info.plist`) and its path.
    private static func readPlist(at url: URL) throws -> ([String: Any], String) {
        let file = try plistFile(at: url)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw TypeRegistryError(.unreadable, "cannot read \(file.path)", cause: error)
        }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw TypeRegistryError(
                .malformed, "\(file.path) is not a property list: \(reason(error))", cause: error)
        }
        guard let dictionary = value as? [String: Any] else {
            throw TypeRegistryError(
                .malformed,
                "\(file.path): the top level must be a dictionary, not \(kind(of: value))")
        }
        return (dictionary, file.path)
    }

    /// The plist to read for `url`: itself, or the `Info.plist` of a bundle directory.
    private static func plistFile(at url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw TypeRegistryError(.unreadable, "\(url.path) does not exist")
        }
        guard isDirectory.boolValue else { return url }
        for candidate in ["Info.plist", "Contents/Info.plist"] {
            let file = url.appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        throw TypeRegistryError(
            .unreadable, "\(url.path) is a directory without Info.plist (or Contents/Info.plist)")
    }

    /// The most specific text Foundation gives for a parse error (it often names the line).
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String { return debug }
        return nsError.localizedDescription
    }
}

extension TypeRegistry {
    /// The system's types plus those declared in each readable file of `files` (an `Info.plist`
    /// or a bundle directory); a file that cannot be read or parsed is skipped, as the device
    /// skips a bundle whose declarations it cannot read.
    public static func declared(in files: [URL]) -> TypeRegistry {
        var registry = TypeRegistry.system
        for file in files {
            if let (added, _) = try? registry.adding(declarationsFromPlistsAt: [file]) { registry = added }
        }
        return registry
    }
}
