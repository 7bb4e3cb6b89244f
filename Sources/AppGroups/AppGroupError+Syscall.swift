import HostSystem

// Per-system-call factories: each maps the errno values that have a meaning of their own to a
// ``AppGroupError/Code`` and keeps the `Errno` as the cause.

extension AppGroupError {
    /// The code an errno maps to when nothing more specific applies.
    private static func code(for errno: Errno) -> Code {
        switch errno {
        case .noSuchFileOrDirectory: .notFound
        case .fileExists: .alreadyExists
        // openat2(RESOLVE_BENEATH) reports an escape as EXDEV; RESOLVE_NO_SYMLINKS and O_NOFOLLOW
        // report a link as ELOOP.
        case .crossDevice, .tooManySymbolicLinks: .escapesContainer
        default: .io
        }
    }

    /// `openat2`/`openat` failed on `path`.
    // See: man 2 openat2, man 2 open
    static func open(_ errno: Errno, path: String) -> AppGroupError {
        switch errno {
        case .crossDevice:
            AppGroupError(.escapesContainer, "'\(path)' leaves the container", cause: errno)
        case .tooManySymbolicLinks:
            AppGroupError(
                .escapesContainer, "'\(path)' goes through a symbolic link, which containers refuse", cause: errno)
        case .notDirectory:
            AppGroupError(.invalidPath, "a component of '\(path)' is not a directory", cause: errno)
        default:
            AppGroupError(code(for: errno), "cannot open '\(path)'", cause: errno)
        }
    }

    /// `renameat`/`renameat2` failed.
    // See: man 2 rename
    static func rename(_ errno: Errno, from: String, to: String) -> AppGroupError {
        AppGroupError(code(for: errno), "cannot rename '\(from)' to '\(to)'", cause: errno)
    }

    /// `write`/`copy_file_range`/`ftruncate` failed on `path`.
    // See: man 2 write, man 2 copy_file_range
    static func write(_ errno: Errno, path: String) -> AppGroupError {
        if errno == .noSpace {
            return AppGroupError(.io, "no space left while writing '\(path)'", cause: errno)
        }
        return AppGroupError(.io, "cannot write '\(path)'", cause: errno)
    }

    /// `read`/`pread`/`fstat` failed on `path`.
    // See: man 2 read
    static func read(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(code(for: errno), "cannot read '\(path)'", cause: errno)
    }

    /// `fsync` failed on `path` (data may not be durable).
    // See: man 2 fsync
    static func sync(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(.io, "cannot flush '\(path)' to stable storage", cause: errno)
    }

    /// `mkdirat` failed.
    // See: man 2 mkdirat
    static func makeDirectory(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(code(for: errno), "cannot create directory '\(path)'", cause: errno)
    }

    /// `unlinkat` failed.
    // See: man 2 unlinkat
    static func remove(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(code(for: errno), "cannot remove '\(path)'", cause: errno)
    }

    /// `flock` failed on a lock file.
    // See: man 2 flock
    static func lock(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(.io, "cannot lock '\(path)'", cause: errno)
    }

    /// `readdir` or `fstatat` failed.
    // See: man 3 readdir, man 2 fstatat
    static func list(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(code(for: errno), "cannot list '\(path)'", cause: errno)
    }

    /// `inotify_init1`/`inotify_add_watch`/`poll` failed.
    // See: man 7 inotify
    static func watch(_ errno: Errno, path: String) -> AppGroupError {
        AppGroupError(code(for: errno), "cannot watch '\(path)'", cause: errno)
    }
}
