import LocatedDocuments

/// A light scan of an XML property list for what `PropertyListSerialization` does not report:
/// where each key is written, keys written twice in one dictionary, and where each `<string>`
/// value's text sits in the file (so a predicate error points at the file's line and column).
///
/// The scan never fails: it reads tags well enough for well-formed plists and stops quietly on
/// anything else (the real parse decides whether the file is valid). Binary plists are not
/// scanned: they are written from an in-memory dictionary, so a duplicate key cannot normally be
/// stored in one, and they have no lines to point at.
///
/// Not the located-document reader (``LocatedDocuments/LocatedValue/read(_:as:)``), on purpose: a
/// rule file is parsed by Foundation's `PropertyListSerialization`, so it is accepted or refused as
/// the system's own parser does, and this scan only adds what that parse cannot say — the line and
/// column of every decoded byte of a `<string>` (a predicate's syntax error points at its column in
/// the file; a located value knows only where the string starts) and keys written twice, which the
/// rule loader reports as a warning.
struct XMLPlistScan: Sendable {
    /// A key written twice in the same dictionary.
    struct Duplicate: Sendable, Hashable {
        /// The repeated key.
        var key: String
        /// The keys leading to the dictionary that holds it.
        var path: [String]
        /// Where the first one is written (1-based).
        var firstLine: Int
        /// Where the later one (the one that is used) is written.
        var line: Int
        /// Its column.
        var column: Int
    }

    /// Where a `<string>` value's text is: its decoded text and, for each decoded UTF-8 byte, the
    /// line and column of the byte in the file that produced it.
    struct StringLocation: Sendable {
        /// The text after entity decoding.
        var text: String
        /// Line and column in the file of each UTF-8 byte of ``text``, plus one past the end.
        var positions: [(line: Int, column: Int)]
    }

    /// Keys written twice, in file order.
    private(set) var duplicates: [Duplicate] = []
    /// The line and column of each key, by the path of keys leading to it (the last wins).
    private(set) var keyLocations: [[String]: (line: Int, column: Int)] = [:]
    /// The `<string>` values that are the value of a key, by the path of keys leading to them.
    private(set) var strings: [[String]: StringLocation] = [:]
    /// The line and column of the root element's value when it is a `<string>`.
    private(set) var rootString: StringLocation?

    private let bytes: [UInt8]
    private var lineStarts: [Int] = [0]

