// exthost-hostile-extension: a share extension that tries to get out. Tests run it under
// `exthost-sandbox-exec` through ExtensionHost and assert that every escape fails.
// It is not built on ExtensionRuntime on purpose: the confinement must hold for any program.
//
//   exthost-hostile-extension escapes [--items DIR] [--item-file FILE] [--other-group DIR]
//       [--root DIR] [--root-file FILE] [--home DIR] [--foreign-token TOKEN] [--tcp-port N]
//   exthost-hostile-extension memory MIB [THREADS] | fork COUNT | hang | crash
//
// In `escapes` mode each attempt is one log line over the connection:
//   `escape NAME refused <reason>` or `escape NAME ESCAPED <detail>`,
// and each thing a well-behaved extension must still be able to do is
//   `allowed NAME ok` or `allowed NAME FAILED <reason>`.
// Then it completes the request. The other modes go over a limit and never complete.

import CEscapeProbes
import ExtensionIPC
import Foundation
import HostSystem
import Synchronization

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let connection = Connection(socket: Socket(descriptor: FileDescriptor(rawValue: 3)))
let process = ProcessEnvironment.current()
let container = process?.containerPath ?? "/nonexistent"
let groups = process.map { $0.groupContainers.keys.sorted().compactMap { process?.groupContainers[$0] } } ?? []

/// Standard output, unbuffered (a killed process loses what `print` buffered).
func say(_ text: String) {
    try? FileDescriptor.standardOutput.writeAll(Array((text + "\n").utf8))
}

func log(_ text: String) {
    try? connection.send(.log(LogLine(level: .info, text: text)))
}

let nextRequest = Atomic<UInt64>(1)
/// Sends `message` (built with a fresh request id) and returns the frames up to its final reply.
func request(_ make: (UInt64) -> Message) throws -> Frame {
    let id = nextRequest.add(1, ordering: .relaxed).oldValue
    try connection.send(make(id))
    while true {
        let frame = try connection.receive(timeout: .seconds(90))
        switch frame.message {
        case .fileReply(let reply) where reply.requestID == id: return frame
        case .loadFailed(let failed) where failed.requestID == id: return frame
        case .loadCompleted(let done) where done.requestID == id: return frame
        case .securityScopeReply(let reply) where reply.requestID == id: return frame
        default: frame.closeDescriptors()
        }
    }
}

/// One escape: `errno` 0 means it worked (an escape), anything else that it was refused.
func escape(_ name: String, _ result: CInt) {
    log(result == 0 ? "escape \(name) ESCAPED" : "escape \(name) refused errno=\(result) (\(Errno(rawValue: result)))")
}

/// An IPC escape: a reply that grants or delivers is an escape.
func escape(_ name: String, frame: Frame) {
    switch frame.message {
    case .securityScopeReply(let reply) where reply.granted: log("escape \(name) ESCAPED granted")
    case .securityScopeReply(let reply): log("escape \(name) refused \(reply.reason ?? "no reason")")
    case .fileReply: log("escape \(name) ESCAPED got a descriptor")
    case .loadCompleted: log("escape \(name) ESCAPED got data")
    case .loadFailed(let failed): log("escape \(name) refused \(failed.error.message)")
    default: log("escape \(name) ESCAPED unexpected reply")
    }
    frame.closeDescriptors()
}

func allowed(_ name: String, _ result: CInt) {
    log(result == 0 ? "allowed \(name) ok" : "allowed \(name) FAILED errno=\(result)")
}

