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

// MARK: - In-place originals (the kernel's security-scope broker)

/// Opens an existing file for appending and writes one byte. Returns 0, or the errno.
int ep_write_existing(const char *_Nonnull path);

/// stat(path). Returns 0, or the errno.
int ep_stat(const char *_Nonnull path);

/// Opens `path` read-only (or with O_PATH when `path_only`). Returns the descriptor, or -errno.
int ep_open_descriptor(const char *_Nonnull path, int path_only);

/// Reads from the start of an open descriptor. Returns 0, or the errno.
int ep_read_descriptor(int fd);

/// close(fd). Returns 0, or the errno.
int ep_close(int fd);

/// Reads up to `length` bytes of `path` into `buffer`. Returns the bytes read, or -errno.
int ep_read_prefix(const char *_Nonnull path, char *_Nonnull buffer, int length);

/// Opens a path buffer `iterations` times while another thread keeps rewriting it between
/// `scoped` and `other`; returns how many successful opens read something that does not start with
/// `expected_prefix` (the broker must only ever open what it checked), or -1 when no thread started.
int ep_race_open(const char *_Nonnull scoped, const char *_Nonnull other, const char *_Nonnull expected_prefix,
                 int iterations);
