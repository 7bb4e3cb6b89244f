// exthost-builtin-extension: exthost's built-in extensions (save-to-group, uppercase action) as a program of
// their own. The host starts it sandboxed, with its channel on descriptor 3, as
// `exthost-builtin-extension __extension` or `exthost-builtin-extension __action-extension`. It links only the
// extension's runtime (not the CLI, the rule engine, FoundationXML or FoundationNetworking), so it
// starts in a few milliseconds where re-executing the whole `exthost` took about fifteen.
import Dispatch
import ExtensionRuntime
import HostSystem

let words = BuiltInExtension.allCases.map(\.rawValue).joined(separator: " | ")
guard CommandLine.arguments.count == 2, let role = BuiltInExtension(rawValue: CommandLine.arguments[1]) else {
    let usage =
        "usage: \(BuiltInExtension.programName) \(words)\n"
        + "(started by 'exthost share' and 'exthost sheet --perform' with the host's socket on descriptor 3)\n"
    try? FileDescriptor.standardError.writeAll(Array(usage.utf8))
    CurrentProcess.exit(64)
}
Task {
    CurrentProcess.exit(await role.run())
}
dispatchMain()
