import Foundation

/// The shared libraries a program loads from beside itself: the `DT_NEEDED` entries of a 64-bit
/// little-endian ELF file found in the directories its `DT_RUNPATH`/`DT_RPATH` name relative to
/// `$ORIGIN` (where SwiftPM puts the dynamic library products of a package). Libraries from the
/// system and the Swift toolchain are not listed: a sandbox grants those directories anyway.
///
/// A sandboxed program is granted these files one by one, never its directory.
public enum ELFLibraries {
    /// What a confined program needs to read besides itself, from one walk of its dynamic sections.
    public struct Dependencies: Sendable, Hashable {
        /// The libraries it loads from `$ORIGIN`-relative directories (and, recursively, those
        /// libraries' own), as absolute paths.
        public var originRelative: [String] = []
        /// The absolute `DT_RUNPATH`/`DT_RPATH` directories of the program and those libraries that
        /// hold the Swift runtime (`libswiftCore.so`): where a dynamically linked Swift program built
        /// by a toolchain finds it. A host linked statically (`--static-swift-stdlib`) has no runtime
        /// of its own loaded to point at, so a confined program's runtime is found from the program.
        public var swiftRuntimeDirectories: [String] = []
    }

    /// `program`'s ``Dependencies``; empty when the file is not an ELF it can read.
    public static func dependencies(of program: String) -> Dependencies {
        var found = Dependencies()
        var queue = [program]
        var seen = Set<String>()
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, let dynamic = read(next) else { continue }
            for path in dynamic.searchPaths where path.hasPrefix("/") && !found.swiftRuntimeDirectories.contains(path) {
                if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("libswiftCore.so"))
                {
                    found.swiftRuntimeDirectories.append(path)
                }
            }
            let origin = (next as NSString).deletingLastPathComponent
            let directories = dynamic.searchPaths.filter { $0.contains("$ORIGIN") || $0.contains("${ORIGIN}") }
                .map {
                    $0.replacingOccurrences(of: "${ORIGIN}", with: origin).replacingOccurrences(
                        of: "$ORIGIN", with: origin)
                }
            for name in dynamic.needed where !name.contains("/") {
                for directory in directories {
                    let candidate = ((directory as NSString).appendingPathComponent(name) as NSString).standardizingPath
                    if FileManager.default.fileExists(atPath: candidate) {
                        if !found.originRelative.contains(candidate) { found.originRelative.append(candidate) }
                        queue.append(candidate)
                        break
                    }
                }
            }
        }
        return found
    }

    /// The libraries `program` loads from `$ORIGIN`-relative directories (see ``Dependencies``).
    public static func originRelative(of program: String) -> [String] { dependencies(of: program).originRelative }

    /// Where `program` finds the Swift runtime (see ``Dependencies``).
    public static func swiftRuntimeDirectories(of program: String) -> [String] {
        dependencies(of: program).swiftRuntimeDirectories
    }

    struct Dynamic {
        var needed: [String] = []
        var searchPaths: [String] = []
    }

    /// The dynamic section's needed libraries and search paths.
    static func read(_ path: String) -> Dynamic? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), header.count == 64,
            header.starts(with: [0x7F, 0x45, 0x4C, 0x46]), header[4] == 2, header[5] == 1
        else { return nil }
        func integer(_ data: Data, _ offset: Int, _ size: Int) -> UInt64 {
            guard offset >= 0, offset + size <= data.count else { return 0 }
            var value: UInt64 = 0
            for index in (0..<size).reversed() { value = value << 8 | UInt64(data[data.startIndex + offset + index]) }
            return value
        }
        func bytes(_ offset: UInt64, _ count: UInt64) -> Data? {
            guard count < 64 << 20, (try? handle.seek(toOffset: offset)) != nil else { return nil }
            return try? handle.read(upToCount: Int(count))
        }
        let sectionOffset = integer(header, 0x28, 8)
        let sectionSize = integer(header, 0x3A, 2)
        let sectionCount = integer(header, 0x3C, 2)
        guard sectionSize >= 64, sectionCount > 0, sectionCount < 4096,
            let sections = bytes(sectionOffset, sectionSize * sectionCount)
        else { return nil }
        // SHT_DYNAMIC (6) names its string table by index in sh_link.
        for index in 0..<Int(sectionCount) {
            let base = index * Int(sectionSize)
            guard integer(sections, base + 4, 4) == 6 else { continue }
            let dynamicOffset = integer(sections, base + 0x18, 8)
            let dynamicSize = integer(sections, base + 0x20, 8)
            let link = Int(integer(sections, base + 0x28, 4))
            guard link < Int(sectionCount) else { return nil }
            let stringsBase = link * Int(sectionSize)
            // Only the strings the entries name are read: a program linked with `-export-dynamic`
            // (every Swift executable built statically) has a string table of tens of megabytes.
            let stringsOffset = integer(sections, stringsBase + 0x18, 8)
            let stringsSize = integer(sections, stringsBase + 0x20, 8)
            guard let entries = bytes(dynamicOffset, dynamicSize) else { return nil }
            func string(_ offset: UInt64) -> String {
                guard offset < stringsSize,
                    let chunk = bytes(stringsOffset + offset, min(4096, stringsSize - offset))
                else { return "" }
                let end = chunk.firstIndex(of: 0) ?? chunk.endIndex
                return String(decoding: chunk[chunk.startIndex..<end], as: UTF8.self)
            }
            var dynamic = Dynamic()
            var entry = 0
            while entry + 16 <= entries.count {
                let tag = integer(entries, entry, 8)
                let value = integer(entries, entry + 8, 8)
                switch tag {
                case 0: return dynamic  // DT_NULL
                case 1: dynamic.needed.append(string(value))  // DT_NEEDED
                case 15, 29:  // DT_RPATH, DT_RUNPATH
                    dynamic.searchPaths += string(value).split(separator: ":").map(String.init)
                default: break
                }
                entry += 16
            }
            return dynamic
        }
        return Dynamic()
    }
}
