import Foundation

/// Programs installed beside the running one: exthost's launcher (`exthost-sandbox-exec`) and its
/// own executable sit in one directory, whether that is `.build/debug`, an install prefix's `bin`,
/// or the build directory of a user's package whose tests depend on them.
public enum SiblingExecutable {
    /// The directory of the running executable (`/proc/self/exe`), or nil when it cannot be read.
    public static var directory: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        return (executable as NSString).deletingLastPathComponent
    }

    /// The executable `name` beside the running one, or nil when there is none.
    public static func path(_ name: String) -> String? {
        guard let directory else { return nil }
        let candidate = (directory as NSString).appendingPathComponent(name)
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