    /// Scans `bytes`, which should hold an XML plist.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lineStarts.append(offset + 1)
        }
        scan()
    }

    /// The location of the key at `path`, if the scan saw it.
    func location(ofKey path: [String]) -> (line: Int, column: Int)? { keyLocations[path] }

    // MARK: - Scanning

    private enum Container {
        case dictionary(path: [String], pendingKey: String?, seen: [String: Int])
        case array(path: [String])
    }

    private mutating func scan() {
        var stack: [Container] = []
        var index = 0
        var sawRoot = false
        while let open = find(UInt8(ascii: "<"), from: index) {
            if starts(with: "<!--", at: open) {
                index = (findSequence("-->", from: open + 4) ?? bytes.count) + 3
                continue
            }
            if starts(with: "<?", at: open) || starts(with: "<!", at: open) {
                index = (find(UInt8(ascii: ">"), from: open) ?? bytes.count) + 1
                continue
            }
            guard let close = find(UInt8(ascii: ">"), from: open) else { return }
            let tag = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
            index = close + 1
            let selfClosing = tag.hasSuffix("/")
            let name =
                tag.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "\t" || $0 == "\n" }).first
                .map(String.init) ?? ""
            if tag.hasPrefix("/") {
                if name == "dict" || name == "array", !stack.isEmpty { stack.removeLast() }
                continue
            }
            if name == "plist" { continue }
            if name == "key" {
                let (text, end) = readText(from: index, until: "</key>")
                index = end
                guard case .dictionary(let path, _, var seen)? = stack.last else { continue }
                let here = position(of: open)
                if let first = seen[text.text] {
                    duplicates.append(
                        Duplicate(key: text.text, path: path, firstLine: first, line: here.line, column: here.column))
                }
                seen[text.text] = here.line
                keyLocations[path + [text.text]] = here
                stack[stack.count - 1] = .dictionary(path: path, pendingKey: text.text, seen: seen)
                continue
            }
            // A value: find its path and consume the pending key.
            var valuePath: [String]?
            switch stack.last {
            case .dictionary(let path, let pending, let seen)?:
                if let pending { valuePath = path + [pending] }
                stack[stack.count - 1] = .dictionary(path: path, pendingKey: nil, seen: seen)
            case .array(let path)?:
                valuePath = path + ["[]"]
            case nil:
                valuePath = sawRoot ? nil : []
                sawRoot = true
            }
            switch name {
            case "dict" where !selfClosing:
                stack.append(.dictionary(path: valuePath ?? ["?"], pendingKey: nil, seen: [:]))
            case "array" where !selfClosing:
                stack.append(.array(path: valuePath ?? ["?"]))
            case "string":
                let location: StringLocation
                if selfClosing {
                    let here = position(of: close + 1)
                    location = StringLocation(text: "", positions: [here])
                } else {
                    let (text, end) = readText(from: index, until: "</string>")
                    index = end
                    location = text
                }
                if let valuePath {
                    if valuePath.isEmpty { rootString = location } else { strings[valuePath] = location }
                }
            default:
                if !selfClosing, let end = findSequence("</\(name)>", from: index) {
                    index = end + name.utf8.count + 3
                }
            }
        }
    }

    /// Decodes character data up to `terminator`, recording where each decoded byte came from.
    private func readText(from start: Int, until terminator: String) -> (StringLocation, Int) {
        let end = findSequence(terminator, from: start) ?? bytes.count
        var decoded: [UInt8] = []
        var positions: [(line: Int, column: Int)] = []
        var cursor = Cursor(position(of: start))
        var index = start
        func copy(_ range: Range<Int>) {
            for offset in range {
                decoded.append(bytes[offset])
                positions.append(cursor.here)
                cursor.advance(over: bytes[offset])
            }
        }
        while index < end {
            if starts(with: "<![CDATA[", at: index) {
                let dataEnd = min(findSequence("]]>", from: index + 9) ?? end, end)
                for offset in index..<(index + 9) { cursor.advance(over: bytes[offset]) }
                copy((index + 9)..<dataEnd)
                for offset in dataEnd..<min(dataEnd + 3, bytes.count) { cursor.advance(over: bytes[offset]) }
                index = dataEnd + 3
                continue
            }
            if bytes[index] == UInt8(ascii: "&"), let semicolon = find(UInt8(ascii: ";"), from: index),
                semicolon < end, let scalar = entity(bytes[(index + 1)..<semicolon])
            {
                let here = cursor.here
                for byte in String(Character(scalar)).utf8 {
                    decoded.append(byte)
                    positions.append(here)
                }
                for offset in index...semicolon { cursor.advance(over: bytes[offset]) }
                index = semicolon + 1
                continue
            }
            copy(index..<(index + 1))
            index += 1
        }
        positions.append(cursor.here)
        let text = String(decoding: decoded, as: UTF8.self)
        return (StringLocation(text: text, positions: positions), min(end + terminator.utf8.count, bytes.count))
    }

    /// A line and character column that moves forward one UTF-8 byte at a time.
    private struct Cursor {
        var here: (line: Int, column: Int)
        init(_ start: (line: Int, column: Int)) { here = start }
        mutating func advance(over byte: UInt8) {
            if byte == UInt8(ascii: "\n") {
                here = (here.line + 1, 1)
            } else if byte & 0xC0 != 0x80 {
                here.column += 1
            }
        }
    }

    private func entity(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        XMLCharacterReference.scalar(named: String(decoding: name, as: UTF8.self))
    }

    /// The 1-based line and character column of a byte offset.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        let column = String(decoding: bytes[start..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (low + 1, column)
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private func starts(with text: String, at index: Int) -> Bool {
        let pattern = Array(text.utf8)
        guard index + pattern.count <= bytes.count else { return false }
        return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    private func findSequence(_ text: String, from start: Int) -> Int? {
        guard let first = text.utf8.first else { return nil }
        var index = start
        while let candidate = find(first, from: index) {
            if starts(with: text, at: candidate) { return candidate }
            index = candidate + 1
        }
        return nil
    }
}
