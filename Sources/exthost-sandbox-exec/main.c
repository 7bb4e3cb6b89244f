// exthost-sandbox-exec: confines itself, then becomes PROGRAM.
//
//   exthost-sandbox-exec [--ro PATH]... [--rw PATH]... [--rlimit-as BYTES] [--rlimit-data BYTES]
//       [--rlimit-nofile N] [--rlimit-nproc N] [--rlimit-cpu SECONDS] [--cgroup-procs FILE]
//       [--scope-broker-fd N] [--no-landlock] [--allow-unconfined] [--drop-capabilities] [--report-fd N]
//       [--load-library] [--env NAME=VALUE]... [--chdir DIR] -- PROGRAM [ARGS...]
//   exthost-sandbox-exec --cgroup-procs FILE --arguments-fd N
//
// --arguments-fd N: a launcher started before the host knows what it will run (the host starts it
// first, so the kernel's slow move into the memory cgroup overlaps the host's own preparation).
// It joins the cgroup, then reads the rest of its command line from N: NUL-terminated arguments up
// to end of file, parsed as if they followed these options (every option above but --cgroup-procs
// and --arguments-fd). End of file with nothing read means the host did not need it: exit 0, no
// report. --env NAME=VALUE (repeatable) gives PROGRAM exactly these environment entries instead of
// the launcher's own; --chdir DIR changes to DIR before anything is confined.
//
// --load-library: PROGRAM is a shared library (a user's extension built as a dynamic library, as
// iOS loads an .appex's code into its extension process): instead of execv, the launcher dlopens
// it, once confined, and calls its entry point `int exthost_extension_main(int argc, char **argv)`
// (which exthost's runtime, linked into the library, defines) on this, the process's main thread;
// the entry's result is the exit status.
// --scope-broker-fd N: a socket to the host; just before exec the launcher installs a seccomp filter
// that sends the program's open, stat, access and readlink calls to a listener, and hands the
// listener to the host over N (the host's security-scope broker answers them).
// --cgroup-procs FILE: before anything else, write this process into FILE (the `cgroup.procs` of
// a memory cgroup the host made), so every byte the program allocates is charged to it and the
// kernel enforces its limit.
//
// Single-threaded on purpose: Landlock confines only the calling thread, so it must be applied
// here, between posix_spawn and execv, never from a Swift process that already has Dispatch
// threads. In order it: resets the signal mask, sets no_new_privs, starts a
// session (or at least a process group), restricts itself with the best Landlock ABI the kernel
// offers, applies the rlimits, writes one status line to the report descriptor, closes every
// descriptor except 0, 1, 2, 3 (the IPC socket) and the report descriptor (which is
// close-on-exec), and execs PROGRAM.
//
// Report lines (space-separated key=value, one line each):
//   sandbox=enforced|unconfined|disabled|refused landlock-abi=N network=denied|allowed
//       scope=signal,abstract-unix|none no-new-privs=1 [reason=WORD]
//   exec-failed errno=N                      (only when execv fails; then exit 127)
//   load-failed error=TEXT                   (only when dlopen or dlsym fails; TEXT is dlerror()'s
//                                             message with spaces as '_'; then exit 127)
// End of file on the report descriptor without a second line means execv succeeded (or the library
// was loaded and its entry point is about to run).
//
// Exit status: 64 bad usage, 70 the sandbox could not be set up (or Landlock is missing and
// --allow-unconfined was not given), 127 PROGRAM could not be executed or loaded.

#include "CSandbox.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define EXIT_USAGE 64
#define EXIT_SANDBOX 70
#define EXIT_EXEC 127
#define MAX_PATHS 256
#define MAX_ENV 256
#define MAX_DEFERRED_BYTES (4 << 20)
#define IPC_FD 3

struct limit {
    const char *option;
    int resource;
    rlim_t value;
    int set;
};

struct options {
    const char *read_only[MAX_PATHS];
    int read_only_count;
    const char *read_write[MAX_PATHS];
    int read_write_count;
    struct limit limits[5];
    const char *cgroup_procs;
    const char *environment[MAX_ENV + 1];
    int environment_count;
    const char *working_directory;
    int arguments_fd;
    int scope_broker_fd;
    int no_landlock;
    int allow_unconfined;
    int drop_capabilities;
    int load_library;
    int report_fd;
    char **program_argv;
};

