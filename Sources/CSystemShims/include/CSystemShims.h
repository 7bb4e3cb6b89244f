#ifndef EXTHOST_CSYSTEMSHIMS_H
#define EXTHOST_CSYSTEMSHIMS_H
// C shims for what Swift cannot call on Linux GNU-only calls hidden from the
// Glibc module, macro-only APIs and raw syscalls. Every symbol is prefixed `eh_`.
// No business logic lives here.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE): starts writing every dirty page of the file
/// to the device without waiting. Returns 0, or -1 with errno set.
int eh_start_writeback(int fd);

/// renameat2(2). Returns 0, or -1 with errno set.
int eh_renameat2(int olddirfd, const char *_Nonnull oldpath, int newdirfd,
                 const char *_Nonnull newpath, unsigned int flags);

/// RENAME_NOREPLACE, RENAME_EXCHANGE as plain values.
unsigned int eh_rename_noreplace(void);
unsigned int eh_rename_exchange(void);

/// copy_file_range(2) with NULL offsets (uses and advances both file offsets).
/// Returns the bytes copied, 0 at end of file, or -1 with errno set.
ssize_t eh_copy_file_range(int fd_in, int fd_out, size_t len);

/// ioctl(FICLONE). Returns 0, or -1 with errno set (EOPNOTSUPP/EXDEV/EINVAL when cloning is unavailable).
int eh_ficlone(int dest_fd, int src_fd);

/// syncfs(2) (declared by glibc only under _GNU_SOURCE). Returns 0, or -1 with errno set.
int eh_syncfs(int fd);

/// O_PATH, O_TMPFILE, O_CLOEXEC, O_NOFOLLOW, O_DIRECTORY as plain values.
int eh_o_path(void);
int eh_o_tmpfile(void);

/// eventfd(0, EFD_CLOEXEC) (the cgroup v1 memory controller's OOM notification writes to it).
/// Returns the descriptor, or -1 with errno set.
int eh_eventfd_cloexec(void);

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (| RESOLVE_NO_MAGICLINKS).
/// Returns the descriptor, or -1 with errno set (ENOSYS on kernels older than 5.6).
int eh_openat2_beneath(int dirfd, const char *_Nonnull path, int flags, mode_t mode);

/// The path the process adopted from the `CFProcessPath` environment variable as its executable path
/// (what `Bundle.main` is made from), or NULL when it adopted none. Set by a constructor before
/// `main`; see shims.c.
const char *_Nullable eh_adopted_process_path(void);

// MARK: - Swift calling convention

/// A Swift function that takes its `self` in the context register (`swiftself`) and nothing else,
/// returning one object at +1: what a class's vtable holds for a designated initializer (the
/// allocating entry point, whose `self` is the class's metadata).
typedef void *_Nullable (*eh_swift_self_function)(const void *_Nonnull self __attribute__((swift_context)))
    __attribute__((swiftcall));

/// Calls `function` with `self` in the Swift context register and returns its result (owned: +1).
/// Swift cannot call a function pointer with a `swiftself` parameter; this is the one place that does.
static inline void *_Nullable eh_swift_call_with_self(const void *_Nonnull function, const void *_Nonnull self) {
    return ((eh_swift_self_function)function)(self);
}

#endif
