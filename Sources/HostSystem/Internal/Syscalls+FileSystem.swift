import CSystemShims

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Directory and file-system pass-throughs (the only call site of each C function)

internal func system_mkdirat(_ dirfd: CInt, _ path: UnsafePointer<CChar>, _ mode: mode_t) -> CInt {
    mkdirat(dirfd, path, mode)
}

internal func system_unlinkat(_ dirfd: CInt, _ path: UnsafePointer<CChar>, _ flags: CInt) -> CInt {
    unlinkat(dirfd, path, flags)
}

internal func system_renameat(
    _ olddirfd: CInt, _ oldpath: UnsafePointer<CChar>, _ newdirfd: CInt, _ newpath: UnsafePointer<CChar>
) -> CInt {
    renameat(olddirfd, oldpath, newdirfd, newpath)
}

internal func system_renameat2(
    _ olddirfd: CInt, _ oldpath: UnsafePointer<CChar>, _ newdirfd: CInt, _ newpath: UnsafePointer<CChar>,
    _ flags: CUnsignedInt
) -> CInt {
    eh_renameat2(olddirfd, oldpath, newdirfd, newpath, flags)
}

internal func system_fstatat(
    _ dirfd: CInt, _ path: UnsafePointer<CChar>, _ buf: UnsafeMutablePointer<stat>, _ flags: CInt
) -> CInt {
    fstatat(dirfd, path, buf, flags)
}

internal func system_symlinkat(_ target: UnsafePointer<CChar>, _ dirfd: CInt, _ path: UnsafePointer<CChar>) -> CInt {
    symlinkat(target, dirfd, path)
}

internal func system_readlinkat(
    _ dirfd: CInt, _ path: UnsafePointer<CChar>, _ buf: UnsafeMutablePointer<CChar>, _ size: Int
) -> Int {
    readlinkat(dirfd, path, buf, size)
}

internal func system_linkat(
    _ olddirfd: CInt, _ oldpath: UnsafePointer<CChar>, _ newdirfd: CInt, _ newpath: UnsafePointer<CChar>,
    _ flags: CInt
) -> CInt {
    linkat(olddirfd, oldpath, newdirfd, newpath, flags)
}

internal func system_futimens(_ fd: CInt, _ times: UnsafePointer<timespec>) -> CInt { futimens(fd, times) }

internal func system_utimensat(
    _ dirfd: CInt, _ path: UnsafePointer<CChar>, _ times: UnsafePointer<timespec>, _ flags: CInt
) -> CInt {
    utimensat(dirfd, path, times, flags)
}

internal func system_fdopendir(_ fd: CInt) -> OpaquePointer? { fdopendir(fd) }

internal func system_readdir(_ dir: OpaquePointer) -> UnsafeMutablePointer<dirent>? { readdir(dir) }

internal func system_closedir(_ dir: OpaquePointer) -> CInt { closedir(dir) }

internal func system_flock(_ fd: CInt, _ operation: CInt) -> CInt { flock(fd, operation) }

internal func system_copy_file_range(_ input: CInt, _ output: CInt, _ length: Int) -> Int {
    eh_copy_file_range(input, output, length)
}

internal func system_ficlone(_ destination: CInt, _ source: CInt) -> CInt { eh_ficlone(destination, source) }

internal func system_openat2_beneath(
    _ dirfd: CInt, _ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t
) -> CInt {
    eh_openat2_beneath(dirfd, path, flags, mode)
}

internal func system_ftruncate(_ fd: CInt, _ length: off_t) -> CInt { ftruncate(fd, length) }

internal func system_fchmod(_ fd: CInt, _ mode: mode_t) -> CInt { fchmod(fd, mode) }

internal func system_inotify_init1(_ flags: CInt) -> CInt { inotify_init1(flags) }

internal func system_eventfd_cloexec() -> CInt { eh_eventfd_cloexec() }

internal func system_inotify_add_watch(_ fd: CInt, _ path: UnsafePointer<CChar>, _ mask: UInt32) -> CInt {
    inotify_add_watch(fd, path, mask)
}

internal func system_syncfs(_ fd: CInt) -> CInt { eh_syncfs(fd) }