/// Paths every confined program may read: its loader, libraries, /proc (the Swift runtime reads
/// /proc/self/maps for argv and libdispatch reads /proc/PID/stat), CPU topology, time zones.
static const char *const default_read_only[] = {
    "/usr/lib", "/lib", "/lib64", "/etc/ld.so.cache", "/proc", "/sys/devices/system/cpu",
    "/usr/share/zoneinfo", "/dev/urandom",
};

static void usage_error(const char *message, const char *argument) {
    fprintf(stderr, "exthost-sandbox-exec: %s%s%s\n", message, argument ? ": " : "", argument ? argument : "");
    fprintf(stderr,
            "usage: exthost-sandbox-exec [--ro PATH]... [--rw PATH]... [--rlimit-as BYTES] [--rlimit-data BYTES]\n"
            "       [--rlimit-nofile N] [--rlimit-nproc N] [--rlimit-cpu SECONDS] [--cgroup-procs FILE]\n"
            "       [--no-landlock] [--allow-unconfined] [--drop-capabilities] [--report-fd N] [--load-library]\n"
            "       [--env NAME=VALUE]... [--chdir DIR] -- PROGRAM [ARGS...]\n"
            "   or: exthost-sandbox-exec --cgroup-procs FILE --arguments-fd N\n");
    exit(EXIT_USAGE);
}

static unsigned long long parse_number(const char *option, const char *text) {
    if (text == NULL || *text == '\0') usage_error("missing number after", option);
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == NULL || *end != '\0' || text[0] == '-') usage_error("not a whole number", text);
    return value;
}

/// Parses argv into o; `deferred` is the second half read from --arguments-fd (which may not name
/// another cgroup or arguments descriptor).
static void parse(int argc, char **argv, struct options *o, int deferred) {
    memset(o, 0, sizeof(*o));
    o->report_fd = -1;
    o->scope_broker_fd = -1;
    o->arguments_fd = -1;
    o->limits[0] = (struct limit){"--rlimit-as", RLIMIT_AS, 0, 0};
    o->limits[1] = (struct limit){"--rlimit-nofile", RLIMIT_NOFILE, 0, 0};
    o->limits[2] = (struct limit){"--rlimit-nproc", RLIMIT_NPROC, 0, 0};
    o->limits[3] = (struct limit){"--rlimit-cpu", RLIMIT_CPU, 0, 0};
    o->limits[4] = (struct limit){"--rlimit-data", RLIMIT_DATA, 0, 0};
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        } else if (strcmp(arg, "--ro") == 0 || strcmp(arg, "--rw") == 0) {
            if (next == NULL || *next == '\0') usage_error("missing path after", arg);
            int rw = arg[3] == 'w';
            int *count = rw ? &o->read_write_count : &o->read_only_count;
            if (*count >= MAX_PATHS) usage_error("too many paths for", arg);
            (rw ? o->read_write : o->read_only)[(*count)++] = next;
            i++;
        } else if (strcmp(arg, "--scope-broker-fd") == 0) {
            unsigned long long fd = parse_number(arg, next);
            if (fd <= IPC_FD || fd > INT_MAX) usage_error("--scope-broker-fd must be above 3", next);
            o->scope_broker_fd = (int)fd;
            i++;
        } else if (strcmp(arg, "--cgroup-procs") == 0) {
            if (deferred) usage_error("--cgroup-procs must come before --arguments-fd's arguments", NULL);
            if (next == NULL || *next == '\0') usage_error("missing file after", arg);
            o->cgroup_procs = next;
            i++;
        } else if (strcmp(arg, "--arguments-fd") == 0) {
            unsigned long long fd = parse_number(arg, next);
            if (deferred) usage_error("--arguments-fd cannot be given twice", NULL);
            if (fd <= IPC_FD || fd > INT_MAX) usage_error("--arguments-fd must be above 3", next);
            o->arguments_fd = (int)fd;
            i++;
        } else if (strcmp(arg, "--env") == 0) {
            if (next == NULL || strchr(next, '=') == NULL || next[0] == '=') usage_error("expected NAME=VALUE after", arg);
            if (o->environment_count >= MAX_ENV) usage_error("too many entries for", arg);
            o->environment[o->environment_count++] = next;
            i++;
        } else if (strcmp(arg, "--chdir") == 0) {
            if (next == NULL || *next == '\0') usage_error("missing directory after", arg);
            o->working_directory = next;
            i++;
        } else if (strcmp(arg, "--no-landlock") == 0) {
            o->no_landlock = 1;
        } else if (strcmp(arg, "--allow-unconfined") == 0) {
            o->allow_unconfined = 1;
        } else if (strcmp(arg, "--drop-capabilities") == 0) {
            o->drop_capabilities = 1;
        } else if (strcmp(arg, "--load-library") == 0) {
            o->load_library = 1;
        } else if (strcmp(arg, "--report-fd") == 0) {
            unsigned long long fd = parse_number(arg, next);
            if (fd <= IPC_FD || fd > INT_MAX) usage_error("--report-fd must be above 3", next);
            o->report_fd = (int)fd;
            i++;
        } else {
            int matched = 0;
            for (int l = 0; l < 5; l++) {
                if (strcmp(arg, o->limits[l].option) == 0) {
                    o->limits[l].value = (rlim_t)parse_number(arg, next);
                    o->limits[l].set = 1;
                    matched = 1;
                }
            }
            if (!matched) usage_error(arg[0] == '-' ? "unknown option" : "missing -- before PROGRAM", arg);
            i++;
        }
    }
    if (o->arguments_fd >= 0) {
        // Everything else comes from the descriptor.
        if (i < argc) usage_error("--arguments-fd takes every other argument from its descriptor", argv[i]);
        return;
    }
    if (i >= argc) usage_error("missing PROGRAM after --", NULL);
    o->program_argv = &argv[i];
}

