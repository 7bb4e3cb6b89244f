/// A validated path relative to a container: no leading `/`, no `..` or `.` component, no empty
/// component, no NUL, at most 4096 bytes.
///
/// - Important: Validation is the first of two fences. Every access also resolves the path from
///   the container's directory descriptor with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`,
///   so a symbolic link planted inside the container cannot lead out either.
public struct ContainerPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path with `/` separators, as validated (kept as text: a journal of 100 000 entries
    /// decodes one string per path, not an array of components).
    public let description: String

    /// The components, each non-empty and neither `.` nor `..`.
    public var components: [String] { description.split(separator: "/").map(String.init) }

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
        // One pass over the bytes, component by component, without splitting the text.
        var length = 0
        var dots = 0
        func check() throws {
            if length == 0 { throw refuse("it has an empty component (a trailing or doubled '/')") }
            if length == 2 && dots == 2 { throw refuse("'..' components are refused") }
            if length == 1 && dots == 1 { throw refuse("'.' components are refused") }
            if length > 255 { throw refuse("a component is longer than 255 bytes") }
        }
        for byte in text.utf8 {
            if byte == UInt8(ascii: "/") {
                try check()
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        try check()
        description = text
    }

    init(components: [String]) { description = components.joined(separator: "/") }

    /// A path whose text is known to be valid (made from valid paths).
    private init(verified text: String) { description = text }

    /// `.exthost/staging.lock`: held shared while a temporary file is created and locked, and
    /// exclusively while recovery or verify judges temporaries, so none is judged mid-creation.
    static var stagingLock: ContainerPath { ContainerPath(components: [".exthost", "staging.lock"]) }

    /// The last component.
    public var lastComponent: String {
        guard let slash = description.utf8.lastIndex(of: UInt8(ascii: "/")) else { return description }
        return String(description[description.utf8.index(after: slash)...])
    }

    /// The path without its last component, or nil for a single-component path.
    public var parent: ContainerPath? {
        guard let slash = description.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return ContainerPath(verified: String(description[..<slash]))
    }

    /// This path with `name` appended.
    /// - Throws: ``AppGroupError`` `.invalidPath` when `name` is not one valid component.
    public func appending(_ name: String) throws -> ContainerPath {
        let single = try ContainerPath(name)
        guard single.components.count == 1 else {
            throw AppGroupError(.invalidPath, "'\(name)' is not a single path component")
        }
        return ContainerPath(verified: description + "/" + single.description)
    }

    /// This path followed by every component of `other`.
    public func appending(path other: ContainerPath) -> ContainerPath {
        ContainerPath(verified: description + "/" + other.description)
    }

    /// Orders by the `/`-joined text.
    public static func < (lhs: ContainerPath, rhs: ContainerPath) -> Bool { lhs.description < rhs.description }
}
