/// An archive entry path checked to be safe to create under a destination directory.
///
/// Rules: not empty, not absolute, no `..` component. Empty and `.` components are dropped, so
/// `./a//b/` is `a/b`; a path with no components left (`./`) denotes the destination itself.
struct EntryPath: Hashable {
    /// The checked components, none of them empty, `.` or `..`.
    let components: [String]

    /// Why a path or link target was refused.
    enum Problem: Error {
        case empty, absolute, parentComponent
        case linkAbsolute, linkEmpty, linkEscapes(depth: Int, ups: Int), linkParentAfterName

        var reason: String {
            switch self {
            case .empty: "the path is empty"
            case .absolute: "the path is absolute"
            case .parentComponent: "the path contains a '..' component"
            case .linkAbsolute: "the link target is absolute"
            case .linkEmpty: "the link target is empty"
            case .linkEscapes(let depth, let ups):
                "the link target climbs \(ups) level(s) from a directory \(depth) level(s) deep, leaving the destination"
            case .linkParentAfterName:
                "the link target has '..' after a name, which other links could turn into an escape"
            }
        }
    }

    /// Checks `raw`.
    init(validating raw: String) throws(Problem) {
        if raw.isEmpty { throw .empty }
        if raw.hasPrefix("/") { throw .absolute }
        var parts: [String] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." { throw .parentComponent }
            parts.append(String(part))
        }
        components = parts
    }

    /// Components already known to be safe (built by the extraction walk itself).
    init(trusted components: [String]) {
        self.components = components
    }

    /// The destination itself (`.` or `./`).
    var isRoot: Bool { components.isEmpty }
    /// The last component.
    var name: String { components.last ?? "." }
    /// The components of the parent directory.
    var parent: ArraySlice<String> { components.dropLast() }
    /// The path joined with `/`.
    var joined: String { components.joined(separator: "/") }

    /// Checks that a symbolic link created at this path with `target` stays inside the destination.
    ///
    /// The target must be relative and have all its `..` components first (`../../a/b`), no
    /// more of them than the link's directory is deep. With every link held to this rule and
    /// every directory on the way created for real (never through a link), following any chain
    /// of links stays inside the destination: leading `..` climbs real directories, and the
    /// names after them either descend or are links that obey the same rule.
    func checkSymbolicLinkTarget(_ target: String) throws(Problem) {
        if target.isEmpty { throw .linkEmpty }
        if target.hasPrefix("/") { throw .linkAbsolute }
        var ups = 0
        var sawName = false
        for part in target.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." {
                if sawName { throw .linkParentAfterName }
                ups += 1
            } else {
                sawName = true
            }
        }
        let depth = components.count - 1
        if ups > depth { throw .linkEscapes(depth: depth, ups: ups) }
    }
}
