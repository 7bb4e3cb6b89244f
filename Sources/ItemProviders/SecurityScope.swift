public import Foundation
public import HostSystem

/// Whether reading or writing a security-scoped file needs an active scope.
public enum SecurityScopeMode: String, Sendable, Hashable, CaseIterable {
    /// As on a device: without `startAccessingSecurityScopedResource()` the access fails.
    case strict
    /// As in the simulator: access works without a scope (starts and stops are still counted).
    case lenient
}

/// Grants and releases security scopes. The in-process default grants every token it is given;
/// the sandboxed extension installs one that asks the host over IPC.
public protocol SecurityScopeBroker: Sendable {
    /// Whether the scope `token` for `url` may be started now.
    func startAccessing(token: String, url: URL) -> Bool
    /// Releases one start of `token` for `url`.
    func stopAccessing(token: String, url: URL)
}

/// The default broker: grants every non-empty token, releases nothing (it holds no resources).
public struct InProcessSecurityScopeBroker: SecurityScopeBroker {
    /// The broker.
    public init() {}
    /// True for a non-empty token.
    public func startAccessing(token: String, url: URL) -> Bool { !token.isEmpty }
    /// Nothing to release in process.
    public func stopAccessing(token: String, url: URL) {}
}

/// A security scope started more often than it was stopped, reported at the end of a request.
public struct SecurityScopeLeak: Sendable, Hashable, CustomStringConvertible {
    /// The scoped URL.
    public var url: URL
    /// Its token.
    public var token: String
    /// Starts not yet balanced by a stop.
    public var outstandingStarts: Int

    /// `path: N unbalanced startAccessingSecurityScopedResource() call(s)`.
    public var description: String {
        "\(url.path): \(outstandingStarts) unbalanced startAccessingSecurityScopedResource() call(s)"
    }
}

/// The process's table of security-scoped URLs: which URLs carry a token, and how many times each
/// was started.
///
/// A URL is security-scoped when the item provider handed it out in place (or the host registered
/// it). Files inside a scoped directory share the directory's scope. Scopes are counted per URL:
/// `start` adds one when the broker grants it, `stop` removes one, and access ends at zero. The
/// table is process-wide; ``reset()`` forgets it (the end of a request).
public enum SecurityScope {
    private struct Entry: Sendable {
        var url: URL
        var token: String
        var starts = 0
    }

    private static let table = Locked<[String: Entry]>([:])

    private static func key(_ url: URL) -> String { url.standardizedFileURL.path }

    /// Marks `url` as security-scoped with `token`. Registering it again replaces the token and
    /// keeps the count.
    public static func register(_ url: URL, token: String) {
        table.withLock { table in
            let key = key(url)
            if var entry = table[key] {
                entry.token = token
                table[key] = entry
            } else {
                table[key] = Entry(url: url, token: token)
            }
        }
    }

    /// The token of the scope that covers `url` (its own, or its nearest scoped ancestor's).
    public static func token(for url: URL) -> String? {
        table.withLock { table in covering(url, in: table).map { table[$0]?.token } ?? nil }
    }

    /// Whether a scope covers `url`.
    public static func isScoped(_ url: URL) -> Bool { token(for: url) != nil }

    /// How many unbalanced starts the scope covering `url` has (0 when none or not scoped).
    public static func accessCount(for url: URL) -> Int {
        table.withLock { table in covering(url, in: table).map { table[$0]?.starts ?? 0 } ?? 0 }
    }

    /// The scopes still started: leaks when a request ends.
    public static func leaks() -> [SecurityScopeLeak] {
        table.withLock { table in
            table.values.filter { $0.starts > 0 }
                .map { SecurityScopeLeak(url: $0.url, token: $0.token, outstandingStarts: $0.starts) }
                .sorted { $0.url.path < $1.url.path }
        }
    }

    /// Forgets every scoped URL and count.
    public static func reset() {
        table.withLock { $0.removeAll() }
    }