/// Reads the rest of the command line from the --arguments-fd descriptor: argv[0] followed by its
/// NUL-terminated arguments. Returns the argument count (0: end of file with nothing read, the
/// host's "not needed"); exits 64 on a read error, an unterminated argument or too much.
static int read_deferred(int fd, const char *launcher, char ***result) {
    size_t capacity = 4096, length = 0;
    char *bytes = malloc(capacity);
    if (bytes == NULL) usage_error("out of memory reading --arguments-fd", NULL);
    for (;;) {
        if (length == capacity) {
            if (capacity >= MAX_DEFERRED_BYTES) usage_error("more than 4 MiB of arguments on --arguments-fd", NULL);
            capacity *= 2;
            char *grown = realloc(bytes, capacity);
            if (grown == NULL) usage_error("out of memory reading --arguments-fd", NULL);
            bytes = grown;
        }
        ssize_t n = read(fd, bytes + length, capacity - length);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) usage_error("cannot read --arguments-fd", strerror(errno));
        if (n == 0) break;
        length += (size_t)n;
    }
    close(fd);
    if (length == 0) {
        free(bytes);
        return 0;
    }
    if (bytes[length - 1] != '\0') usage_error("the last argument on --arguments-fd is not NUL-terminated", NULL);
    int count = 1;
    for (size_t b = 0; b < length; b++) count += bytes[b] == '\0';
    char **argv = calloc((size_t)count + 1, sizeof(char *));
    if (argv == NULL) usage_error("out of memory reading --arguments-fd", NULL);
    argv[0] = (char *)launcher;
    int index = 1;
    for (size_t start = 0; start < length; start += strlen(bytes + start) + 1) argv[index++] = bytes + start;
    *result = argv;
    return count;
}

