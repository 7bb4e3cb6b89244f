// bench-items: memory of loadFileRepresentation on a big file (a benchmark, not a test).
//
// Usage: bench-items FILE [--descriptor] [--temporary-directory DIR]
// Registers FILE with ItemProvider(contentsOf:) (or, with --descriptor, as a descriptor
// representation, the sandboxed extension's path), loads it with loadFileRepresentation, checks
// the copy's size inside the completion handler, and prints one line of key=value pairs:
// the peak resident set (VmHWM) before and after the load, its growth, the copy's size and the
// seconds the load took. Scripts/bench-items runs it next to cp.
import Foundation
import HostSystem
import ItemProviders

/// A field of /proc/self/status in KiB (`VmHWM`, `VmRSS`).
func status(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

var arguments = CommandLine.arguments.dropFirst()
var path: String?
var useDescriptor = false
while let argument = arguments.popFirst() {
    switch argument {
    case "--descriptor": useDescriptor = true
    case "--temporary-directory":
        ItemProviderConfiguration.temporaryDirectory = URL(fileURLWithPath: arguments.popFirst() ?? "/tmp")
    default:
        if argument.hasPrefix("-") || path != nil {
            print("usage: bench-items FILE [--descriptor] [--temporary-directory DIR]")
            exit(2)
        }
        path = argument
    }
}
guard let path else {
    print("usage: bench-items FILE [--descriptor] [--temporary-directory DIR]")
    exit(2)
}

let expected = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1

func makeProvider(path: String, useDescriptor: Bool, expected: Int64) -> ItemProvider? {
    let source = URL(fileURLWithPath: path)
    guard useDescriptor else { return ItemProvider(contentsOf: source) }
    let provider = ItemProvider()
    provider.registerDescriptorRepresentation(for: "public.data") { completion in
        do {
            completion(DescriptorRepresentation(descriptor: try FileDescriptor.open(path), byteCount: expected), nil)
        } catch {
            completion(nil, error)
        }
        return nil
    }
    return provider
}

/// One load; returns the copy's size as seen inside the completion handler, and its directory.
func load(_ provider: ItemProvider) async -> Result<(Int64, URL), any Error> {
    await withCheckedContinuation { continuation in
        provider.loadFileRepresentation(for: "public.data") { url, error in
            guard let url else {
                continuation.resume(returning: .failure(error ?? ItemProviderError(.unknown, "no URL")))
                return
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
            continuation.resume(returning: .success((size ?? -1, url.deletingLastPathComponent())))
        }
    }
}

guard let provider = makeProvider(path: path, useDescriptor: useDescriptor, expected: expected) else {
    print("bench-items: cannot read \(path)")
    exit(1)
}
// Warm up the queues and the type registry with a small load first.
_ = await load(ItemProvider(object: "warm-up"))
let before = status("VmHWM")
let start = ContinuousClock.now
let result = await load(provider)
let elapsed = ContinuousClock.now - start
let after = status("VmHWM")
switch result {
case .success(let (size, directory)):
    // The directory is removed right after the handler returns, on the load queue; this process
    // must not exit before that happens, so wait for it (at most 5 s: inotify says when an entry
    // of its parent is deleted) and report it.
    let watcher = try? Inotify()
    _ = try? watcher?.addWatch(directory.deletingLastPathComponent().path, for: .delete)
    let deadline = ContinuousClock.now + .seconds(5)
    var removed = !FileManager.default.fileExists(atPath: directory.path)
    while !removed, let watcher, deadline > ContinuousClock.now {
        let remaining = (deadline - ContinuousClock.now).milliseconds / 1000
        _ = await withBlockingWait { (try? watcher.waitForEvents(timeout: remaining)) != nil }
        removed = !FileManager.default.fileExists(atPath: directory.path)
    }
    try? watcher?.close()
    let seconds = elapsed.milliseconds / 1000
    print(
        "mode=\(useDescriptor ? "descriptor" : "file") bytes=\(size) expected=\(expected) "
            + "hwm_before_kib=\(before) hwm_after_kib=\(after) growth_kib=\(after - before) "
            + "seconds=\(String(format: "%.3f", seconds)) temporary_removed=\(removed ? "yes" : "no")")
    exit(size == expected ? 0 : 1)
case .failure(let error):
    print("bench-items: load failed: \(error)")
    exit(1)
}
