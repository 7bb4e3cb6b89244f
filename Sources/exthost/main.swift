import Dispatch
import ExtHostCommands
import ExtensionHost
import HostSystem

let arguments = Array(CommandLine.arguments.dropFirst())
Task {
    let code = await ExtHostCommands.main(arguments: arguments)
    CurrentProcess.exit(code.rawValue)
}
dispatchMain()
