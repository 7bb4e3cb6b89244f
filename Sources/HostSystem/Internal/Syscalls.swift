import CSystemShims

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` until it returns something other than -1 with `EINTR` (when `retryOnInterrupt`),
/// turning -1 into the `errno` of that moment.
@inline(__always)
internal func valueOrErrno<I: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ body: () -> I
) -> Result<I, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let saved = Errno.current
        if retryOnInterrupt && saved == .interrupted { continue }
        return .failure(saved)
    }
}

/// Like ``valueOrErrno(retryOnInterrupt:_:)`` for calls whose success value is ignored.
@inline(__always)
internal func nothingOrErrno<I: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ body: () -> I
) -> Result<Void, Errno> {
    valueOrErrno(retryOnInterrupt: retryOnInterrupt, body).map { _ in () }
}

// MARK: - One pass-through per C function (the only call site of each)

internal func system_openat(_ dirfd: CInt, _ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt {
    openat(dirfd, path, flags, mode)
}

internal func system_close(_ fd: CInt) -> CInt { close(fd) }

internal func system_read(_ fd: CInt, _ buf: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buf, count) }

internal func system_pread(_ fd: CInt, _ buf: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
    pread(fd, buf, count, offset)
}

internal func system_write(_ fd: CInt, _ buf: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buf, count) }

internal func system_fsync(_ fd: CInt) -> CInt { fsync(fd) }
internal func system_start_writeback(_ fd: CInt) -> CInt { eh_start_writeback(fd) }

internal func system_lseek(_ fd: CInt, _ offset: off_t, _ whence: CInt) -> off_t { lseek(fd, offset, whence) }

internal func system_fstat(_ fd: CInt, _ buf: UnsafeMutablePointer<stat>) -> CInt { fstat(fd, buf) }

internal func system_dup(_ fd: CInt) -> CInt { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
