package import ExtensionIPC
import ExtensionRuntime
import HostSystem

/// Lines the Apple-named layer adds to the host's report (what `os_log` would show on a device),
/// once ``NSExtensionMain(_:)`` has connected to the host; nothing before or outside a share.
package enum ExtensionLog {
    private static let environment = Locked<ExtensionRuntime.Environment?>(nil)

    static func attach(_ running: ExtensionRuntime.Environment) { environment.withLock { $0 = running } }

    /// The running extension's environment (nil outside an extension exthost started).
    static var current: ExtensionRuntime.Environment? { environment.withLock { $0 } }

    package static func error(_ text: String, mistake: LogLine.Mistake? = nil) {
        environment.withLock { $0 }?.log(text, level: .error, mistake: mistake)
    }

    static func info(_ text: String) {
        environment.withLock { $0 }?.log(text, level: .info)
    }
}
