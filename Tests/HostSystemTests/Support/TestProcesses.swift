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
struct Collected: Sendable {
    var output: String
    var errors: String
    var status: TerminationStatus
    /// `key=value` pairs of the output's lines.
    var fields: [String: String] {
        var result: [String: String] = [:]
        for line in output.split(separator: "\n") {
            for word in line.split(separator: " ") {
                guard let equals = word.firstIndex(of: "=") else { continue }
                result[String(word[..<equals])] = String(word[word.index(after: equals)...])
            }
        }
        return result
    }
}

/// Runs `spawn` to completion with its standard output and error captured.
func runCollecting(_ spawn: Spawn, during body: (ChildProcess) async throws -> Void = { _ in }) async throws
    -> Collected
{
    var spawn = spawn
    let output = try FileDescriptor.pipe()
    let errors = try FileDescriptor.pipe()
    spawn.descriptors[1] = output.writeEnd
    spawn.descriptors[2] = errors.writeEnd
    let outputCapture = OutputCapture(reading: output.readEnd, keepingAtMost: 1 << 20)
    let errorCapture = OutputCapture(reading: errors.readEnd, keepingAtMost: 1 << 20)
    let status: TerminationStatus
    do {
        (_, status) = try await withChildProcess(spawn) { child in
            try output.writeEnd.close()
            try errors.writeEnd.close()
            try await body(child)
            return await child.exitStatus()
        }
    } catch let error as Errno {
        // Spawning failed: the write ends are still ours.
        try? output.writeEnd.close()
        try? errors.writeEnd.close()
        throw error
    }
    return Collected(
        output: try await outputCapture.output().text, errors: try await errorCapture.output().text, status: status)
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
