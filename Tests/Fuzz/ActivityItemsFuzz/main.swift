import Foundation
import UniformTypes

// libFuzzer target for activity-item manifests (the JSON `exthost sheet --activity-items` and
// `exthost share --activity-items` read): any bytes as the manifest, in a folder holding a photo, a
// note and a subfolder it may reference, then the extension items built from them for a share
// extension, Mail and no activity at all. It must refuse (a PayloadError naming a line inside the
// input) or build without trapping, and never reach a file outside its folder. Built by
// Scripts/fuzz with Payloads and what it imports.
@testable import Payloads

private let folder = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("exthost-fuzz-activityitems-\(getpid())")
private let manifest = folder.appendingPathComponent("items.json")

private let prepared: Bool = {
    let fileManager = FileManager.default
    try? fileManager.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
    // A 1×1 PNG, a note, a card and a document in a subfolder.
    let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
        8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89, 0, 0, 0, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0, 1, 0, 0,
        5, 0, 1, 0x0D, 0x0A, 0x2D, 0xB4, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    try? Data(png).write(to: folder.appendingPathComponent("photo.png"))
    try? Data("a note\n".utf8).write(to: folder.appendingPathComponent("note.txt"))
    try? Data("BEGIN:VCARD\nEND:VCARD\n".utf8).write(to: folder.appendingPathComponent("alice.card"))
    try? Data("%PDF-1.4\n%%EOF\n".utf8).write(to: folder.appendingPathComponent("docs/menu.pdf"))
    return true
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzActivityItems(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard prepared else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard (try? bytes.write(to: manifest)) != nil else { return 0 }
    let items: ActivityItems
    do {
        items = try ActivityItems.load(contentsOf: manifest)
    } catch {
        _ = "\(error)"
        return 0
    }
    for activityType in ["com.example.share", "com.apple.UIKit.activity.Mail", nil] {
        do {
            let payload = try items.payload(for: activityType, registry: .system)
            _ = "\(payload)"
        } catch {
            _ = "\(error)"
        }
    }
    return 0
}
