#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/prctl.h>
#include <linux/securebits.h>
#include <spawn.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/uio.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <unistd.h>

// MARK: - Landlock (values by number: Debian 12's uapi header only knows ABI ≤ 2)

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)     /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */

#define LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */

#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */

/// struct landlock_ruleset_attr as of ABI 6; the size passed grows with the ABI.
struct eh_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

/// struct landlock_path_beneath_attr (packed).
struct eh_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

/// The rights that may appear in a rule on a non-directory.
#define LL_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | LL_FS_IOCTL_DEV)

static uint64_t handled_fs(int abi) {
    uint64_t rights = (LL_FS_MAKE_SYM << 1) - 1; // ABI 1: bits 0...12
    if (abi >= 2) rights |= LL_FS_REFER;
    if (abi >= 3) rights |= LL_FS_TRUNCATE;
    if (abi >= 5) rights |= LL_FS_IOCTL_DEV;
    return rights;
}

int eh_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

int eh_landlock_create_ruleset(int abi) {
    if (abi < 1) {
        errno = EINVAL;
        return -1;
    }
    struct eh_ruleset_attr attr = {.handled_access_fs = handled_fs(abi)};
    size_t size = sizeof(attr.handled_access_fs);
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = offsetof(struct eh_ruleset_attr, scoped);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        size = sizeof(attr);
    }
    return (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
}

int eh_landlock_add_path(int ruleset_fd, int abi, const char *path, eh_landlock_access access) {
    uint64_t handled = handled_fs(abi);
    uint64_t allowed;
    switch (access) {
    case EH_LANDLOCK_READ_ONLY:
        allowed = LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_EXECUTE;
        break;
    case EH_LANDLOCK_READ_WRITE:
        allowed = handled & ~(LL_FS_EXECUTE | LL_FS_MAKE_CHAR | LL_FS_MAKE_BLOCK | LL_FS_IOCTL_DEV);
        break;
    case EH_LANDLOCK_READ_WRITE_FILE:
        allowed = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_TRUNCATE;
        break;
    default:
        errno = EINVAL;
        return -1;
    }
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) allowed &= LL_FILE_RIGHTS;
    struct eh_path_beneath_attr rule = {.allowed_access = allowed & handled, .parent_fd = fd};
    long rc = syscall(SYS_landlock_add_rule, ruleset_fd, LL_RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc < 0 ? -1 : 0;
}

int eh_landlock_restrict_self(int ruleset_fd) {
    if (eh_set_no_new_privs() < 0) return -1;
    return (int)syscall(SYS_landlock_restrict_self, ruleset_fd, 0);
}

int eh_set_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

int eh_get_no_new_privs(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }

int eh_drop_capabilities(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof(data));
    if (syscall(SYS_capget, &header, data) < 0) return -1;
    int held = __builtin_popcount(data[0].permitted) + __builtin_popcount(data[1].permitted);
    if (held == 0) return 0;
    // With CAP_SETPCAP: exec must never grant root its capabilities back.
    if ((data[0].effective & (1u << CAP_SETPCAP)) != 0) {
        unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                             SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED;
        if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) < 0) return -1;
        for (int cap = 0; cap <= 63; cap++) {
            if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL) return -1;
        }
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL) return -1;
    memset(data, 0, sizeof(data));
    if (syscall(SYS_capset, &header, data) < 0) return -1;
    return held;
}

// MARK: - Descriptors

int eh_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int eh_close_range(unsigned int first, unsigned int last) {
    if (syscall(SYS_close_range, first, last, 0) == 0) return 0;
    if (errno != ENOSYS) return -1;
    struct rlimit limit;
    unsigned int end = last;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur - 1 < end)
        end = (unsigned int)(limit.rlim_cur - 1);
    for (unsigned int fd = first; fd <= end && fd >= first; fd++) close((int)fd);
    return 0;
}

// MARK: - SCM_RIGHTS

ssize_t eh_send_with_fds(int socket, const void *buffer, size_t length, const int *fds, int fd_count,
                         int dont_wait) {
    if (fd_count < 0 || fd_count > EH_MAX_FDS_PER_MESSAGE || (fd_count > 0 && fds == NULL)) {
        errno = EINVAL;
        return -1;
    }
    struct iovec iov = {.iov_base = (void *)buffer, .iov_len = length};
    union {
        char buf[CMSG_SPACE(sizeof(int) * EH_MAX_FDS_PER_MESSAGE)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd_count > 0) {
        msg.msg_control = control.buf;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)fd_count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&msg);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)fd_count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)fd_count);
    }
    return sendmsg(socket, &msg, MSG_NOSIGNAL | (dont_wait ? MSG_DONTWAIT : 0));
}