func runEscapes(_ welcome: Welcome) throws {
    let attachments = welcome.context.items.flatMap(\.attachments)
    let home = option("home") ?? "/root"
    let root = option("root") ?? "/nonexistent-root"
    // The file system, by path.
    escape("read-etc-passwd", ep_read_file("/etc/passwd"))
    escape("read-etc-hostname", ep_read_file("/etc/hostname"))
    escape("read-item-by-path", ep_read_file(option("item-file") ?? "/nonexistent"))
    escape("list-items", ep_list_directory(option("items") ?? "/nonexistent"))
    escape(
        "read-other-group",
        ep_read_file((option("other-group") ?? "/x") + "/.com.apple.mobile_container_manager.metadata.plist"))
    escape("write-other-group", ep_create_file((option("other-group") ?? "/x") + "/stolen"))
    escape("list-device-root", ep_list_directory(root))
    escape("read-device-root-file", ep_read_file(option("root-file") ?? root + "/x"))
    escape("write-device-root", ep_create_file(root + "/planted"))
    // The pasteboard is a system service: its file is out of reach (UIPasteboard asks the host).
    escape("read-pasteboard-file", ep_read_file(root + "/Pasteboard/general.json"))
    escape("write-pasteboard-file", ep_create_file(root + "/Pasteboard/general.json"))
    escape("list-home", ep_list_directory(home))
    escape("write-home", ep_create_file(home + "/.exthost-planted"))
    escape("write-tmp", ep_create_file("/tmp/exthost-hostile-planted"))
    escape("write-dev-shm", ep_create_file("/dev/shm/exthost-hostile-planted"))
    escape("mkdir-next-to-container", ep_make_directory(container + "/../planted-dir"))
    escape(
        "hard-link-item-into-container", ep_hard_link(option("item-file") ?? "/etc/passwd", container + "/tmp/linked"))
    escape(
        "symlink-out-of-container",
        {
            let link = container + "/tmp/passwd-link"
            _ = ep_symlink("/etc/passwd", link)
            return ep_read_file(link)
        }())
    escape("proc-self-root", ep_read_file("/proc/self/root/etc/passwd"))
    let parent = ep_parent_pid()
    escape("read-parent-environ", ep_read_file("/proc/\(parent)/environ"))
    escape("read-parent-memory", ep_read_file("/proc/\(parent)/mem"))
    escape("parent-cwd", ep_list_directory("/proc/\(parent)/cwd"))
    // Processes and privileges.
    escape("ptrace-parent", ep_ptrace_attach(parent))
    escape("signal-parent", ep_signal_probe(parent))
    escape("raise-rlimit", ep_raise_open_files_limit())
    escape("chroot", ep_chroot(container))
    escape("mount-tmpfs", ep_mount_tmpfs(container + "/tmp"))
    escape("exec-shell", ep_exec("/bin/sh"))
    escape("user-namespace-then-mount-or-read", ep_unshare_user_namespace())
    escape("tcp-connect", ep_connect_tcp(CInt(option("tcp-port") ?? "") ?? 9))
    // A suggested name that climbs out of tmp/.
    for attachment in attachments {
        guard let name = attachment.suggestedName, name.contains("..") else { continue }
        escape("suggested-name-\(name)", ep_create_file(container + "/tmp/" + name))
    }
    // The host: security-scope tokens and loads.
    escape("forged-token", frame: try request { .startAccessing(SecurityScopeRequest(requestID: $0, token: "forged")) })
    escape(
        "foreign-token",
        frame: try request {
            .startAccessing(SecurityScopeRequest(requestID: $0, token: option("foreign-token") ?? "ssb1.0.0.0"))
        })
    escape(
        "attachment-out-of-range",
        frame: try request {
            .loadRequest(LoadRequest(requestID: $0, attachment: 9999, typeIdentifier: "public.data", kind: .file))
        })
    for attachment in attachments {
        for representation in attachment.representations {
            let name = attachment.suggestedName ?? "#\(attachment.index)"
            let load = { (kind: RepresentationKind) throws -> Frame in
                try request {
                    .loadRequest(
                        LoadRequest(
                            requestID: $0, attachment: attachment.index, typeIdentifier: representation.typeIdentifier,
                            kind: kind))
                }
            }
            if representation.kind == .openInPlace, let token = representation.securityScopeToken,
                welcome.scopeEnforcement == "kernel"
            {
                let others = attachments.filter { $0.index != attachment.index }.flatMap(\.representations)
                    .compactMap(\.securityScopeToken)
                try kernelInPlaceEscapes(name, token: token, otherToken: others.first) { try load(.openInPlace) }
            } else if representation.kind == .openInPlace, let token = representation.securityScopeToken {
                escape("in-place-without-start-\(name)", frame: try load(.openInPlace))
                let started = try request { .startAccessing(SecurityScopeRequest(requestID: $0, token: token)) }
                if case .securityScopeReply(let reply) = started.message, reply.granted {
                    allowed("start-access-\(name)", 0)
                } else {
                    allowed("start-access-\(name)", EACCES)
                }
                let loaded = try load(.openInPlace)
                if case .fileReply = loaded.message, let fd = loaded.descriptors.first {
                    allowed("in-place-while-accessing-\(name)", (try? fd.readAll(limit: 1 << 20)) != nil ? 0 : EIO)
                } else {
                    allowed("in-place-while-accessing-\(name)", EACCES)
                }
                loaded.closeDescriptors()
                _ = try request { .stopAccessing(SecurityScopeRequest(requestID: $0, token: token)) }.closeDescriptors()
                escape("stopped-token-load-\(name)", frame: try load(.openInPlace))
                escape(
                    "stopped-token-stop-again-\(name)",
                    frame: try request { .stopAccessing(SecurityScopeRequest(requestID: $0, token: token)) })
            } else if representation.kind == .file, name.hasPrefix("link") {
                escape("symlink-in-items-\(name)", frame: try load(.file))
            } else if representation.kind == .file {
                // The data path a well-behaved extension uses: a descriptor, copied into the group.
                let loaded = try load(.file)
                if case .fileReply = loaded.message, let fd = loaded.descriptors.first, let group = groups.first {
                    let bytes = (try? fd.readAll(limit: 1 << 20)) ?? []
                    let target = group + "/hostile-copy-\(attachment.index)"
                    let written: Bool
                    do {
                        let out = try FileDescriptor.open(target, [.writeOnly, .create, .truncate])
                        try out.writeAll(bytes)
                        try out.close()
                        written = true
                    } catch {
                        written = false
                    }
                    allowed("file-load-into-group-\(name)", written && !bytes.isEmpty ? 0 : EIO)
                } else {
                    allowed("file-load-into-group-\(name)", EACCES)
                }
                loaded.closeDescriptors()
                escape(
                    "in-place-of-copy-only-\(name)",
                    frame: try load(.openInPlace))
            }
        }
    }
    allowed("write-own-tmp", ep_create_file(container + "/tmp/scratch"))
    allowed("write-group-container", groups.first.map { ep_create_file($0 + "/hostile-ok") } ?? ENOENT)
}

