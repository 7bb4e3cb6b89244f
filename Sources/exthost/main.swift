import BuiltInApp
import Dispatch
import ExtHostCommands
import ExtensionHost
import HostSystem

let arguments = Array(CommandLine.arguments.dropFirst())
// `exthost __app`: the built-in app, which exthost starts (sandboxed, with its channel on fd 3) for
// an app bundle without a program. The app life cycle runs on the main thread, as on iOS, so it
// starts here, before anything asynchronous.
if arguments.first == InstalledPrograms.Role.app.rawValue {
    CurrentProcess.exit(BuiltInApp.main())
}
Task {
    let code = await ExtHostCommands.main(arguments: arguments)
    CurrentProcess.exit(code.rawValue)
}
dispatchMain()
