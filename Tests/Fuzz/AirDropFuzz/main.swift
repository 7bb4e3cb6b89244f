import AppGroups
import Foundation

// libFuzzer target for what an AirDrop peer sends the receiver: the announcement line (JSON: the
// files, a folder or a link) and then the bytes of the files, as `exthost airdrop`'s receiving
// device reads them from its socket. The first byte picks the receiving device (iOS 16 or 18) and
// its answer (accept, decline); the rest up to the first newline is the announcement, the rest the
// body. The receiver must not trap, must refuse what lies with nothing kept in the device, and must
// leave no staging folder behind. Built by Scripts/fuzz with LaunchServices and what it imports.
@testable import LaunchServices

private let root = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("exthost-fuzz-airdrop-\(getpid())")

private func entries(_ folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAirDrop(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let choice = data[0]
    let rest = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let newline = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
    guard let announcement = try? JSONDecoder().decode(AirDropAnnouncement.self, from: rest[..<newline]) else {
        return 0
    }
    var body = newline < rest.endIndex ? rest[rest.index(after: newline)...] : rest[rest.endIndex...]
    try? FileManager.default.removeItem(at: root)
    try? FileManager.default.createDirectory(
        at: root.appendingPathComponent("Bundles"), withIntermediateDirectories: true)
    var receiver = AirDropReceiver(
        root: DeviceRoot(url: root), iosVersion: IOSVersion(major: choice & 1 == 0 ? 18 : 16),
        response: AirDropResponse(accept: choice & 2 == 0, saveToFiles: choice & 1 == 1 && choice & 4 == 0))
    receiver.maximumBytes = 1 << 20
    receiver.maximumFiles = 64
    guard
        let receipt = try? receiver.receive(
            announcement,
            read: { buffer in
                let count = min(buffer.count, body.count)
                body.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: count)
                body = body.dropFirst(count)
                return count
            })
    else { return 0 }
    let staging = entries(root.appendingPathComponent("tmp")).filter { $0.hasPrefix("airdrop-") }
    if !staging.isEmpty { preconditionFailure("a staging folder was left behind: \(staging)") }
    if receipt.outcome == "refused" {
        let kept = entries(root).filter { !$0.hasPrefix("Bundles") && !$0.hasPrefix("tmp") && $0 != "device.plist" }
            .filter { path in
                var directory: ObjCBool = false
                return FileManager.default.fileExists(
                    atPath: root.appendingPathComponent(path).path, isDirectory: &directory)
                    && !directory.boolValue
            }
        if !kept.isEmpty { preconditionFailure("refused (\(receipt.reason)) but kept \(kept)") }
    }
    return 0
}