/// The in-place original under the kernel's broker: the path itself is handed out, and every way of
/// reaching the file without a started scope — or by another path — must fail.
func kernelInPlaceEscapes(
    _ name: String, token: String, otherToken: String?, load: () throws -> Frame
) throws {
    let reply = try load()
    guard case .fileReply(let fileReply) = reply.message, let path = fileReply.originalPath else {
        allowed("kernel-original-path-\(name)", EIO)
        reply.closeDescriptors()
        return
    }
    allowed("kernel-original-path-\(name)", 0)
    func scope(_ start: Bool, _ token: String) throws -> Bool {
        let frame = try request {
            start
                ? .startAccessing(SecurityScopeRequest(requestID: $0, token: token))
                : .stopAccessing(SecurityScopeRequest(requestID: $0, token: token))
        }
        if case .securityScopeReply(let answer) = frame.message { return answer.granted }
        return false
    }
    func opened(_ result: CInt) -> CInt { result >= 0 ? 0 : -result }
    escape("kernel-read-before-start-\(name)", ep_read_file(path))
    escape("kernel-stat-before-start-\(name)", ep_stat(path))
    escape("kernel-write-before-start-\(name)", ep_write_existing(path))
    escape("kernel-open-o-path-before-start-\(name)", opened(ep_open_descriptor(path, 1)))
    if let otherToken {
        _ = try scope(true, otherToken)
        escape("kernel-read-with-another-attachments-token-\(name)", ep_read_file(path))
        _ = try scope(false, otherToken)
    }
    let symlink = container + "/tmp/in-place-symlink"
    let hardLink = container + "/tmp/in-place-hard-link"
    _ = ep_symlink(path, symlink)
    let linked = ep_hard_link(path, hardLink)
    allowed("kernel-start-\(name)", try scope(true, token) ? 0 : EACCES)
    var head = [CChar](repeating: 0, count: 5)
    let headCount = ep_read_prefix(path, &head, 4)
    allowed("kernel-read-while-started-\(name)", headCount > 0 ? 0 : -headCount)
    allowed("kernel-write-while-started-\(name)", ep_write_existing(path))
    escape("kernel-read-through-symlink-\(name)", ep_read_file(symlink))
    escape("kernel-read-through-hard-link-\(name)", linked != 0 ? linked : ep_read_file(hardLink))
    let directory = (path as NSString).deletingLastPathComponent
    let dotdot =
        directory + "/../" + (directory as NSString).lastPathComponent + "/" + (path as NSString).lastPathComponent
    escape("kernel-read-through-dotdot-\(name)", ep_read_file(dotdot))
    let descriptor = ep_open_descriptor(path, 0)
    let pathOnly = ep_open_descriptor(path, 1)
    allowed("kernel-descriptor-while-started-\(name)", opened(descriptor))
    allowed("kernel-o-path-while-started-\(name)", opened(pathOnly))
    if let other = option("item-file") {
        let prefix = String(decoding: head.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let wrong = ep_race_open(path, other, prefix, 2000)
        escape("kernel-path-swap-race-\(name)", wrong == 0 ? EPERM : 0)
    }
    _ = try scope(false, token)
    escape("kernel-read-after-stop-\(name)", ep_read_file(path))
    if descriptor >= 0 {
        escape("kernel-reopen-descriptor-after-stop-\(name)", ep_read_file("/proc/self/fd/\(descriptor)"))
        _ = ep_close(descriptor)
    }
    if pathOnly >= 0 {
        escape("kernel-reopen-o-path-after-stop-\(name)", ep_read_file("/proc/self/fd/\(pathOnly)"))
        _ = ep_close(pathOnly)
    }
}

func hello() throws -> Welcome {
    try connection.send(.hello(Hello(role: .extension, pid: ProcessID.current.rawValue, name: "hostile")))
    guard case .welcome(let welcome) = try connection.receive(timeout: .seconds(90)).message else {
        throw IPCError(.protocolViolation, "expected welcome")
    }
    return welcome
}

do {
    let welcome = try hello()
    switch arguments.first {
    case "escapes":
        try runEscapes(welcome)
        try connection.send(.completeRequest(CompleteRequest(outcomes: [])))
        _ = try? connection.receive(timeout: .seconds(5))
    case "memory":
        let mebibytes = CInt(arguments.dropFirst().first ?? "") ?? 1024
        try connection.send(
            .progress(
                ProgressUpdate(
                    completedUnitCount: 0, totalUnitCount: 1,
                    activity: "loading data representation of huge.bin (public.data), \(mebibytes) MiB")))
        // A round trip: the host has handled the progress before the allocation starts.
        _ = try request { .startAccessing(SecurityScopeRequest(requestID: $0, token: "sync")) }
        let threads = CInt(arguments.dropFirst(2).first ?? "") ?? 1
        _ = threads > 1 ? ep_allocate_threads(mebibytes, threads) : ep_allocate(mebibytes)
        say("allocated \(mebibytes) MiB without being stopped")
        while true { try await Task.sleep(for: .seconds(1)) }
    case "fork":
        let started = ep_fork_loop(CInt(arguments.dropFirst().first ?? "") ?? 1000)
        say("started \(started) processes")
        while true { try await Task.sleep(for: .seconds(1)) }
    case "hang":
        say("hanging")
        while true { try await Task.sleep(for: .seconds(1)) }
    default:
        say("crashing on purpose")
        exit(3)
    }
} catch {
    say("hostile extension: \(error)")
    exit(1)
}
