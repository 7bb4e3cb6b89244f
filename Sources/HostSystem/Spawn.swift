import CSandbox

#if canImport(Glibc)
import Glibc
#endif

/// Starts a program with `posix_spawn`, giving it exactly the descriptors named in
/// ``descriptors`` and nothing else, an empty signal mask with every signal at its default action,
/// and (by default) its own process group.
///
/// Why not `fork` or Foundation `Process`: `fork` from a multi-threaded Swift process is unsafe
/// (and crashes under ThreadSanitizer); `Process` closes every descriptor above 2 and cannot reset
/// the signal mask, which a child spawned from async code inherits with `SIGTERM` blocked (so
/// `Process.terminate()` is ignored).
///
/// ```swift
/// var spawn = Spawn(executable: "/usr/bin/env", arguments: ["true"])
/// spawn.descriptors[3] = socket.descriptor
/// let pid = try spawn.start()
/// ```
public struct Spawn: Sendable {
    /// How the child relates to the caller's process group and session.
    public enum ProcessGroup: Hashable, Sendable {
        /// Stay in the caller's process group (a terminal's Ctrl-C reaches the child).
        case inherit
        /// A new process group whose id is the child's pid (`POSIX_SPAWN_SETPGROUP`), so
        /// ``ProcessID/sendToGroup(_:)`` reaches it and everything it forks.
        case newGroup
        /// A new session (and process group) with no controlling terminal (`POSIX_SPAWN_SETSID`).
        case newSession
    }

    /// The program: an absolute path, or one relative to the working directory (no `PATH` search).
    public var executable: String
    /// The arguments after `argv[0]`.
    public var arguments: [String]
    /// `argv[0]`; nil uses ``executable``.
    public var argument0: String?
    /// The environment as `NAME=value` entries; nil inherits the caller's.
    public var environment: [String]?
    /// The directory the child starts in; nil keeps the caller's.
    public var workingDirectory: String?
    /// Descriptors the child gets, by number in the child (e.g. `[1: pipe.writeEnd, 3: socket]`).
    /// Standard input, output and error that are not named here are `/dev/null`; every other
    /// descriptor is closed in the child, close-on-exec or not.
    public var descriptors: [CInt: FileDescriptor]
    /// The child's process group; ``ProcessGroup/newGroup`` by default.
    public var processGroup: ProcessGroup

    /// A spawn of `executable` with `arguments`, the caller's environment and working directory,
    /// `/dev/null` for standard streams and a new process group.
    public init(executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
        self.argument0 = nil
        self.environment = nil
        self.workingDirectory = nil
        self.descriptors = [:]
        self.processGroup = .newGroup
    }

    /// Starts the child; returns its pid. The caller must reap it (``ProcessID/reap()``, or
    /// better ``withChildProcess(_:teardown:_:)``, which always does).
    ///
    /// The corresponding C function is `posix_spawn`.
    /// - Throws: ``Errno``: `.noSuchFileOrDirectory`, `.permissionDenied` or ENOEXEC when the
    ///   program cannot be executed (glibc reports exec failures from the child synchronously),
    ///   `.badFileDescriptor` for a closed descriptor in ``descriptors``.
    public func start() throws(Errno) -> ProcessID {
        // Every source is first duplicated above the highest target number, so that mapping
        // `a → 3, b → 4` works even when `b` is currently 3, and dup2 never sees source == target
        // (which would leave close-on-exec set). closefrom then drops the copies in the child.
        var mapping = descriptors
        var nullDevice: FileDescriptor?
        defer { try? nullDevice?.close() }
        for standard: CInt in 0...2 where mapping[standard] == nil {
            if nullDevice == nil { nullDevice = try FileDescriptor.open("/dev/null", .readWrite) }
            mapping[standard] = nullDevice
        }
        let highest = mapping.keys.max() ?? 2
        var copies: [(target: CInt, copy: FileDescriptor)] = []
        defer { for entry in copies { try? entry.copy.close() } }
        for (target, source) in mapping.sorted(by: { $0.key < $1.key }) {
            // programmer error: a negative target number cannot exist.
            precondition(target >= 0, "descriptor targets are non-negative")
            let copy = try valueOrErrno { system_fcntl_dupfd(source.rawValue, highest + 1) }.get()
            copies.append((target, FileDescriptor(rawValue: copy)))
        }

        var actions = posix_spawn_file_actions_t()
        try spawnCall { posix_spawn_file_actions_init(&actions) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        for entry in copies {
            try spawnCall { posix_spawn_file_actions_adddup2(&actions, entry.copy.rawValue, entry.target) }
        }
        try spawnCall { eh_spawn_add_closefrom(&actions, highest + 1) }
        if let workingDirectory {
            try spawnCall { eh_spawn_add_chdir(&actions, workingDirectory) }
        }

        var attributes = posix_spawnattr_t()
        try spawnCall { posix_spawnattr_init(&attributes) }
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        try spawnCall { posix_spawnattr_setsigmask(&attributes, &empty) }
        try spawnCall { posix_spawnattr_setsigdefault(&attributes, &all) }
        var flags = CInt(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch processGroup {
        case .inherit: break
        case .newGroup:
            flags |= CInt(POSIX_SPAWN_SETPGROUP)
            try spawnCall { posix_spawnattr_setpgroup(&attributes, 0) }
        case .newSession:
            flags |= CInt(eh_posix_spawn_setsid_flag())
        }
        try spawnCall { posix_spawnattr_setflags(&attributes, Int16(flags)) }

        let argv = [argument0 ?? executable] + arguments
        let envp = environment ?? Self.currentEnvironment()
        var pid: pid_t = 0
        let result = withCStringArray(argv) { cArgv in
            withCStringArray(envp) { cEnvp in
                executable.withCString { path in
                    system_posix_spawn(&pid, path, &actions, &attributes, cArgv, cEnvp)
                }
            }
        }
        if result != 0 { throw Errno(rawValue: result) }
        return ProcessID(rawValue: pid)
    }

    /// The caller's environment as `NAME=value` entries.
    public static func currentEnvironment() -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return entries
    }
}

// MARK: - Helpers

/// posix_spawn* calls return an error number instead of setting errno.
private func spawnCall(_ body: () -> CInt) throws(Errno) {
    let result = body()
    if result != 0 { throw Errno(rawValue: result) }
}

/// Runs `body` with a NULL-terminated `char *[]` copy of `strings`, freed afterwards; returns
/// `ENOMEM` when a copy cannot be made.
private func withCStringArray(
    _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> CInt
) -> CInt {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    guard copies.dropLast().allSatisfy({ $0 != nil }) else { return ENOMEM }
    return copies.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return ENOMEM }
        return body(base)
    }
}
