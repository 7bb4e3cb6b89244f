// exthost-builtin-app: the app exthost runs for an installed app bundle without a program of its own
// (BuiltInApp, on UIKit and exthost's app runtime). The host starts it sandboxed, with its channel
// on descriptor 3, as `exthost-builtin-app __app`. A program of its own so that `exthost` itself
// links neither UIKit nor FoundationNetworking (whose libcurl brings two dozen shared libraries
// every `exthost` command used to load at its start).
// The app runtime (AppRuntime, which UIKit's UIApplicationMain finds by name) is linked in as a
// dependency of this target.
import BuiltInApp
import HostSystem

guard CommandLine.arguments.count == 2, CommandLine.arguments[1] == BuiltInApp.commandWord else {
    let usage =
        "usage: \(BuiltInApp.programName) \(BuiltInApp.commandWord)\n"
        + "(started by 'exthost app run', 'exthost open' and the share sheet with the host's socket on descriptor 3)\n"
    try? FileDescriptor.standardError.writeAll(Array(usage.utf8))
    CurrentProcess.exit(64)
}
CurrentProcess.exit(BuiltInApp.main())
