import CSandbox

#if canImport(Glibc)
import Glibc
#endif

// One pass-through per C function used by the process, socket and sandbox layer
// (the only call site of each). See Syscalls.swift for the file-descriptor ones.

// MARK: - Sockets

internal func system_socketpair(_ domain: CInt, _ type: CInt, _ proto: CInt, _ fds: UnsafeMutablePointer<CInt>)
    -> CInt
{
    socketpair(domain, type, proto, fds)
}

internal func system_eh_send_with_fds(
    _ socket: CInt, _ buffer: UnsafeRawPointer, _ length: Int, _ fds: UnsafePointer<CInt>?, _ count: CInt,
    _ dontWait: CInt
) -> Int {
    eh_send_with_fds(socket, buffer, length, fds, count, dontWait)
}

internal func system_eh_recv_with_fds(
    _ socket: CInt, _ buffer: UnsafeMutableRawPointer, _ length: Int, _ fds: UnsafeMutablePointer<CInt>,
    _ count: UnsafeMutablePointer<CInt>, _ dontWait: CInt
) -> Int {
    eh_recv_with_fds(socket, buffer, length, fds, count, dontWait)
}

internal func system_shutdown(_ fd: CInt, _ how: CInt) -> CInt { shutdown(fd, how) }

internal func system_poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: CInt) -> CInt {
    poll(fds, count, timeout)
}

// MARK: - Pipes

internal func system_eh_pipe_cloexec(_ fds: UnsafeMutablePointer<CInt>) -> CInt { eh_pipe_cloexec(fds) }

// MARK: - Processes

internal func system_posix_spawn(
    _ pid: UnsafeMutablePointer<pid_t>, _ path: UnsafePointer<CChar>,
    _ actions: UnsafePointer<posix_spawn_file_actions_t>, _ attributes: UnsafePointer<posix_spawnattr_t>,
    _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
    posix_spawn(pid, path, actions, attributes, argv, envp)
}

internal func system_waitpid(_ pid: pid_t, _ status: UnsafeMutablePointer<CInt>, _ options: CInt) -> pid_t {
    waitpid(pid, status, options)
}

internal func system_eh_wait_exited_keeping_zombie(_ pid: pid_t) -> CInt { eh_wait_exited_keeping_zombie(pid) }

internal func system_eh_pidfd_open(_ pid: pid_t) -> CInt { eh_pidfd_open(pid) }

internal func system_kill(_ pid: pid_t, _ signal: CInt) -> CInt { kill(pid, signal) }

internal func system_getpid() -> pid_t { getpid() }

internal func system_getpgid(_ pid: pid_t) -> pid_t { getpgid(pid) }

// MARK: - Sandbox

internal func system_eh_landlock_abi() -> CInt { eh_landlock_abi() }

internal func system_fcntl_dupfd(_ fd: CInt, _ minimum: CInt) -> CInt { fcntl(fd, F_DUPFD_CLOEXEC, minimum) }

// MARK: - Security-scope broker

internal func system_eh_scope_call_kind(_ syscall: Int32) -> eh_scope_call { eh_scope_call_kind(syscall) }

internal func system_eh_scope_receive(
    _ listener: CInt, _ wake: CInt, _ event: UnsafeMutablePointer<eh_scope_event>, _ timeoutMilliseconds: CInt
) -> CInt {
    eh_scope_receive(listener, wake, event, timeoutMilliseconds)
}

internal func system_eh_scope_continue(_ listener: CInt, _ id: UInt64) -> CInt { eh_scope_continue(listener, id) }

internal func system_eh_scope_fail(_ listener: CInt, _ id: UInt64, _ error: CInt) -> CInt {
    eh_scope_fail(listener, id, error)
}

internal func system_eh_scope_inject(_ listener: CInt, _ id: UInt64, _ fd: CInt, _ cloexec: CInt) -> CInt {
    eh_scope_inject(listener, id, fd, cloexec)
}

internal func system_eh_scope_is_valid(_ listener: CInt, _ id: UInt64) -> CInt { eh_scope_is_valid(listener, id) }

internal func system_eh_read_process_memory(
    _ pid: pid_t, _ address: UInt64, _ buffer: UnsafeMutableRawPointer, _ length: Int
) -> Int {
    eh_read_process_memory(pid, address, buffer, length)
}

internal func system_stat(_ path: UnsafePointer<CChar>, _ buf: UnsafeMutablePointer<stat>) -> CInt { stat(path, buf) }
/// `lstat(2)`: the last component not followed.
internal func system_lstat(_ path: UnsafePointer<CChar>, _ buf: UnsafeMutablePointer<stat>) -> CInt { lstat(path, buf) }

// MARK: - The running process

internal func system_fflush_all() -> CInt { fflush(nil) }

internal func system_exit(_ status: CInt) -> Never { exit(status) }

// MARK: - Locale

/// A new UTF-8 `LC_CTYPE` locale (`C.UTF-8`), or nil when the C library has none.
internal func system_newlocale_utf8_ctype() -> locale_t? { newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) }

internal func system_uselocale(_ locale: locale_t) -> locale_t? { uselocale(locale) }
