import Foundation
import HostSystem

/// The programs commands start as child processes.
enum Executables {
    /// The `exthost` executable next to the running one (the running one itself from the command
    /// line; the one built beside the test bundle in tests).
    /// - Throws: ``CommandError`` (exit 1) when there is none.
    static func exthost() throws -> String {
        guard let sibling = SiblingExecutable.path("exthost") else {
            throw CommandError.failed(
                "the exthost executable is not next to \(SiblingExecutable.directory ?? "this program"); build the package first"
            )
        }
        return sibling
    }
}
