import ExtHostTestSupport
import Foundation
import HostSystem
import Testing

/// The products SwiftPM builds next to the test bundle.
enum TestProducts {
    static var directory: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }
    static var launcher: String { directory + "/exthost-sandbox-exec" }
    static var child: String { directory + "/exthost-test-child" }
}

/// What a finished child wrote and how it ended.
typealias Collected = TestSupport.Finished

/// Runs `spawn` to completion with its standard output and error captured.
func runCollecting(_ spawn: Spawn, during body: (ChildProcess) async throws -> Void = { _ in }) async throws
    -> Collected
{
    try await TestSupport.runCollecting(spawn, during: body)
}

/// Reads one line (up to a newline) from `descriptor`, blocking.
func readLine(_ descriptor: FileDescriptor) throws -> String {
    var line: [UInt8] = []
    var byte: [UInt8] = [0]
    while true {
        let count = try byte.withUnsafeMutableBytes { try descriptor.read(into: $0) }
        if count == 0 || byte[0] == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
        line.append(byte[0])
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("exthost-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
