import ExtHostCommands

#if canImport(Glibc)
import Glibc
#endif

let code = await ExtHostCommands.main(arguments: Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
