// exthost-test-child: a small program the HostSystem tests run inside the sandbox launcher, to
// observe from the inside what a confined extension can and cannot do. One subcommand per probe;
// results go to standard output as `key=value` lines. Not shipped; built for tests only.
//
//   read PATH            contents=… or error=ERRNO
//   write PATH TEXT      written or error=ERRNO
//   fds                  open=0,1,2,3 (descriptor numbers below 256 that are open)
//   signals              blocked=HEX ignored=HEX (SigBlk / SigIgn from /proc/self/status)
//   group                pid=N group=N
//   limits               nofile=N (the first descriptor number open() fails at, EMFILE)
//   hold MIB             touches MIB MiB of fresh memory, prints ready, waits for end of stdin
//   wait                 prints ready, waits for end of standard input (or a signal)
//   handshake            hello → welcome → bye over fd 3
//   receive-file         hello → welcome, then a fileReply on fd 3: prints its descriptor's contents

import ExtensionIPC
import Foundation
import HostSystem

func emit(_ line: String) {
    try? FileDescriptor.standardOutput.writeAll(Array((line + "\n").utf8))
}

func readFile(_ path: String) -> String {
    do throws(Errno) {
        let descriptor = try FileDescriptor.open(path)
        defer { try? descriptor.close() }
        return "contents=" + String(decoding: try descriptor.readAll(limit: 1 << 20), as: UTF8.self)
    } catch {
        return "error=\(error.rawValue)"
    }
}

func waitForEndOfInput() {
    var byte: [UInt8] = [0]
    while (try? byte.withUnsafeMutableBytes { try FileDescriptor.standardInput.read(into: $0) }) ?? 0 > 0 {}
}

let arguments = Array(CommandLine.arguments.dropFirst())
let connection = { Connection(socket: Socket(descriptor: FileDescriptor(rawValue: 3))) }

func handshake(_ connection: Connection) throws -> Welcome {
    try connection.send(.hello(Hello(role: .extension, pid: ProcessID.current.rawValue, name: "exthost-test-child")))
    guard case .welcome(let welcome) = try connection.receive(timeout: .seconds(10)).message else {
        throw IPCError(.protocolViolation, "expected welcome")
    }
    return welcome
}

switch arguments.first {
case "read" where arguments.count == 2:
    emit(readFile(arguments[1]))
case "write" where arguments.count == 3:
    do throws(Errno) {
        let file = try FileDescriptor.open(arguments[1], [.writeOnly, .create, .truncate])
        try file.writeAll(Array(arguments[2].utf8))
        try file.close()
        emit("written")
    } catch {
        emit("error=\(error.rawValue)")
    }
case "fds":
    let open = (0..<256).filter { (try? FileDescriptor(rawValue: CInt($0)).status()) != nil }
    emit("open=" + open.map(String.init).joined(separator: ","))
case "signals":
    let status = readFile("/proc/self/status")
    let lines = status.split(separator: "\n")
    let blocked = lines.first { $0.hasPrefix("SigBlk:") }?.split(separator: "\t").last ?? "?"
    let ignored = lines.first { $0.hasPrefix("SigIgn:") }?.split(separator: "\t").last ?? "?"
    emit("blocked=\(blocked) ignored=\(ignored)")
case "group":
    let group = (try? ProcessID.current.processGroup().rawValue) ?? -1
    emit("pid=\(ProcessID.current) group=\(group)")
case "limits":
    var opened: [FileDescriptor] = []
    var failure = "none"
    while opened.count < 100_000 {
        do throws(Errno) {
            opened.append(try FileDescriptor.open("/dev/null"))
        } catch {
            failure = "\(error.rawValue)"
            break
        }
    }
    emit("nofile=\((opened.last?.rawValue ?? 2) + 1) error=\(failure)")
case "hold" where arguments.count == 2:
    let mebibytes = Int(arguments[1]) ?? 0
    var memory = [UInt8](repeating: 0, count: mebibytes << 20)
    for index in stride(from: 0, to: memory.count, by: 4096) { memory[index] = 1 }
    emit("ready")
    waitForEndOfInput()
    // One byte per page was touched; reading them back keeps the buffer alive until here.
    emit("held=\(stride(from: 0, to: memory.count, by: 4096).count { memory[$0] == 1 }) pages")
case "wait":
    emit("ready")
    waitForEndOfInput()
    emit("stdin-closed")
case "handshake":
    do {
        let channel = connection()
        let welcome = try handshake(channel)
        try channel.send(.bye(Bye(reason: "done, \(welcome.context.items.count) items")))
        channel.close()
    } catch {
        emit("error=\(error)")
    }
case "receive-file":
    do {
        let channel = connection()
        _ = try handshake(channel)
        let frame = try channel.receive(timeout: .seconds(10))
        guard case .fileReply = frame.message, let descriptor = frame.descriptors.first else {
            throw IPCError(.protocolViolation, "expected a fileReply")
        }
        emit("contents=" + String(decoding: try descriptor.readAll(), as: UTF8.self))
        try descriptor.close()
        try channel.send(.bye(Bye(reason: "read it")))
        channel.close()
    } catch {
        emit("error=\(error)")
    }
default:
    emit("usage: exthost-test-child read|write|fds|signals|group|limits|hold|wait|handshake|receive-file …")
    exit(64)
}