ssize_t eh_recv_with_fds(int socket, void *buffer, size_t length, int *fds, int *fd_count, int dont_wait) {
    *fd_count = 0;
    struct iovec iov = {.iov_base = buffer, .iov_len = length};
    union {
        char buf[CMSG_SPACE(sizeof(int) * EH_MAX_FDS_PER_MESSAGE)];
        struct cmsghdr align;
    } control;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                         .msg_controllen = sizeof(control.buf)};
    ssize_t received = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC | (dont_wait ? MSG_DONTWAIT : 0));
    if (received < 0) return -1;
    int count = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&msg); header != NULL; header = CMSG_NXTHDR(&msg, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int *data = (int *)CMSG_DATA(header);
        for (size_t i = 0; i < n; i++) {
            if (count < EH_MAX_FDS_PER_MESSAGE) fds[count++] = data[i];
            else close(data[i]);
        }
    }
    if (msg.msg_flags & MSG_CTRUNC) {
        for (int i = 0; i < count; i++) close(fds[i]);
        errno = EMSGSIZE;
        return -1;
    }
    *fd_count = count;
    return received;
}

// MARK: - posix_spawn extensions

short eh_posix_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int eh_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int eh_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

// MARK: - Waiting

int eh_wait_exited_keeping_zombie(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT);
}

int eh_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// MARK: - Security-scope broker

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_ADDFD
struct seccomp_notif_addfd {
    __u64 id;
    __u32 flags;
    __u32 srcfd;
    __u32 newfd;
    __u32 newfd_flags;
};
#define SECCOMP_IOCTL_NOTIF_ADDFD SECCOMP_IOW(3, struct seccomp_notif_addfd)
#endif
#ifndef SECCOMP_ADDFD_FLAG_SEND
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

#if defined(__x86_64__)
#define EH_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define EH_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

eh_scope_call eh_scope_call_kind(int32_t nr) {
    switch (nr) {
#ifdef SYS_open
    case SYS_open: return EH_SCOPE_CALL_OPEN;
#endif
#ifdef SYS_creat
    case SYS_creat: return EH_SCOPE_CALL_CREAT;
#endif
#ifdef SYS_stat
    case SYS_stat: return EH_SCOPE_CALL_STAT;
#endif
#ifdef SYS_lstat
    case SYS_lstat: return EH_SCOPE_CALL_STAT;
#endif
#ifdef SYS_access
    case SYS_access: return EH_SCOPE_CALL_ACCESS;
#endif
#ifdef SYS_readlink
    case SYS_readlink: return EH_SCOPE_CALL_READLINK;
#endif
    case SYS_openat: return EH_SCOPE_CALL_OPENAT;
    case SYS_openat2: return EH_SCOPE_CALL_OPENAT2;
    case SYS_newfstatat: return EH_SCOPE_CALL_FSTATAT;
    case SYS_statx: return EH_SCOPE_CALL_STATX;
    case SYS_faccessat: return EH_SCOPE_CALL_FACCESSAT;
    case SYS_faccessat2: return EH_SCOPE_CALL_FACCESSAT;
    case SYS_readlinkat: return EH_SCOPE_CALL_READLINKAT;
    case SYS_truncate: return EH_SCOPE_CALL_TRUNCATE;
#ifdef SYS_mkdir
    case SYS_mkdir: return EH_SCOPE_CALL_MKDIR;
#endif
#ifdef SYS_rmdir
    case SYS_rmdir: return EH_SCOPE_CALL_RMDIR;
#endif
#ifdef SYS_rename
    case SYS_rename: return EH_SCOPE_CALL_RENAME;
#endif
#ifdef SYS_link
    case SYS_link: return EH_SCOPE_CALL_LINK;
#endif
#ifdef SYS_symlink
    case SYS_symlink: return EH_SCOPE_CALL_SYMLINK;
#endif
#ifdef SYS_renameat
    case SYS_renameat: return EH_SCOPE_CALL_RENAMEAT;
#endif
    case SYS_mkdirat: return EH_SCOPE_CALL_MKDIRAT;
    case SYS_unlinkat: return EH_SCOPE_CALL_UNLINKAT;
    case SYS_renameat2: return EH_SCOPE_CALL_RENAMEAT;
    case SYS_linkat: return EH_SCOPE_CALL_LINKAT;
    case SYS_symlinkat: return EH_SCOPE_CALL_SYMLINKAT;
    default: return EH_SCOPE_CALL_OTHER;
    }
}

