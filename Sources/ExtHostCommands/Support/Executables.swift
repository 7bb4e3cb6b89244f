import ExtensionHost
import Foundation
import HostSystem

/// The programs commands start as child processes.
enum Executables {
    /// exthost's installed programs beside the running executable (the sandbox launcher and exthost
    /// itself for the built-in roles).
    /// - Throws: ``CommandError`` (exit 1) when the launcher is not there.
    static func programs() throws -> InstalledPrograms {
        guard let programs = InstalledPrograms.nextToExecutable() else {
            throw CommandError.failed(
                "\(InstalledPrograms.launcherName) is not next to this executable; build the package first")
        }
        return programs
    }

    /// The `exthost` executable next to the running one (the running one itself from the command
    /// line; the one built beside the test bundle in tests).
    /// - Throws: ``CommandError`` (exit 1) when there is none.
    static func exthost(of programs: InstalledPrograms? = nil) throws -> String {
        guard let sibling = programs?.exthost ?? SiblingExecutable.path(InstalledPrograms.exthostName) else {
            throw CommandError.failed(
                "the exthost executable is not next to \(SiblingExecutable.directory ?? "this program"); build the package first"
            )
        }
        return sibling
    }
}
