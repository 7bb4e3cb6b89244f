#define _GNU_SOURCE
#include "CSystemShims.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int eh_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, flags);
}

unsigned int eh_rename_noreplace(void) { return RENAME_NOREPLACE; }
unsigned int eh_rename_exchange(void) { return RENAME_EXCHANGE; }

int eh_start_writeback(int fd) { return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE); }

ssize_t eh_copy_file_range(int fd_in, int fd_out, size_t len) {
    return copy_file_range(fd_in, NULL, fd_out, NULL, len, 0);
}

int eh_ficlone(int dest_fd, int src_fd) { return ioctl(dest_fd, FICLONE, src_fd); }

int eh_syncfs(int fd) { return syncfs(fd); }

int eh_o_path(void) { return O_PATH; }
int eh_o_tmpfile(void) { return O_TMPFILE; }

int eh_openat2_beneath(int dirfd, const char *path, int flags, mode_t mode) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)flags;
    // O_TMPFILE includes the O_DIRECTORY bit, so test it as a whole: a mode with plain
    // O_DIRECTORY makes openat2 fail with EINVAL.
    how.mode = ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

// MARK: - The main bundle of a process exthost starts
//
// Foundation's Bundle.main is the bundle of the process's executable path. swift-corelibs-foundation's
// CoreFoundation takes that path, on Linux, only from /proc/self/exe: its _CFProcessPath (CFPlatform.c,
// the TARGET_OS_LINUX branch) does not read the CFProcessPath environment variable, unlike macOS's
// (checked on Swift 6.3.1: with CFProcessPath set, Bundle.main stays the executable's directory). A
// program exthost runs as an extension or an app is not always inside its bundle: a program given with
// `exthost share --extension-executable`, the built-in extension and app (`exthost __extension`,
// `exthost __app`), an extension library the sandbox launcher loads. So the host puts
// CFProcessPath=<bundle>/<CFBundleExecutable> in the process's environment (ProcessEnvironment in
// ExtensionIPC), and this constructor — linked into every program and library built on exthost's
// modules, through HostSystem — stores that path where CoreFoundation keeps the process path (the
// pointer _CFGetProcessPath() returns, exported by libFoundation.so) before any Swift code runs. Bundle.main,
// made on its first use, is then the bundle (its Info.plist, bundleIdentifier, bundleURL), whichever
// file the kernel executed. Only an absolute path is taken. The CoreFoundation functions are weak
// references: in a program without Foundation this does nothing.

extern const char *_Nullable *_Nonnull _CFGetProcessPath(void) __attribute__((weak));
extern const char *_Nullable *_Nonnull _CFGetProgname(void) __attribute__((weak));

static const char *eh_process_path = NULL;

__attribute__((constructor)) static void eh_adopt_process_path(void) {
    const char *path = getenv("CFProcessPath");
    if (path == NULL || path[0] != '/' || _CFGetProcessPath == NULL || _CFGetProgname == NULL) return;
    char *copy = strdup(path);
    if (copy == NULL) return;
    const char **processPath = _CFGetProcessPath();
    const char **programName = _CFGetProgname();
    *processPath = copy;
    const char *slash = strrchr(copy, '/');
    *programName = slash != NULL ? slash + 1 : copy;
    eh_process_path = copy;
}

const char *eh_adopted_process_path(void) { return eh_process_path; }

int eh_eventfd_cloexec(void) { return eventfd(0, EFD_CLOEXEC); }
