#ifndef EXTHOST_CSANDBOX_H
#define EXTHOST_CSANDBOX_H
// C for the process, sandbox and IPC layer: Landlock and prctl (raw syscalls),
// CMSG_* (macro-only), GNU-only calls hidden from the Glibc module (pipe2, close_range,
// posix_spawn extensions). Every symbol is prefixed `eh_`. No business logic lives here.

#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

// MARK: - Landlock

/// The rights a path rule grants.
typedef enum {
    /// Read files and list directories; execute files (needed for the program and its loader).
    EH_LANDLOCK_READ_ONLY = 1,
    /// Everything `EH_LANDLOCK_READ_ONLY` grants except execute, plus create, write, truncate,
    /// remove and (ABI ≥ 2) rename across directories beneath the path.
    EH_LANDLOCK_READ_WRITE = 2,
    /// Read and write an existing file (for device files such as /dev/null); no execute.
    EH_LANDLOCK_READ_WRITE_FILE = 3,
} eh_landlock_access;

/// The Landlock ABI version the running kernel offers.
/// Returns 1 or more; 0 when Landlock is unavailable (not built in, disabled at boot, or
/// seccomp-filtered), with errno set to what the probe reported (ENOSYS, EOPNOTSUPP, ...).
int eh_landlock_abi(void);

/// Creates a ruleset that handles every filesystem right `abi` offers (REFER from ABI 2,
/// TRUNCATE from 3, IOCTL_DEV from 5), TCP bind and connect from ABI 4 (with no rule, so all TCP
/// is denied), and from ABI 6 the abstract-unix-socket and signal scopes.
/// Returns the ruleset descriptor (close-on-exec), or -1 with errno set (EINVAL when `abi` < 1).
int eh_landlock_create_ruleset(int abi);

/// Adds a rule granting `access` beneath `path` (a directory) or on `path` itself (any other
/// file: only file rights are kept, as the kernel requires). Symbolic links are followed.
/// Returns 0, or -1 with errno set (ENOENT when the path does not exist, EINVAL for a bad
/// `access` value).
int eh_landlock_add_path(int ruleset_fd, int abi, const char *_Nonnull path, eh_landlock_access access);

/// Sets no_new_privs and enforces the ruleset on the calling thread (and on everything it
/// later creates or executes). Returns 0, or -1 with errno set.
int eh_landlock_restrict_self(int ruleset_fd);

/// prctl(PR_SET_NO_NEW_PRIVS, 1). Returns 0, or -1 with errno set.
int eh_set_no_new_privs(void);

/// prctl(PR_GET_NO_NEW_PRIVS). Returns 0 or 1, or -1 with errno set.
int eh_get_no_new_privs(void);

/// Gives up every capability for good, so that a program run as root is not privileged either:
/// locks the securebits that stop exec from granting root capabilities (needs CAP_SETPCAP; skipped
/// without it), empties the bounding and ambient sets, then clears the effective, permitted and
/// inheritable sets. Returns the number of capabilities that were held before (0 for an ordinary
/// user), or -1 with errno set.
int eh_drop_capabilities(void);

// MARK: - Descriptors

/// pipe2(fds, O_CLOEXEC). Returns 0, or -1 with errno set.
int eh_pipe_cloexec(int fds[_Nonnull 2]);

/// close_range(first, last, 0), falling back to closing one by one (up to the soft RLIMIT_NOFILE)
/// on kernels without the call. Returns 0, or -1 with errno set.
int eh_close_range(unsigned int first, unsigned int last);

// MARK: - Sending descriptors (SCM_RIGHTS)

/// The most descriptors one eh_send_with_fds / eh_recv_with_fds call carries.
#define EH_MAX_FDS_PER_MESSAGE 16

/// sendmsg(socket, buffer, MSG_NOSIGNAL [| MSG_DONTWAIT]) with `fd_count` descriptors attached
/// as one SCM_RIGHTS message (none when `fd_count` is 0).
/// Returns the bytes sent (possibly fewer than `length` on a stream socket), or -1 with errno
/// set (EINVAL when `fd_count` is above EH_MAX_FDS_PER_MESSAGE; EPIPE when the peer is gone).
ssize_t eh_send_with_fds(int socket, const void *_Nonnull buffer, size_t length,
                         const int *_Nullable fds, int fd_count, int dont_wait);

/// recvmsg(socket, buffer, MSG_CMSG_CLOEXEC [| MSG_DONTWAIT]); received descriptors (close-on-exec)
/// are stored in `fds` (room for EH_MAX_FDS_PER_MESSAGE) and counted in `*fd_count`.
/// Returns the bytes received (0 when the peer closed), or -1 with errno set. When the kernel
/// truncated the control data (more descriptors than fit), every descriptor that did arrive is
/// closed, `*fd_count` is 0 and the call fails with EMSGSIZE.
ssize_t eh_recv_with_fds(int socket, void *_Nonnull buffer, size_t length,
                         int *_Nonnull fds, int *_Nonnull fd_count, int dont_wait);

// MARK: - posix_spawn extensions (glibc, _GNU_SOURCE)

/// POSIX_SPAWN_SETSID (glibc ≥ 2.26): the child starts a new session (and process group).
short eh_posix_spawn_setsid_flag(void);

/// posix_spawn_file_actions_addclosefrom_np (glibc ≥ 2.34): closes every descriptor ≥ `from`
/// in the child. Returns 0, or an error number (not -1/errno, like every posix_spawn call).
int eh_spawn_add_closefrom(posix_spawn_file_actions_t *_Nonnull actions, int from);