static void report(const struct options *o, const char *line) {
    if (o->report_fd < 0) return;
    size_t length = strlen(line);
    while (length > 0) {
        ssize_t n = write(o->report_fd, line, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; // the host went away; nothing else to tell
        line += n;
        length -= (size_t)n;
    }
}

static void fail(const struct options *o, int status, const char *what, const char *path, int error) {
    char line[PATH_MAX + 256];
    snprintf(line, sizeof(line), "sandbox=refused landlock-abi=0 network=allowed scope=none no-new-privs=%d reason=%s\n",
             eh_get_no_new_privs() == 1, what);
    report(o, line);
    fprintf(stderr, "exthost-sandbox-exec: %s%s%s: %s\n", what, path ? " " : "", path ? path : "", strerror(error));
    exit(status);
}

/// Adds the rules; returns the ruleset descriptor, or exits 70.
static int build_ruleset(const struct options *o, int abi) {
    int ruleset = eh_landlock_create_ruleset(abi);
    if (ruleset < 0) fail(o, EXIT_SANDBOX, "landlock-create-ruleset-failed", NULL, errno);
    for (size_t d = 0; d < sizeof(default_read_only) / sizeof(default_read_only[0]); d++) {
        if (eh_landlock_add_path(ruleset, abi, default_read_only[d], EH_LANDLOCK_READ_ONLY) < 0 && errno != ENOENT)
            fail(o, EXIT_SANDBOX, "landlock-rule-failed", default_read_only[d], errno);
    }
    // Programs open /dev/null for writing as often as for reading; writing it is harmless.
    if (eh_landlock_add_path(ruleset, abi, "/dev/null", EH_LANDLOCK_READ_WRITE_FILE) < 0 && errno != ENOENT)
        fail(o, EXIT_SANDBOX, "landlock-rule-failed", "/dev/null", errno);
    if (eh_landlock_add_path(ruleset, abi, o->program_argv[0], EH_LANDLOCK_READ_ONLY) < 0)
        fail(o, EXIT_SANDBOX, "program-not-found", o->program_argv[0], errno);
    for (int p = 0; p < o->read_only_count; p++) {
        if (eh_landlock_add_path(ruleset, abi, o->read_only[p], EH_LANDLOCK_READ_ONLY) < 0)
            fail(o, EXIT_SANDBOX, "landlock-rule-failed", o->read_only[p], errno);
    }
    for (int p = 0; p < o->read_write_count; p++) {
        if (eh_landlock_add_path(ruleset, abi, o->read_write[p], EH_LANDLOCK_READ_WRITE) < 0)
            fail(o, EXIT_SANDBOX, "landlock-rule-failed", o->read_write[p], errno);
    }
    return ruleset;
}

static void close_inherited(const struct options *o) {
    int keep = o->report_fd;
    int rc = keep < 0 ? eh_close_range(IPC_FD + 1, ~0U)
                      : (keep > IPC_FD + 1 ? eh_close_range(IPC_FD + 1, (unsigned)keep - 1) : 0) |
                            eh_close_range((unsigned)keep + 1, ~0U);
    if (rc != 0) fail(o, EXIT_SANDBOX, "close-range-failed", NULL, errno);
    if (keep >= 0 && fcntl(keep, F_SETFD, FD_CLOEXEC) < 0) fail(o, EXIT_SANDBOX, "bad-report-fd", NULL, errno);
}

/// The entry point a library loaded with --load-library defines.
typedef int (*extension_entry)(int argc, char **argv);

/// Loads PROGRAM as a library and runs its entry point on this thread; returns its status, or 127
/// (with a load-failed report line) when it cannot be loaded.
static int run_library(const struct options *o, int argc, char **argv) {
    dlerror();
    void *library = dlopen(o->program_argv[0], RTLD_NOW | RTLD_LOCAL);
    extension_entry entry = library != NULL ? (extension_entry)dlsym(library, "exthost_extension_main") : NULL;
    if (entry == NULL) {
        const char *why = dlerror();
        char text[1024];
        snprintf(text, sizeof(text), "%s", why != NULL ? why : "the library defines no exthost_extension_main");
        char line[sizeof(text) + 32];
        for (char *c = text; *c != '\0'; c++) {
            if (*c == ' ' || *c == '\n' || *c == '\t') *c = '_';
        }
        snprintf(line, sizeof(line), "load-failed error=%s\n", text);
        report(o, line);
        fprintf(stderr, "exthost-sandbox-exec: cannot load %s: %s\n", o->program_argv[0],
                why != NULL ? why : "it defines no exthost_extension_main (link it with exthost's ExtHostExtension product)");
        return EXIT_EXEC;
    }
    // Loaded: end of file on the report descriptor now means the program runs, as after an exec.
    if (o->report_fd >= 0) close(o->report_fd);
    int count = argc - (int)(o->program_argv - argv);
    return entry(count, o->program_argv);
}

int main(int argc, char **argv) {
    struct options o;
    parse(argc, argv, &o, 0);
    if (o.report_fd >= 0 && fcntl(o.report_fd, F_GETFD) < 0) usage_error("--report-fd is not open", NULL);

    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);

    // Into the memory cgroup first, while /sys/fs/cgroup is still reachable (Landlock comes later).
    if (o.cgroup_procs != NULL) {
        int fd = open(o.cgroup_procs, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, "0\n", 2) != 2) fail(&o, EXIT_SANDBOX, "cgroup-join-failed", o.cgroup_procs, errno);
        close(fd);
    }

    // Started early: the rest of the command line arrives once the host knows it.
    if (o.arguments_fd >= 0) {
        char **deferred = NULL;
        int count = read_deferred(o.arguments_fd, argv[0], &deferred);
        if (count == 0) return 0;
        argc = count;
        argv = deferred;
        parse(argc, argv, &o, 1);
        if (o.report_fd >= 0 && fcntl(o.report_fd, F_GETFD) < 0) usage_error("--report-fd is not open", NULL);
    }
    if (o.working_directory != NULL && chdir(o.working_directory) < 0)
        fail(&o, EXIT_SANDBOX, "chdir-failed", o.working_directory, errno);

    if (eh_set_no_new_privs() < 0) fail(&o, EXIT_SANDBOX, "no-new-privs-failed", NULL, errno);
    // A new session detaches from any controlling terminal. When the host already made us a
    // process-group leader (POSIX_SPAWN_SETPGROUP), setsid fails with EPERM and the group stays.
    if (getsid(0) != getpid() && setsid() < 0 && getpgrp() != getpid() && setpgid(0, 0) < 0)
        fail(&o, EXIT_SANDBOX, "setpgid-failed", NULL, errno);

    const char *status = "disabled";
    const char *reason = "";
    int abi = eh_landlock_abi();
    int probe_error = errno;
    if (!o.no_landlock) {
        if (abi == 0) {
            if (!o.allow_unconfined) {
                fprintf(stderr,
                        "exthost-sandbox-exec: this kernel offers no Landlock (%s); refusing to run %s unconfined "
                        "(pass --allow-unconfined to run it anyway, unsandboxed)\n",
                        strerror(probe_error), o.program_argv[0]);
                report(&o, "sandbox=refused landlock-abi=0 network=allowed scope=none no-new-privs=1 "
                           "reason=landlock-unavailable\n");
                return EXIT_SANDBOX;
            }
            fprintf(stderr, "exthost-sandbox-exec: WARNING: this kernel offers no Landlock (%s); %s runs UNCONFINED\n",
                    strerror(probe_error), o.program_argv[0]);
            status = "unconfined";
            reason = " reason=landlock-unavailable";
        } else {
            int ruleset = build_ruleset(&o, abi);
            if (eh_landlock_restrict_self(ruleset) < 0) fail(&o, EXIT_SANDBOX, "landlock-restrict-failed", NULL, errno);
            close(ruleset);
            status = "enforced";
        }
    }

    for (int l = 0; l < 5; l++) {
        if (!o.limits[l].set) continue;
        struct rlimit value = {.rlim_cur = o.limits[l].value, .rlim_max = o.limits[l].value};
        if (setrlimit(o.limits[l].resource, &value) < 0) fail(&o, EXIT_SANDBOX, "setrlimit-failed", o.limits[l].option, errno);
    }

    // After the rlimits (raising a hard limit back needs CAP_SYS_RESOURCE, which goes here).
    const char *capabilities = "";
    if (o.drop_capabilities) {
        int held = eh_drop_capabilities();
        if (held < 0) fail(&o, EXIT_SANDBOX, "drop-capabilities-failed", NULL, errno);
        capabilities = held > 0 ? " capabilities=dropped" : " capabilities=none";
    }

    // Last before exec: the filter that sends the program's opens and stats to the host's
    // security-scope broker. Installed here, everything the program does is covered.
    const char *broker = "";
    if (o.scope_broker_fd >= 0) {
        int listener = eh_scope_filter_install();
        if (listener >= 0 && eh_send_with_fds(o.scope_broker_fd, "L", 1, &listener, 1, 0) == 1) {
            broker = " scope-broker=kernel";
        } else {
            broker = " scope-broker=unavailable";
        }
        if (listener >= 0) close(listener);
        close(o.scope_broker_fd);
    }

    int enforced = strcmp(status, "enforced") == 0;
    char line[256];
    snprintf(line, sizeof(line), "sandbox=%s landlock-abi=%d network=%s scope=%s no-new-privs=%d%s%s%s\n", status,
             enforced ? abi : 0, enforced && abi >= 4 ? "denied" : "allowed",
             enforced && abi >= 6 ? "signal,abstract-unix" : "none", eh_get_no_new_privs() == 1, capabilities,
             broker, reason);
    report(&o, line);
    close_inherited(&o);

    if (o.environment_count > 0) {
        // The program's whole environment, as given (a library runs in this process: replace ours).
        if (o.load_library) {
            clearenv();
            for (int e = 0; e < o.environment_count; e++) putenv((char *)o.environment[e]);
        }
        o.environment[o.environment_count] = NULL;
    }
    if (o.load_library) return run_library(&o, argc, argv);

    if (o.environment_count > 0) {
        execve(o.program_argv[0], o.program_argv, (char *const *)o.environment);
    } else {
        execv(o.program_argv[0], o.program_argv);
    }
    int error = errno;
    snprintf(line, sizeof(line), "exec-failed errno=%d\n", error);
    report(&o, line);
    fprintf(stderr, "exthost-sandbox-exec: cannot execute %s: %s\n", o.program_argv[0], strerror(error));
    return EXIT_EXEC;
}
