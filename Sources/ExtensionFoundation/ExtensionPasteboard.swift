import Dispatch
package import ExtensionIPC
import ExtensionRuntime
package import Foundation
import HostSystem

/// An extension's requests to the device's pasteboard service: `UIPasteboard.general` in an
/// extension asks its host, which reads or writes the device's pasteboard (the extension's sandbox
/// does not reach the pasteboard's file, as on iOS, where `pasted` owns it).
package enum ExtensionPasteboard {
    /// Reads (`items` nil) or replaces the pasteboard and waits for the host's answer; nil when the
    /// process is not an extension exthost started.
    package static func request(items: [PasteboardItem]?, expirationDate: Date?, localOnly: Bool?)
        -> PasteboardReply?
    {
        guard let environment = ExtensionLog.current else { return nil }
        let semaphore = DispatchSemaphore(value: 0)
        let answer = Locked<PasteboardReply?>(nil)
        environment.host.pasteboard(items: items, expirationDate: expirationDate, localOnly: localOnly) { reply in
            answer.withLock { $0 = reply }
            semaphore.signal()
        }
        semaphore.wait()
        return answer.withLock { $0 }
    }
}
