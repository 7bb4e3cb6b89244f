import Foundation

/// The programs commands start as child processes.
enum Executables {
    /// The `exthost` executable next to the running one (the running one itself from the command
    /// line; the one built beside the test bundle in tests).
    /// - Throws: ``CommandError`` (exit 1) when there is none.
    static func exthost() throws -> String {
        let current = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let sibling = ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent("exthost")
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            throw CommandError.failed("the exthost executable is not next to \(current); build the package first")
        }
        return sibling
    }
}
