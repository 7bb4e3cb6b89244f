import Foundation
import Testing

/// A temporary directory for one test, removed (modes and all) when the test is done.
final class Scratch {
    let url: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory
        url = base.appending(path: "archives-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit {
        Self.makeRemovable(url)
        try? FileManager.default.removeItem(at: url)
    }

    /// Restores owner rwx on every directory so removal cannot fail on a read-only one.
    private static func makeRemovable(_ url: URL) {
        let manager = FileManager.default
        try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        guard let subpaths = try? manager.subpathsOfDirectory(atPath: url.path) else { return }
        for subpath in subpaths {
            let path = url.appending(path: subpath).path
            let type = (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            if type == .typeDirectory {
                try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
        }
    }

    /// `url/relative`.
    func path(_ relative: String) -> URL { url.appending(path: relative) }

    /// Writes `bytes` at `relative` (creating parents) with `permissions` and modification time.
    @discardableResult
    func write(
        _ bytes: some Collection<UInt8>, at relative: String, permissions: Int = 0o644,
        modified: Int = 1_600_000_000
    ) throws -> URL {
        let file = path(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        try FileManager.default.setAttributes(
            [.posixPermissions: permissions, .modificationDate: Date(timeIntervalSince1970: Double(modified))],
            ofItemAtPath: file.path)
        return file
    }

    /// Creates the directory `relative` (with parents).
    @discardableResult
    func makeDirectory(_ relative: String) throws -> URL {
        let directory = path(relative)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Sets mode and time of an existing directory (after its contents exist).
    func setDirectory(_ relative: String, permissions: Int, modified: Int) throws {
        try FileManager.default.setAttributes(
            [.posixPermissions: permissions, .modificationDate: Date(timeIntervalSince1970: Double(modified))],
            ofItemAtPath: path(relative).path)
    }

    /// Creates a symbolic link at `relative` pointing to `target`.
    func symlink(_ relative: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path(relative).path, withDestinationPath: target)
    }

    /// The sorted names directly in `relative` ("" for the scratch directory itself).
    func names(in relative: String = "") throws -> [String] {
        let directory = relative.isEmpty ? url : path(relative)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
}

/// What a test compares between a source tree and its extraction.
struct Node: Equatable, CustomStringConvertible {
    var kind: String
    var permissions: Int?
    var modified: Int?
    var contents: Data?
    var target: String?

    var description: String {
        "\(kind) mode \(permissions.map { String($0, radix: 8) } ?? "-") mtime \(modified ?? -1) "
            + "\(contents.map { "\($0.count) bytes" } ?? "") \(target.map { "-> \($0)" } ?? "")"
    }
}

/// Every item below `root` (not following links), by relative path.
func snapshot(_ root: URL) throws -> [String: Node] {
    let manager = FileManager.default
    var result: [String: Node] = [:]
    for subpath in try manager.subpathsOfDirectory(atPath: root.path) {
        let path = root.appending(path: subpath).path
        let attributes = try manager.attributesOfItem(atPath: path)
        let type = attributes[.type] as? FileAttributeType
        let modified = (attributes[.modificationDate] as? Date).map { Int($0.timeIntervalSince1970) }
        let permissions = attributes[.posixPermissions] as? Int
        switch type {
        case .typeSymbolicLink:
            let target = try manager.destinationOfSymbolicLink(atPath: path)
            result[subpath] = Node(kind: "link", target: target)
        case .typeDirectory:
            result[subpath] = Node(kind: "dir", permissions: permissions, modified: modified)
        default:
            let contents = try Data(contentsOf: URL(filePath: path))
            result[subpath] = Node(kind: "file", permissions: permissions, modified: modified, contents: contents)
        }
    }
    return result
}

/// `count` bytes that deflate cannot shrink much (a xorshift stream, eight bytes per step).
///
/// Written a word at a time through a raw buffer: byte-by-byte array stores in a debug build took
/// seconds for 20 MiB, holding one of the test process's few cooperative threads (two on a
/// two-core machine) and starving every other test's process exchanges meanwhile.
func incompressibleBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    let words = (count + 7) / 8
    var stream = [UInt64](repeating: 0, count: words)
    stream.withUnsafeMutableBufferPointer { buffer in
        for index in 0..<words {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            buffer[index] = state
        }
    }
    return stream.withUnsafeBytes { Array($0.prefix(count)) }
}
