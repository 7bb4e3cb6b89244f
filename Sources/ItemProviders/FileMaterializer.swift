import Archives
import Foundation
import HostSystem
import UniformTypes

/// Turns what a load handler produced into bytes or into a file in a fresh directory.
enum FileMaterializer {
    /// A fresh, empty directory under ``ItemProviderConfiguration/temporaryDirectory``
    /// (`ItemProvider-<UUID>`, never reused): one `mkdirat` in the base directory, which is created
    /// only when it is missing (FileManager's intermediate-directory creation stats every path
    /// component, for every load).
    static func makeFreshDirectory() throws -> URL {
        let base = ItemProviderConfiguration.temporaryDirectory
        let name = "ItemProvider-\(UUID().uuidString)"
        if !FileManager.default.fileExists(atPath: base.path) {
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        }
        let parent = try FileDescriptor.open(base.path, [.readOnly, .directory])
        defer { try? parent.close() }
        try parent.makeDirectory(name, permissions: 0o700)
        return base.appendingPathComponent(name, isDirectory: true)
    }

    /// The bytes of a fetched representation: data as is, a file's contents, a directory as a zip
    /// archive (`public.zip-archive`, the folder as its top-level entry), a descriptor read whole.
    static func bytes(of fetched: Fetched) throws -> Data {
        switch fetched {
        case .data(let data):
            return data
        case .file(let url):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw ItemProviderError(
                    .itemUnavailable,
                    "The file “\(url.lastPathComponent)” couldn’t be opened because there is no such file.")
            }
            if isDirectory.boolValue {
                return try ArchiveWriter.zipDirectory(at: url, maximumSize: Int.max)
            }
            return try Data(contentsOf: url)
        case .descriptor(let representation):
            defer { if representation.closesDescriptor { try? representation.descriptor.close() } }
            _ = try? representation.descriptor.seek(offset: 0)
            return Data(try representation.descriptor.readAll())
        }
    }

    /// Writes a fetched representation into `directory` and returns the file's URL, named as a
    /// device names the temporary copy: a file or directory under its own name, extension and case
    /// kept (`IMG_1320.PNG`; a directory copied recursively), a descriptor under the name of the file
    /// it reads; data (and a descriptor of data) under `suggestedName` plus the type's preferred
    /// filename extension, `item` when there is no suggested name.
    static func materialize(
        _ fetched: Fetched, typeIdentifier: String, suggestedName: String?, registry: TypeRegistry,
        into directory: URL
    ) throws -> URL {
        switch fetched {
        case .data(let data):
            let url = directory.appendingPathComponent(
                fileName(suggestedName, typeIdentifier: typeIdentifier, registry: registry))
            try data.write(to: url)
            return url
        case .file(let source):
            let resolved = source.resolvingSymlinksInPath()
            let target = directory.appendingPathComponent(sanitized(resolved.lastPathComponent) ?? "item")
            try copyItem(at: resolved, to: target)
            return target
        case .descriptor(let representation):
            defer { if representation.closesDescriptor { try? representation.descriptor.close() } }
            let name =
                sanitized(representation.fileName)
                ?? fileName(
                    representation.suggestedName ?? suggestedName, typeIdentifier: typeIdentifier, registry: registry)
            let target = directory.appendingPathComponent(name)
            _ = try? representation.descriptor.seek(offset: 0)
            let output = try FileDescriptor.open(
                target.path, [.readWrite, .create, .exclusiveCreate], permissions: 0o600)
            try output.closeAfter {
                if let copier = ItemProviderConfiguration.descriptorCopier {
                    try copier(representation.descriptor, output)
                } else {
                    try output.copyContents(from: representation.descriptor)
                }
            }
            return target
        }
    }

    /// `suggestedName` made safe as one path component, with the type's preferred filename extension
    /// added unless the name already ends in one of the type's extensions.
    static func fileName(_ suggestedName: String?, typeIdentifier: String, registry: TypeRegistry) -> String {
        let base = sanitized(suggestedName) ?? "item"
        let type = UniformTypeIdentifier(typeIdentifier)
        guard let preferred = registry.preferredFilenameExtension(for: type) else { return base }
        let existing = (base as NSString).pathExtension.lowercased()
        if !existing.isEmpty,
            registry.preferredType(forFileNamed: base, conformingTo: nil) == type
                || existing == preferred.lowercased()
        {
            return base
        }
        return "\(base).\(preferred)"
    }

    private static func sanitized(_ name: String?) -> String? {
        guard let name else { return nil }
        let cleaned = name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\u{0}", with: "")
        if cleaned.isEmpty || cleaned == "." || cleaned == ".." { return nil }
        return cleaned
    }

    /// Copies a file (clone or `copy_file_range`, in bounded memory), a symbolic link (as a link)
    /// or a directory (recursively) to `target`, which must not exist.
    static func copyItem(at source: URL, to target: URL) throws {
        let manager = FileManager.default
        let status = try FileDescriptor.status(ofPath: source.path, followingLinks: false)
        let permissions = status.permissions
        switch status.kind {
        case .directory:
            try manager.createDirectory(at: target, withIntermediateDirectories: false)
            for name in try manager.contentsOfDirectory(atPath: source.path).sorted() {
                try copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
            }
        case .symbolicLink:
            let destination = try manager.destinationOfSymbolicLink(atPath: source.path)
            try manager.createSymbolicLink(atPath: target.path, withDestinationPath: destination)
        default:
            let input = try FileDescriptor.open(source.path, .readOnly)
            try input.closeAfter {
                let output = try FileDescriptor.open(
                    target.path, [.writeOnly, .create, .exclusiveCreate], permissions: permissions & 0o777)
                _ = try output.closeAfter { () throws(Errno) in
                    try output.copyContents(from: input)
                }
            }
        }
    }

    /// Removes a directory the loads made (never following a symbolic link inside it); failures
    /// are ignored (the temporary directory is the system's to clean).
    static func remove(_ directory: URL) {
        guard let base = try? FileDescriptor.open(directory.deletingLastPathComponent().path, [.readOnly, .directory])
        else { return }
        defer { try? base.close() }
        try? base.removeTree(directory.lastPathComponent)
    }
}
