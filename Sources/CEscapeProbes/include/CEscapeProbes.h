// Raw system calls the hostile test extension tries from inside the sandbox (tests only).
// Every probe returns 0 when the attempt SUCCEEDED and the errno value when it failed.
#pragma once

/// open(path, O_RDONLY) then read one byte.
int ep_read_file(const char *_Nonnull path);
/// open(path, O_RDONLY | O_DIRECTORY) then getdents.
int ep_list_directory(const char *_Nonnull path);
/// open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) then write "x".
int ep_create_file(const char *_Nonnull path);
/// mkdir(path, 0755).
int ep_make_directory(const char *_Nonnull path);
/// link(existing, new).
int ep_hard_link(const char *_Nonnull existing, const char *_Nonnull path);
/// rename(from, to).
int ep_rename(const char *_Nonnull from, const char *_Nonnull to);
/// unlink(path).
int ep_unlink(const char *_Nonnull path);
/// symlink(target, path).
int ep_symlink(const char *_Nonnull target, const char *_Nonnull path);
/// ptrace(PTRACE_ATTACH, pid) (detaches again if it worked).
int ep_ptrace_attach(int pid);
/// kill(pid, 0): permission to signal.
int ep_signal_probe(int pid);
/// getppid().
int ep_parent_pid(void);
/// Raises RLIMIT_NOFILE's hard limit by 1024.
int ep_raise_open_files_limit(void);
/// chroot(path).
int ep_chroot(const char *_Nonnull path);
/// mount("none", path, "tmpfs").
int ep_mount_tmpfs(const char *_Nonnull path);
/// A TCP connect to 127.0.0.1:port (ECONNREFUSED means the sandbox let it through).
int ep_connect_tcp(int port);
/// execve(path, [path, "-c", "true"]) in a forked child; the child's errno (0 when exec worked).
int ep_exec(const char *_Nonnull path);
/// unshare(CLONE_NEWUSER | CLONE_NEWNS), then with the namespace's capabilities a tmpfs mount on
/// /tmp or a read of /etc/passwd: 0 when either worked.
int ep_unshare_user_namespace(void);
/// Forks up to `count` children that sleep until killed; returns how many were started.
int ep_fork_loop(int count);
/// Allocates and touches `mebibytes` MiB, one write per page; returns 0 (never frees it). An
/// allocation that fails aborts the process, as in a Swift program.
int ep_allocate(int mebibytes);

/// Allocates and touches `mebibytes` MiB split over `threads` threads at once (at most 64). Returns
/// 0 (a failed allocation aborts), or the error of `pthread_create`.
int ep_allocate_threads(int mebibytes, int threads);
