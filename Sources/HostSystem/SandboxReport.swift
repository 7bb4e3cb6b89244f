/// What `exthost-sandbox-exec` reported on its report descriptor before it exec'd the program.
///
/// The wire form is one line of space-separated `key=value` pairs, for example
/// `sandbox=enforced landlock-abi=7 network=denied scope=signal,abstract-unix no-new-privs=1`,
/// optionally followed by `exec-failed errno=N` when `execv` failed, or `load-failed error=TEXT`
/// when a library could not be loaded (`--load-library`). End of file without that second line
/// means the program is running.
public struct SandboxReport: Hashable, Sendable {
    /// Whether the program runs confined.
    public enum Status: String, Hashable, Sendable {
        /// Landlock is enforced.
        case enforced
        /// The kernel has no Landlock and the policy allowed running without it.
        case unconfined
        /// The policy turned Landlock off.
        case disabled
        /// The launcher refused to run the program (see ``SandboxReport/reason``); it exited 70.
        case refused
    }

    /// Whether the program runs confined.
    public var status: Status
    /// The Landlock ABI in force (0 when none).
    public var landlockABI: Int
    /// TCP bind and connect are denied (Landlock ABI ≥ 4).
    public var networkDenied: Bool
    /// The Landlock scopes in force (`signal`, `abstract-unix`; ABI ≥ 6).
    public var scopes: [String]
    /// `no_new_privs` was set.
    public var noNewPrivileges: Bool
    /// `dropped` when the launcher gave up the capabilities it held, `none` when it held none,
    /// nil when it was not asked to.
    public var capabilities: String?
    /// Why the sandbox is not enforced, or why the launcher refused (`landlock-unavailable`, ...).
    public var reason: String?
    /// Set when the launcher could not exec the program.
    public var execError: Errno?
    /// Set when the launcher could not load the program as a library: `dlerror()`'s message.
    public var loadError: String?
    /// `kernel` when the launcher handed the host a seccomp listener for the security-scope broker,
    /// `unavailable` when it could not install one, nil when it was not asked to.
    public var scopeBroker: String?

    /// Parses the launcher's report; nil when `text` has no `sandbox=` line (the launcher died
    /// before reporting, or was not the launcher).
    public init?(parsing text: String) {
        var pairs: [String: String] = [:]
        var execError: Errno?
        var loadError: String?
        var sawStatus = false
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.first == "exec-failed" {
                let value = words.dropFirst().first { $0.hasPrefix("errno=") }?.dropFirst("errno=".count)
                execError = Errno(rawValue: value.flatMap { CInt($0) } ?? 0)
                continue
            }
            if words.first == "load-failed" {
                let value = words.dropFirst().first { $0.hasPrefix("error=") }?.dropFirst("error=".count)
                loadError = String((value.map(String.init) ?? "unknown").map { $0 == "_" ? " " : $0 })
                continue
            }
            guard words.first?.hasPrefix("sandbox=") == true, !sawStatus else { continue }
            sawStatus = true
            for word in words {
                guard let equals = word.firstIndex(of: "=") else { continue }
                pairs[String(word[..<equals])] = String(word[word.index(after: equals)...])
            }
        }
        guard let statusText = pairs["sandbox"], let status = Status(rawValue: statusText) else { return nil }
        self.status = status
        self.landlockABI = pairs["landlock-abi"].flatMap { Int($0) } ?? 0
        self.networkDenied = pairs["network"] == "denied"
        let scope = pairs["scope"] ?? "none"
        self.scopes = scope == "none" ? [] : scope.split(separator: ",").map(String.init)
        self.noNewPrivileges = pairs["no-new-privs"] == "1"
        self.capabilities = pairs["capabilities"]
        self.reason = pairs["reason"]
        self.execError = execError
        self.loadError = loadError
        self.scopeBroker = pairs["scope-broker"]
    }

    /// True when Landlock confines the program.
    public var isEnforced: Bool { status == .enforced }
}
