#define _GNU_SOURCE
#include "CSystemShims.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
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
