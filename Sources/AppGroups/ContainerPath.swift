/// A validated path relative to a container: no leading `/`, no `..` or `.` component, no empty
/// component, no NUL, at most 4096 bytes.
///
/// - Important: Validation is the first of two fences. Every access also resolves the path from
///   the container's directory descriptor with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`,
///   so a symbolic link planted inside the container cannot lead out either.
public struct ContainerPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The components, each non-empty and neither `.` nor `..`.
    public let components: [String]

    /// Validates `text`.
    /// - Throws: ``AppGroupError`` `.invalidPath` naming the problem.
    public init(_ text: String) throws {
        func refuse(_ why: String) -> AppGroupError {
            AppGroupError(.invalidPath, "'\(text)' is not a container path: \(why)")
        }
        guard !text.isEmpty else { throw refuse("it is empty") }
        guard !text.hasPrefix("/") else { throw refuse("absolute paths are refused") }
        guard !text.utf8.contains(0) else { throw refuse("it contains a NUL byte") }
        guard text.utf8.count <= 4096 else { throw refuse("it is longer than 4096 bytes") }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if part.isEmpty { throw refuse("it has an empty component (a trailing or doubled '/')") }
            if part == ".." { throw refuse("'..' components are refused") }
            if part == "." { throw refuse("'.' components are refused") }
            if part.utf8.count > 255 { throw refuse("a component is longer than 255 bytes") }
        }
        components = parts
    }

    init(components: [String]) { self.components = components }

    /// `.exthost/staging.lock`: held shared while a temporary file is created and locked, and
    /// exclusively while recovery or verify judges temporaries, so none is judged mid-creation.
    static var stagingLock: ContainerPath { ContainerPath(components: [".exthost", "staging.lock"]) }

    /// The path with `/` separators.
    public var description: String { components.joined(separator: "/") }

    /// The last component.
    public var lastComponent: String { components.last ?? "" }

    /// The path without its last component, or nil for a single-component path.
    public var parent: ContainerPath? {
        components.count > 1 ? ContainerPath(components: Array(components.dropLast())) : nil
    }

    /// This path with `name` appended.
    /// - Throws: ``AppGroupError`` `.invalidPath` when `name` is not one valid component.
    public func appending(_ name: String) throws -> ContainerPath {
        let single = try ContainerPath(name)
        guard single.components.count == 1 else {
            throw AppGroupError(.invalidPath, "'\(name)' is not a single path component")
        }
        return ContainerPath(components: components + single.components)
    }

    /// This path followed by every component of `other`.
    public func appending(path other: ContainerPath) -> ContainerPath {
        ContainerPath(components: components + other.components)
    }

    /// Orders by the `/`-joined text.
    public static func < (lhs: ContainerPath, rhs: ContainerPath) -> Bool { lhs.description < rhs.description }
}
