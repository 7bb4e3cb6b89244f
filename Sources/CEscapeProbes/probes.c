#define _GNU_SOURCE
#include "CEscapeProbes.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define RESULT(call) ((call) < 0 ? errno : 0)

int ep_read_file(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    char byte;
    int rc = read(fd, &byte, 1) < 0 ? errno : 0;
    close(fd);
    return rc;
}

int ep_list_directory(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    char buffer[4096];
    int rc = syscall(SYS_getdents64, fd, buffer, sizeof(buffer)) < 0 ? errno : 0;
    close(fd);
    return rc;
}

int ep_create_file(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return errno;
    int rc = write(fd, "x", 1) < 0 ? errno : 0;
    close(fd);
    return rc;
}

int ep_make_directory(const char *path) { return RESULT(mkdir(path, 0755)); }
int ep_hard_link(const char *existing, const char *path) { return RESULT(link(existing, path)); }
int ep_rename(const char *from, const char *to) { return RESULT(rename(from, to)); }
int ep_unlink(const char *path) { return RESULT(unlink(path)); }
int ep_symlink(const char *target, const char *path) { return RESULT(symlink(target, path)); }

int ep_ptrace_attach(int pid) {
    if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0) return errno;
    ptrace(PTRACE_DETACH, pid, NULL, NULL);
    return 0;
}

int ep_signal_probe(int pid) { return RESULT(kill(pid, 0)); }
int ep_parent_pid(void) { return getppid(); }

int ep_raise_open_files_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) < 0) return errno;
    limit.rlim_max += 1024;
    limit.rlim_cur = limit.rlim_max;
    return RESULT(setrlimit(RLIMIT_NOFILE, &limit));
}

int ep_chroot(const char *path) { return RESULT(chroot(path)); }
int ep_mount_tmpfs(const char *path) { return RESULT(mount("none", path, "tmpfs", 0, NULL)); }

int ep_connect_tcp(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = RESULT(connect(fd, (struct sockaddr *)&address, sizeof(address)));
    close(fd);
    return rc;
}

int ep_exec(const char *path) {
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) < 0) return errno;
    pid_t pid = fork();
    if (pid < 0) return errno;
    if (pid == 0) {
        char *const argv[] = {(char *)path, "-c", "true", NULL};
        execv(path, argv);
        int error = errno;
        (void)!write(pipefd[1], &error, sizeof(error));
        _exit(127);
    }
    close(pipefd[1]);
    int error = 0;
    ssize_t n = read(pipefd[0], &error, sizeof(error));
    close(pipefd[0]);
    int status;
    waitpid(pid, &status, 0);
    return n == (ssize_t)sizeof(error) ? error : 0;
}

int ep_unshare_user_namespace(void) {
    // Without seccomp the unshare itself may succeed; what matters is whether the namespace's
    // capabilities open anything: a mount over / or reading a file the sandbox hides.
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) return errno;
    if (mount("none", "/tmp", "tmpfs", 0, NULL) == 0) return 0;
    return ep_read_file("/etc/passwd");
}

int ep_fork_loop(int count) {
    int started = 0;
    for (int i = 0; i < count; i++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            for (;;) pause();
        }
        started++;
    }
    return started;
}

int ep_allocate(int mebibytes) {
    for (int i = 0; i < mebibytes; i++) {
        // volatile: an optimising compiler may otherwise drop an allocation nothing reads.
        volatile char *block = malloc(1 << 20);
        if (block == NULL) abort(); // as a Swift program does when an allocation fails
        for (int page = 0; page < (1 << 20); page += 4096) block[page] = (char)i;
    }
    return 0;
}

struct allocation_job {
    int mebibytes;
    int result;
};

static void *allocate_job(void *argument) {
    struct allocation_job *job = argument;
    job->result = ep_allocate(job->mebibytes);
    return NULL;
}

int ep_allocate_threads(int mebibytes, int threads) {
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    pthread_t ids[64];
    struct allocation_job jobs[64];
    for (int t = 0; t < threads; t++) {
        jobs[t] = (struct allocation_job){mebibytes / threads, 0};
        if (pthread_create(&ids[t], NULL, allocate_job, &jobs[t]) != 0) return errno;
    }
    int result = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        if (jobs[t].result != 0) result = jobs[t].result;
    }
    return result;
}

int ep_write_existing(const char *path) {
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t n = write(fd, "x", 1);
    int error = n == 1 ? 0 : errno;
    close(fd);
    return error;
}

int ep_stat(const char *path) {
    struct stat info;
    return RESULT(stat(path, &info));
}

int ep_open_descriptor(const char *path, int path_only) {
    int fd = open(path, (path_only ? O_PATH : O_RDONLY) | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

int ep_read_descriptor(int fd) {
    char buffer[64];
    if (lseek(fd, 0, SEEK_SET) < 0) return errno;
    return read(fd, buffer, sizeof(buffer)) >= 0 ? 0 : errno;
}

int ep_close(int fd) { return RESULT(close(fd)); }

int ep_read_prefix(const char *path, char *buffer, int length) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    ssize_t n = read(fd, buffer, (size_t)length);
    close(fd);
    return n >= 0 ? (int)n : -errno;
}

struct race {
    char *path;
    const char *first;
    const char *second;
    volatile int stop;
};

static void *swap_paths(void *argument) {
    struct race *race = argument;
    size_t capacity = strlen(race->first) > strlen(race->second) ? strlen(race->first) : strlen(race->second);
    while (!race->stop) {
        memcpy(race->path, race->first, strlen(race->first) + 1);
        memcpy(race->path, race->second, strlen(race->second) + 1);
    }
    (void)capacity;
    return NULL;
}

int ep_race_open(const char *scoped, const char *other, const char *expected_prefix, int iterations) {
    char path[4096];
    struct race race = {.path = path, .first = scoped, .second = other, .stop = 0};
    memcpy(path, scoped, strlen(scoped) + 1);
    pthread_t swapper;
    if (pthread_create(&swapper, NULL, swap_paths, &race) != 0) return -1;
    int wrong = 0;
    size_t prefix = strlen(expected_prefix);
    for (int i = 0; i < iterations; i++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char buffer[256];
        ssize_t n = read(fd, buffer, sizeof(buffer));
        close(fd);
        if (n < (ssize_t)prefix || memcmp(buffer, expected_prefix, prefix) != 0) wrong++;
    }
    race.stop = 1;
    pthread_join(swapper, NULL);
    return wrong;
}
