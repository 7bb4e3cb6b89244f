import CSystemShims

#if canImport(Glibc)
import Glibc
#endif

/// How ``FileDescriptor/open(beneath:relativeTo:_:permissions:resolution:)`` resolves a path.
public enum BeneathResolution: Sendable, Hashable {
    /// `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`, falling back to ``componentWalk`` when the
    /// kernel has no `openat2` (`ENOSYS`, kernels before 5.6).
    case automatic
    /// Open one component at a time with `O_NOFOLLOW` (what the fallback does; tests force it).
    case componentWalk
}

extension FileDescriptor {
    /// Opens the relative `path` strictly beneath `directory`: no `..`, no absolute path and no
    /// symbolic link in any component.
    ///
    /// - Important: This is the confinement primitive for App Group containers. A path that would
    ///   leave `directory` fails with `EXDEV` (the error `openat2(RESOLVE_BENEATH)` gives) and any
    ///   symbolic link on the way fails with `ELOOP`, whether or not it points inside.
    ///
    /// The corresponding C functions are `openat2` (with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`)
    /// and, as a fallback, `openat` with `O_NOFOLLOW` per component.
    /// - Throws: ``Errno`` (`.crossDevice` for an escape, `.tooManySymbolicLinks` for a link).
    public static func open(
        beneath path: String, relativeTo directory: FileDescriptor, _ options: OpenOptions = .readOnly,
        permissions: UInt32 = 0o644, resolution: BeneathResolution = .automatic
    ) throws(Errno) -> FileDescriptor {
        guard !path.hasPrefix("/") else { throw Errno.crossDevice }
        let flags = options.rawValue | O_CLOEXEC | O_NOFOLLOW
        if resolution == .automatic {
            let result = path.withCString { cPath in
                valueOrErrno { system_openat2_beneath(directory.rawValue, cPath, flags, mode_t(permissions)) }
            }
            switch result {
            case .success(let fd): return FileDescriptor(rawValue: fd)
            case .failure(let error) where error != .notImplemented: throw error
            case .failure: break
            }
        }
        return try walk(path, from: directory, flags: flags, permissions: permissions)
    }

    /// The component-by-component fallback: every intermediate is opened `O_DIRECTORY | O_NOFOLLOW`
    /// relative to the previous one, so no link is ever followed and `..` is refused up front.
    private static func walk(
        _ path: String, from directory: FileDescriptor, flags: CInt, permissions: UInt32
    ) throws(Errno) -> FileDescriptor {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty else {
            // "" or "." alone: the directory itself, like openat2 does.
            return try FileDescriptor.open(".", relativeTo: directory, OpenOptions(rawValue: flags & ~O_CREAT))
        }
        if components.contains("..") { throw Errno.crossDevice }
        var current = directory
        var owned = false
        defer { if owned { try? current.close() } }
        for component in components.dropLast() where component != "." {
            let next: FileDescriptor
            do {
                next = try FileDescriptor.open(component, relativeTo: current, [.readOnly, .directory, .noFollow])
            } catch  where error == .notDirectory {
                // O_DIRECTORY | O_NOFOLLOW on a link reports ENOTDIR; report it as openat2 does.
                if (try? current.status(ofEntry: component).kind) == .symbolicLink { throw Errno.tooManySymbolicLinks }
                throw error
            }
            if owned { try? current.close() }
            current = next
            owned = true
        }
        let last = components.last ?? "."
        return try FileDescriptor.open(
            last, relativeTo: current, OpenOptions(rawValue: flags), permissions: permissions)
    }
}
