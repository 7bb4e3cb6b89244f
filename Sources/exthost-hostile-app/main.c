// exthost-hostile-app: an app's program that tries to get out of its sandbox. Tests install it as an
// app (its CFBundleExecutable) and start it every way an app starts — `exthost app run`, Open With
// (cold), AirDrop's receiver handing it a file, a Shortcuts intent — and assert that every escape
// fails. Each attempt is one line on standard output:
//   `escape NAME refused errno=N` or `escape NAME ESCAPED`,
// and what an app must still be able to do, `allowed NAME ok` or `allowed NAME FAILED errno=N`.
// The device root is found the way a hostile app would: three folders above its data container
// ($HOME = <root>/Data/Application/<UUID>). Not shipped; built for tests only.
#define _GNU_SOURCE
#include "CEscapeProbes.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void escape(const char *name, int result) {
    if (result == 0) {
        printf("escape %s ESCAPED\n", name);
    } else {
        printf("escape %s refused errno=%d (%s)\n", name, result, strerror(result));
    }
    fflush(stdout);
}

static void allowed(const char *name, int result) {
    if (result == 0) {
        printf("allowed %s ok\n", name);
    } else {
        printf("allowed %s FAILED errno=%d (%s)\n", name, result, strerror(result));
    }
    fflush(stdout);
}

/// Talks to the Unix socket at `path` as a client of another app would, without its token: 0 when
/// the other side answered anything (the app could be driven), else why not (ECONNRESET when it
/// hung up without an answer).
static int talk_unix(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(address.sun_path)) {
        close(fd);
        return ENAMETOOLONG;
    }
    strcpy(address.sun_path, path);
    if (connect(fd, (struct sockaddr *)&address, sizeof(address)) < 0) {
        int rc = errno;
        close(fd);
        return rc;
    }
    // A guessed token, then a terminate request as exthost frames it would follow; any answer counts.
    char guess[64];
    memset(guess, '0', sizeof(guess));
    (void)!write(fd, guess, sizeof(guess));
    (void)!write(fd, "{\"kind\":\"terminate\"}\n", 21);
    struct pollfd ready = {.fd = fd, .events = POLLIN};
    char byte;
    int rc = ECONNRESET;
    if (poll(&ready, 1, 5000) == 1 && read(fd, &byte, 1) == 1) rc = 0;
    close(fd);
    return rc;
}

int main(int argc, char **argv) {
    const char *home = getenv("HOME");
    if (home == NULL || home[0] != '/') {
        printf("escape setup FAILED: no HOME\n");
        return 2;
    }
    char root[PATH_MAX];
    snprintf(root, sizeof(root), "%s/../../..", home);
    char path[PATH_MAX], other[PATH_MAX];
    printf("hostile app: pid %d, %d arguments, HOME %s\n", (int)getpid(), argc - 1, home);

    // What an app may do: its own container.
    snprintf(path, sizeof(path), "%s/hostile-own-file", home);
    allowed("write-own-container", ep_create_file(path));
    allowed("read-own-container", ep_read_file(path));

    // The device root and what is in it.
    escape("list-device-root", ep_list_directory(root));
    snprintf(path, sizeof(path), "%s/Bundles", root);
    escape("list-installed-bundles", ep_list_directory(path));
    snprintf(path, sizeof(path), "%s/Bundles/CardDrop.app/Info.plist", root);
    escape("read-other-apps-bundle", ep_read_file(path));
    snprintf(path, sizeof(path), "%s/Data/Application", root);
    escape("list-other-apps-containers", ep_list_directory(path));
    snprintf(path, sizeof(path), "%s/Shared/AppGroup", root);
    escape("list-group-containers", ep_list_directory(path));
    snprintf(path, sizeof(path), "%s/Downloads", root);
    escape("list-downloads", ep_list_directory(path));
    snprintf(path, sizeof(path), "%s/planted-by-app", root);
    escape("write-device-root", ep_create_file(path));
    // The pasteboard is a system service: its file is out of reach (UIPasteboard asks exthost).
    snprintf(path, sizeof(path), "%s/Pasteboard/general.json", root);
    escape("read-pasteboard-file", ep_read_file(path));
    escape("write-pasteboard-file", ep_create_file(path));
    // Another group's container, when the test names one (it cannot be listed).
    for (int index = 1; index + 1 < argc; index += 1) {
        if (strcmp(argv[index], "--other-group") == 0) {
            escape("list-other-group", ep_list_directory(argv[index + 1]));
            snprintf(path, sizeof(path), "%s/planted-by-app", argv[index + 1]);
            escape("write-other-group", ep_create_file(path));
        }
    }

    // Outside the device.
    snprintf(path, sizeof(path), "/tmp/exthost-hostile-app-%d", (int)getpid());
    escape("write-tmp", ep_create_file(path));
    escape("list-tmp", ep_list_directory("/tmp"));
    // The user's real home ($HOME is the container): from the password database when it can be
    // read, else where it usually is.
    struct passwd *user = getpwuid(getuid());
    const char *real_home = user != NULL && user->pw_dir != NULL ? user->pw_dir : getuid() == 0 ? "/root" : "/home";
    escape("list-home", ep_list_directory(real_home));
    snprintf(path, sizeof(path), "%s/.exthost-hostile-app", real_home);
    escape("write-home", ep_create_file(path));
    escape("read-etc-passwd", ep_read_file("/etc/passwd"));

    // The process that started it.
    escape("ptrace-parent", ep_ptrace_attach((int)getppid()));

    // A symbolic link planted in its own container, pointing out of it: Landlock checks the file
    // the link resolves to.
    snprintf(path, sizeof(path), "%s/Bundles/CardDrop.app/Info.plist", root);
    snprintf(other, sizeof(other), "%s/planted-link", home);
    unlink(other);
    allowed("plant-symlink", ep_symlink(path, other));
    escape("read-through-planted-symlink", ep_read_file(other));
    snprintf(path, sizeof(path), "%s/Run", root);
    snprintf(other, sizeof(other), "%s/planted-run-link", home);
    unlink(other);
    ep_symlink(path, other);
    escape("list-run-through-planted-symlink", ep_list_directory(other));

    // Other apps' Run sockets (an app kept running by 'exthost app launch' listens there).
    snprintf(path, sizeof(path), "%s/Run", root);
    escape("list-run-sockets", ep_list_directory(path));
    for (int index = 1; index + 1 < argc; index += 1) {
        if (strcmp(argv[index], "--run-socket") == 0) {
            escape("talk-to-other-apps-run-socket", talk_unix(argv[index + 1]));
            // The token that socket wants sits beside it.
            snprintf(path, sizeof(path), "%s", argv[index + 1]);
            char *dot = strrchr(path, '.');
            if (dot != NULL && strcmp(dot, ".sock") == 0) strcpy(dot, ".token");
            escape("read-other-apps-run-token", ep_read_file(path));
        }
    }
    snprintf(path, sizeof(path), "%s/Run/com.example.probe.sock", root);
    escape("talk-to-probe-run-socket", talk_unix(path));
    snprintf(path, sizeof(path), "%s/Run/com.example.probe.token", root);
    escape("read-probe-run-token", ep_read_file(path));
    printf("hostile app: done\n");
    fflush(stdout);
    return 0;
}