int eh_scope_filter_install(void) {
#ifndef EH_AUDIT_ARCH
    errno = ENOSYS;
    return -1;
#else
    static const int calls[] = {
#ifdef SYS_open
        SYS_open,
#endif
#ifdef SYS_creat
        SYS_creat,
#endif
#ifdef SYS_stat
        SYS_stat,
#endif
#ifdef SYS_lstat
        SYS_lstat,
#endif
#ifdef SYS_access
        SYS_access,
#endif
#ifdef SYS_readlink
        SYS_readlink,
#endif
        SYS_openat, SYS_openat2, SYS_newfstatat, SYS_statx, SYS_faccessat, SYS_faccessat2, SYS_readlinkat,
        SYS_truncate,
        // What changes a directory's entries, for directories kept read-only (an app's Inbox).
#ifdef SYS_mkdir
        SYS_mkdir,
#endif
#ifdef SYS_rmdir
        SYS_rmdir,
#endif
#ifdef SYS_rename
        SYS_rename,
#endif
#ifdef SYS_link
        SYS_link,
#endif
#ifdef SYS_symlink
        SYS_symlink,
#endif
#ifdef SYS_renameat
        SYS_renameat,
#endif
        SYS_mkdirat, SYS_unlinkat, SYS_renameat2, SYS_linkat, SYS_symlinkat,
    };
    enum { count = sizeof(calls) / sizeof(calls[0]) };
    struct sock_filter program[8 + count];
    int n = 0;
    // Another ABI (i386 int 0x80, x32) would reach the same files by other numbers: refuse it.
    program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, EH_AUDIT_ARCH, 1, 0);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
#endif
    for (int c = 0; c < count; c++) {
        // Matched: jump to the USER_NOTIF return (count - c - 1 checks later, then the ALLOW).
        program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)calls[c], (unsigned char)(count - c), 0);
    }
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
    struct sock_fprog fprog = {.len = (unsigned short)n, .filter = program};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fprog);
#endif
}

int eh_scope_receive(int listener, int wake, eh_scope_event *event, int timeout_ms) {
    struct pollfd pfd[2] = {{.fd = listener, .events = POLLIN}, {.fd = wake, .events = POLLIN}};
    int ready = poll(pfd, 2, timeout_ms);
    if (ready < 0) return -1;
    if (ready == 0 || (pfd[1].revents & POLLIN)) return 0;
    if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
        errno = ENOENT;
        return -1;
    }
    struct seccomp_notif notif;
    memset(&notif, 0, sizeof(notif));
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &notif) < 0) return -1;
    event->id = notif.id;
    event->pid = notif.pid;
    event->syscall = notif.data.nr;
    for (int a = 0; a < 6; a++) event->args[a] = notif.data.args[a];
    return 1;
}

static int respond(int listener, uint64_t id, int error, uint32_t flags) {
    struct seccomp_notif_resp resp;
    memset(&resp, 0, sizeof(resp));
    resp.id = id;
    resp.error = error == 0 ? 0 : -error;
    resp.flags = flags;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

int eh_scope_continue(int listener, uint64_t id) {
    return respond(listener, id, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
}

int eh_scope_fail(int listener, uint64_t id, int error) { return respond(listener, id, error, 0); }

int eh_scope_inject(int listener, uint64_t id, int fd, int cloexec) {
    struct seccomp_notif_addfd addfd = {
        .id = id, .flags = SECCOMP_ADDFD_FLAG_SEND, .srcfd = (__u32)fd, .newfd = 0,
        .newfd_flags = cloexec ? O_CLOEXEC : 0,
    };
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd);
}

int eh_scope_is_valid(int listener, uint64_t id) {
    uint64_t value = id;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &value) == 0 ? 1 : 0;
}

ssize_t eh_read_process_memory(pid_t pid, uint64_t address, void *buffer, size_t length) {
    struct iovec local = {.iov_base = buffer, .iov_len = length};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)address, .iov_len = length};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0);
}