    /// `startAccessingSecurityScopedResource()` of `url`: true, counted, when it carries a token
    /// the broker grants.
    public static func start(_ url: URL) -> Bool {
        // Only the URL that carries the token can be started (as on iOS, where a child URL of a
        // scoped directory is reached through the directory's scope).
        guard let token = table.withLock({ $0[key(url)]?.token }) else { return false }
        guard ItemProviderConfiguration.securityScopeBroker.startAccessing(token: token, url: url) else {
            return false
        }
        table.withLock { table in table[key(url)]?.starts += 1 }
        return true
    }

    /// `stopAccessingSecurityScopedResource()` of `url`: balances one successful ``start(_:)``.
    public static func stop(_ url: URL) {
        let token: String? = table.withLock { table in
            let key = key(url)
            guard let entry = table[key], entry.starts > 0 else { return nil }
            table[key]?.starts -= 1
            return entry.token
        }
        if let token { ItemProviderConfiguration.securityScopeBroker.stopAccessing(token: token, url: url) }
    }

    /// Throws when `url` is covered by a scope that is not started and the mode is strict.
    public static func checkAccess(to url: URL, writing: Bool) throws(ItemProviderError) {
        let state: (key: String, starts: Int)? = table.withLock { table in
            guard let key = covering(url, in: table) else { return nil }
            return (key, table[key]?.starts ?? 0)
        }
        guard let state, state.starts == 0, ItemProviderConfiguration.securityScopeMode == .strict else { return }
        let name = url.lastPathComponent
        let missing =
            "missing: an active security scope for \(state.key) "
            + "(call startAccessingSecurityScopedResource() on the URL the item provider returned, "
            + "and stopAccessingSecurityScopedResource() when done)"
        if writing {
            throw ItemProviderError(
                .fileWriteNoPermission,
                "You don’t have permission to save the file “\(name)”; \(missing)")
        }
        throw ItemProviderError(
            .fileReadNoPermission,
            "The file “\(name)” couldn’t be opened because you don’t have permission to view it; \(missing)")
    }

    private static func covering(_ url: URL, in table: [String: Entry]) -> String? {
        var path = key(url)
        while true {
            if table[path] != nil { return path }
            guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
            path = slash == path.startIndex ? "/" : String(path[..<slash])
        }
    }
}

extension URL {
    /// Starts access to a security-scoped URL: true, counted, when the URL carries a token and the
    /// broker grants it; false for a URL that is not security-scoped (as on iOS). Balance every
    /// true with ``stopAccessingSecurityScopedResource()``.
    public func startAccessingSecurityScopedResource() -> Bool {
        SecurityScope.start(self)
    }

    /// Balances one successful ``startAccessingSecurityScopedResource()``; does nothing otherwise.
    public func stopAccessingSecurityScopedResource() {
        SecurityScope.stop(self)
    }
}

/// File access that honours security scopes: the API-level enforcement of the sandbox rule that a
/// security-scoped file is reachable only while its scope is started.
///
/// In ``SecurityScopeMode/strict`` mode each call fails with an ``ItemProviderError`` (code
/// ``ItemProviderError/Code/fileReadNoPermission`` or ``ItemProviderError/Code/fileWriteNoPermission``)
/// naming the missing scope; files no scope covers are accessed normally.
public enum SecurityScopedAccess {
    /// Reads the whole file.
    public static func read(contentsOf url: URL) throws -> Data {
        try SecurityScope.checkAccess(to: url, writing: false)
        return try Data(contentsOf: url)
    }

    /// Writes `data` to the file atomically.
    public static func write(_ data: Data, to url: URL) throws {
        try SecurityScope.checkAccess(to: url, writing: true)
        try data.write(to: url, options: .atomic)
    }

    /// Opens the file; writing options (`.writeOnly`, `.readWrite`, `.create`, `.truncate`,
    /// `.append`) need write access.
    public static func open(_ url: URL, _ options: FileDescriptor.OpenOptions = .readOnly) throws -> FileDescriptor {
        let writing = !options.isDisjoint(with: [.writeOnly, .readWrite, .create, .truncate, .append])
        try SecurityScope.checkAccess(to: url, writing: writing)
        return try FileDescriptor.open(url.path, options)
    }
}
