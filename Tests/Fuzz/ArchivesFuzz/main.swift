// libFuzzer target for archive import: reading (headers and data) and safe extraction.
//
// Built by Scripts/fuzz, which compiles Sources/Archives (and HostSystem below it) as modules of
// their own and this file against them, all with `-sanitize=fuzzer,address`. Each input is
// read as an archive from memory, then extracted into a scratch directory under tight limits.
// Besides crashes and memory errors, the target traps when an invariant of the extractor breaks:
// something other than the destination appears next to it (a staging directory left behind, an
// escaped entry), or a symbolic link inside the destination resolves outside it.
import Foundation
import HostSystem

@testable import Archives

/// Per-process scratch space: `<tmp>/archives-fuzz-<pid>/box/dest`.
private let sandbox: URL = {
    let root = FileManager.default.temporaryDirectory.appending(path: "archives-fuzz-\(getpid())")
    let box = root.appending(path: "box")
    try? FileManager.default.createDirectory(at: box, withIntermediateDirectories: true)
    return box
}()

private let limits = ExtractionLimits(
    maximumTotalSize: 8 << 20, maximumEntryCount: 512, maximumCompressionRatio: 200,
    compressionRatioThreshold: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    readEverything(bytes)
    extract(bytes)
    return 0
}

/// Lists every entry and streams all data, as `exthost payload show` of an archive would.
private func readEverything(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let reader = try? ArchiveReader(bytes: bytes, name: "fuzz-input") else { return }
    var total = 0
    while let entry = try? reader.nextEntry() {
        _ = entry.path.utf8.count + (entry.linkTarget?.utf8.count ?? 0)
        try? reader.readData { chunk in
            total += chunk.count
            if total > 64 << 20 { throw ArchiveError(.tooLarge, "fuzz read cap") }
        }
        if total > 64 << 20 { break }
    }
    try? reader.finish()
}

/// Extracts into `box/dest` and checks that nothing escaped, then clears the box.
private func extract(_ bytes: UnsafeBufferPointer<UInt8>) {
    let destination = sandbox.appending(path: "dest")
    if let reader = try? ArchiveReader(bytes: bytes, name: "fuzz-input") {
        _ = try? ArchiveExtractor(limits: limits).extract(from: reader, into: destination)
        try? reader.finish()
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.path)) ?? []
    // A finding, not input handling: the extractor must leave only `dest` (or nothing) behind.
    precondition(names.allSatisfy { $0 == "dest" }, "extraction left \(names) next to the destination")
    if names.contains("dest") {
        checkLinksStayInside(destination)
        if let box = try? FileDescriptor.open(sandbox.path, [.readOnly, .directory]) {
            try? box.removeTree("dest")
            try? box.close()
        }
    }
}

/// Traps when a symbolic link under `destination` resolves to an existing path outside it.
private func checkLinksStayInside(_ destination: URL) {
    let base = destination.resolvingSymlinksInPath().path
    let manager = FileManager.default
    guard let subpaths = try? manager.subpathsOfDirectory(atPath: destination.path) else { return }
    for subpath in subpaths {
        let item = destination.appending(path: subpath)
        guard (try? manager.destinationOfSymbolicLink(atPath: item.path)) != nil else { continue }
        let resolved = item.resolvingSymlinksInPath().path
        guard manager.fileExists(atPath: resolved) else { continue }
        // A finding: a link the extractor accepted points outside the destination.
        precondition(resolved == base || resolved.hasPrefix(base + "/"), "\(subpath) resolves to \(resolved)")
    }
}
