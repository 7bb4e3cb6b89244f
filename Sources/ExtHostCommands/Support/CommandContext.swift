public import Foundation
import HostSystem

/// Where a command writes and what it knows of its environment.
///
/// The real entry point writes to the process's standard output and error; tests pass a
/// context that collects the text instead.
public final class CommandContext: Sendable {
    /// The process environment.
    public let environment: [String: String]
    /// The working directory, for resolving relative paths.
    public let currentDirectory: String
    /// Whether standard output is a terminal (colour, progress bars).
    public let isTerminal: Bool
    private let sink: Locked<Sink>

    private enum Sink {
        case process
        case collecting(out: String, err: String)
    }

    /// A context over the process's standard output and error.
    public static func process() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath,
            isTerminal: isatty(1) == 1, sink: .process)
    }

    /// A context that keeps what is written, for tests.
    public static func collecting(
        environment: [String: String] = [:], currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> CommandContext {
        CommandContext(
            environment: environment, currentDirectory: currentDirectory, isTerminal: false,
            sink: .collecting(out: "", err: ""))
    }

    private init(environment: [String: String], currentDirectory: String, isTerminal: Bool, sink: Sink) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.isTerminal = isTerminal
        self.sink = Locked(sink)
    }

    /// Whether the context writes to the process's own standard output and error (not a test's
    /// collecting context), so a child may be given them directly.
    public var isProcess: Bool {
        sink.withLock { sink in
            if case .process = sink { return true }
            return false
        }
    }

    /// Whether colour may be used: a terminal, and `NO_COLOR` unset.
    public var usesColor: Bool { isTerminal && (environment["NO_COLOR"] ?? "").isEmpty }

    /// Writes `text` and a newline to standard output.
    public func print(_ text: String = "") { write(text + "\n", toError: false) }

    /// Writes `text` and a newline to standard error.
    public func printError(_ text: String) { write(text + "\n", toError: true) }

    /// Writes a JSON value to standard output.
    public func printJSON(_ value: JSONValue) { print(value.rendered()) }

    /// Prints a report type as JSON through its `Codable` conformance (see ``JSONValue/init(encoding:)``).
    /// - Throws: ``CommandError/failed(_:)`` when the value cannot be encoded.
    public func printJSON(encoding value: some Encodable) throws {
        do { printJSON(try JSONValue(encoding: value)) } catch {
            throw CommandError.failed("cannot encode the report: \(error)")
        }
    }

    /// Writes `{pairs…, key: [elements…], trailing…}` to standard output as ``printJSON(_:)`` would,
    /// rendering one element at a time (see ``JSONValue/streamObject(_:array:count:element:trailing:to:)``).
    public func printJSON(
        _ pairs: [(String, JSONValue)], array key: String, count: Int, trailing: [(String, JSONValue)] = [],
        element: (Int) throws -> JSONValue
    ) rethrows {
        try JSONValue.streamObject(pairs, array: key, count: count, element: element, trailing: trailing) {
            write($0, toError: false)
        }
        write("\n", toError: false)
    }

    /// Writes `{pairs…, key: [elements…], trailing…}` to standard output as ``printJSON(_:)`` would,
    /// the elements handed over one at a time by `elements` (see
    /// ``JSONValue/streamObject(_:array:elements:trailing:to:)``).
    public func printJSON(
        _ pairs: [(String, JSONValue)], array key: String, trailing: [(String, JSONValue)] = [],
        elements: (_ emit: (JSONValue) throws -> Void) throws -> Void
    ) rethrows {
        try JSONValue.streamObject(pairs, array: key, elements: elements, trailing: trailing) {
            write($0, toError: false)
        }
        write("\n", toError: false)
    }

    /// Writes `{pairs…, key: [elements…], trailing…}` to standard output as ``printJSON(_:)`` would,
    /// each element appending its own JSON text (see
    /// ``JSONValue/streamObject(_:array:writing:trailing:to:)``).
    public func printJSON(
        _ pairs: [(String, JSONValue)], array key: String, trailing: [(String, JSONValue)] = [],
        writing elements: (_ emit: ((inout [UInt8]) -> Void) throws -> Void) throws -> Void
    ) rethrows {
        try JSONValue.streamObject(pairs, array: key, writing: elements, trailing: trailing) {
            write(bytes: $0)
        }
        write("\n", toError: false)
    }

    /// Writes UTF-8 `bytes` to standard output as is.
    public func write(bytes: [UInt8]) {
        sink.withLock { sink in
            switch sink {
            case .process: _ = bytes.withUnsafeBytes { try? FileDescriptor.standardOutput.writeAll($0) }
            case .collecting(var out, let err):
                out += String(decoding: bytes, as: UTF8.self)
                sink = .collecting(out: out, err: err)
            }
        }
    }

    /// Writes `text` as is.
    public func write(_ text: String, toError: Bool) {
        sink.withLock { sink in
            switch sink {
            case .process:
                let fd: FileDescriptor = toError ? .standardError : .standardOutput
                try? fd.writeAll(Array(text.utf8))
            case .collecting(var out, var err):
                if toError { err += text } else { out += text }
                sink = .collecting(out: out, err: err)
            }
        }
    }

    /// What was written to standard output (collecting contexts only).
    public var collectedOutput: String {
        sink.withLock { if case .collecting(let out, _) = $0 { return out } else { return "" } }
    }

    /// What was written to standard error (collecting contexts only).
    public var collectedError: String {
        sink.withLock { if case .collecting(_, let err) = $0 { return err } else { return "" } }
    }

    /// Resolves a path given on the command line against the working directory.
    public func resolve(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: currentDirectory).appendingPathComponent(path)
    }
}
