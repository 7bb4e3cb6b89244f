// libFuzzer target for the payload manifest (`share.json`): any bytes are written as the manifest of
// a scratch folder holding two small files, and loaded as a payload. The JSON parser with locations
// and the manifest reader must end in a payload or a PayloadError — never a trap — and nothing may
// appear in the folder besides what was there. Built by Scripts/fuzz with the modules below it.
import Foundation
import LocatedDocuments

@testable import Payloads

private let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("manifests-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try? Data("hello".utf8).write(to: url.appendingPathComponent("note.txt"))
    try? Data([0x89, 0x50, 0x4E, 0x47]).write(to: url.appendingPathComponent("photo.png"))
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? LocatedValue.read(bytes, as: .json)
    let manifest = folder.appendingPathComponent("share.json")
    guard (try? Data(bytes).write(to: manifest)) != nil else { return 0 }
    if let payload = try? Payload.load(folder) {
        _ = payload.activationPayload()
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
    if names != ["note.txt", "photo.png", "share.json"] {
        preconditionFailure("loading a manifest changed its folder: \(names)")  // a bug the fuzzer reports
    }
    return 0
}