/// posix_spawn_file_actions_addchdir_np (glibc ≥ 2.29): changes directory in the child.
/// Returns 0, or an error number.
int eh_spawn_add_chdir(posix_spawn_file_actions_t *_Nonnull actions, const char *_Nonnull path);

// MARK: - Waiting

/// waitid(P_PID, pid, WEXITED | WNOWAIT): blocks until `pid` has terminated but leaves it a zombie,
/// so its pid (and process-group id) cannot be reused until it is reaped with waitpid.
/// Returns 0, or -1 with errno set (ECHILD when `pid` is not a child, EINTR when interrupted).
int eh_wait_exited_keeping_zombie(pid_t pid);

/// pidfd_open(pid, 0) (Linux ≥ 5.3): a close-on-exec descriptor that polls readable once `pid` has
/// terminated. Returns the descriptor, or -1 with errno set (ENOSYS on an older kernel).
int eh_pidfd_open(pid_t pid);

// MARK: - Security-scope broker (seccomp user notification)

/// One system call a confined program made that the broker is asked about.
typedef struct {
    /// The notification's id (for the reply).
    uint64_t id;
    /// The calling thread's id.
    uint32_t pid;
    /// The system call number (this architecture's).
    int32_t syscall;
    /// Its six arguments.
    uint64_t args[6];
} eh_scope_event;

/// The system calls the broker is asked about, as `eh_scope_event.syscall` reports them.
typedef enum {
    EH_SCOPE_CALL_OTHER = 0,
    EH_SCOPE_CALL_OPEN,       ///< open(path, flags, mode)
    EH_SCOPE_CALL_OPENAT,     ///< openat(dirfd, path, flags, mode)
    EH_SCOPE_CALL_OPENAT2,    ///< openat2(dirfd, path, how, size)
    EH_SCOPE_CALL_CREAT,      ///< creat(path, mode)
    EH_SCOPE_CALL_STAT,       ///< stat(path, buf) / lstat(path, buf)
    EH_SCOPE_CALL_FSTATAT,    ///< newfstatat(dirfd, path, buf, flags)
    EH_SCOPE_CALL_STATX,      ///< statx(dirfd, path, flags, mask, buf)
    EH_SCOPE_CALL_ACCESS,     ///< access(path, mode)
    EH_SCOPE_CALL_FACCESSAT,  ///< faccessat(dirfd, path, mode) / faccessat2(dirfd, path, mode, flags)
    EH_SCOPE_CALL_READLINK,   ///< readlink(path, buf, size)
    EH_SCOPE_CALL_READLINKAT, ///< readlinkat(dirfd, path, buf, size)
    EH_SCOPE_CALL_TRUNCATE,   ///< truncate(path, length)
    EH_SCOPE_CALL_MKDIR,      ///< mkdir(path, mode)
    EH_SCOPE_CALL_MKDIRAT,    ///< mkdirat(dirfd, path, mode)
    EH_SCOPE_CALL_RMDIR,      ///< rmdir(path)
    EH_SCOPE_CALL_UNLINKAT,   ///< unlinkat(dirfd, path, flags)
    EH_SCOPE_CALL_RENAME,     ///< rename(old, new)
    EH_SCOPE_CALL_RENAMEAT,   ///< renameat(olddirfd, old, newdirfd, new) / renameat2(…, flags)
    EH_SCOPE_CALL_LINK,       ///< link(old, new)
    EH_SCOPE_CALL_LINKAT,     ///< linkat(olddirfd, old, newdirfd, new, flags)
    EH_SCOPE_CALL_SYMLINK,    ///< symlink(target, path)
    EH_SCOPE_CALL_SYMLINKAT,  ///< symlinkat(target, newdirfd, path)
} eh_scope_call;

/// Which kind of call `syscall` is (EH_SCOPE_CALL_OTHER for any call the filter does not send).
eh_scope_call eh_scope_call_kind(int32_t syscall);

/// Installs a seccomp filter that asks a listener about every call of `eh_scope_call` on this
/// architecture (and refuses the system calls of another ABI with ENOSYS), and returns the
/// listener (close-on-exec). Needs no_new_privs. Returns -1 with errno set when the kernel lacks
/// seccomp user notification (ENOSYS, EINVAL) or refuses the filter.
int eh_scope_filter_install(void);

/// Waits for the next event, or until `wake` (a descriptor another thread makes readable to stop
/// the wait; -1: none) is readable, or `timeout_ms` passes (-1: no limit): 1 with `*event` filled,
/// 0 when woken or on timeout, -1 with errno set (ENOENT when every process of the filter has
/// ended, EBADF once the listener closed).
int eh_scope_receive(int listener, int wake, eh_scope_event *_Nonnull event, int timeout_ms);

/// Lets the call proceed in the kernel, where Landlock then decides. Returns 0, or -1 with errno
/// set (ENOENT when the caller is gone).
int eh_scope_continue(int listener, uint64_t id);

/// Fails the call with `error` (an errno value). Returns 0, or -1 with errno set.
int eh_scope_fail(int listener, uint64_t id, int error);

/// Completes the call with `fd` (opened by the broker) installed in the caller as its result,
/// close-on-exec when `cloexec`. Returns the descriptor number in the caller, or -1 with errno set.
int eh_scope_inject(int listener, uint64_t id, int fd, int cloexec);

/// Whether the caller of `id` still waits (its memory still belongs to that call). Returns 1 or 0.
int eh_scope_is_valid(int listener, uint64_t id);

/// Reads up to `length` bytes at `address` of process `pid` (process_vm_readv). Returns the bytes
/// read, or -1 with errno set.
ssize_t eh_read_process_memory(pid_t pid, uint64_t address, void *_Nonnull buffer, size_t length);

#endif
