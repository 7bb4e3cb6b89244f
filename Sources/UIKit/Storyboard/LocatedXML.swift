import LocatedDocuments

/// A small XML reader that keeps where everything is written: each element's line and column, so a
/// storyboard's mistakes are reported at their place (`file:line:column`). It reads the XML that
/// Interface Builder writes — the declaration, comments, a DOCTYPE, elements with single- or
/// double-quoted attributes, character data, CDATA sections, the five named entities and numeric
/// character references — and refuses anything else with the line and column of the first byte
/// that is wrong. It never traps on input: nesting is capped at ``maximumDepth``.
///
/// A storyboard is XML but not a property list (elements with attributes and children, not plist
/// values), so it is read here rather than by the located-document reader
/// (``LocatedDocuments/LocatedValue``), which reads property lists and JSON into values.
struct LocatedXML {
    /// One element: its name, attributes, children and text, and where its start tag begins.
    final class Element {
        /// The element's name (`viewController`).
        let name: String
        /// Its attributes by name.
        let attributes: [String: String]
        /// Its child elements, in document order.
        var children: [Element] = []
        /// Its character data (entity references decoded), children's text excluded.
        var text = ""
        /// The 1-based line of its `<`.
        let line: Int
        /// The 1-based column (in Unicode scalars) of its `<`.
        let column: Int

        init(name: String, attributes: [String: String], line: Int, column: Int) {
            self.name = name
            self.attributes = attributes
            self.line = line
            self.column = column
        }

        /// The value of attribute `name`.
        subscript(_ name: String) -> String? { attributes[name] }

        /// The children named `name`.
        func children(named name: String) -> [Element] { children.filter { $0.name == name } }

        /// The first child named `name` whose `key` attribute is `key` (Interface Builder's way of
        /// saying which property an element sets), or the first named `name` when `key` is nil.
        func child(_ name: String, key: String? = nil) -> Element? {
            children.first { $0.name == name && (key == nil || $0["key"] == key) }
        }
    }

    /// Input that is not well-formed XML, and where.
    struct SyntaxError: Error, Equatable {
        /// What is wrong.
        var message: String
        /// The 1-based line.
        var line: Int
        /// The 1-based column.
        var column: Int
    }

    /// The deepest nesting read (storyboards nest a few dozen levels).
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var offset = 0
    private var lineStarts: [Int] = [0]

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
    }

    /// The root element of the document in `bytes`.
    /// - Throws: ``SyntaxError`` at the first place the input is not well-formed XML.
    static func parse(_ bytes: [UInt8]) throws -> Element {
        var reader = LocatedXML(bytes)
        return try reader.document()
    }

    // MARK: - Locations

    /// The line and column of byte `offset`.
    func location(_ offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        let end = min(max(offset, start), bytes.count)
        let column = String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars.count + 1
        return (low + 1, column)
    }

    private func error(_ message: String, at position: Int? = nil) -> SyntaxError {
        let (line, column) = location(position ?? offset)
        return SyntaxError(message: message, line: line, column: column)
    }

    // MARK: - Reading

    private var atEnd: Bool { offset >= bytes.count }
    private var current: UInt8? { atEnd ? nil : bytes[offset] }

    private func starts(with text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return offset + utf8.count <= bytes.count && Array(bytes[offset..<offset + utf8.count]) == utf8
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...0xFF:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default: return false
        }
    }

    private mutating func skipSpace() {
        while let byte = current, Self.isSpace(byte) { offset += 1 }
    }

    /// Skips past `terminator`, or throws `message` at `start` when the input ends first.
    private mutating func skip(past terminator: String, unterminated message: String, start: Int) throws {
        while !atEnd {
            if starts(with: terminator) {
                offset += terminator.utf8.count
                return
            }
            offset += 1
        }
        throw error(message, at: start)
    }

    /// Comments, processing instructions, a DOCTYPE and white space, in any order.
    private mutating func skipMisc(allowDoctype: Bool) throws {
        while true {
            skipSpace()
            let start = offset
            if starts(with: "<!--") {
                try skip(past: "-->", unterminated: "comment is not closed ('-->')", start: start)
            } else if starts(with: "<?") {
                try skip(past: "?>", unterminated: "processing instruction is not closed ('?>')", start: start)
            } else if allowDoctype, starts(with: "<!DOCTYPE") {
                try skipDoctype(start: start)
            } else {
                return
            }
        }
    }

    private mutating func skipDoctype(start: Int) throws {
        var depth = 0
        while let byte = current {
            offset += 1
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ">"), depth <= 0 { return }
        }
        throw error("DOCTYPE is not closed ('>')", at: start)
    }

    private mutating func document() throws -> Element {
        if starts(with: "\u{FEFF}") { offset += 3 }
        try skipMisc(allowDoctype: true)
        guard current == UInt8(ascii: "<") else {
            throw error(
                atEnd ? "the file is empty: expected an XML document" : "not XML: expected '<' to start an element")
        }
        let root = try element()
        try skipMisc(allowDoctype: false)
        guard atEnd else { throw error("content after the root element <\(root.name)> ends") }
        return root
    }

    private mutating func name(_ what: String) throws -> String {
        let start = offset
        guard let first = current, Self.isNameByte(first, first: true) else {
            throw error("expected \(what)")
        }
        offset += 1
        while let byte = current, Self.isNameByte(byte, first: false) { offset += 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// An element and everything inside it, without recursion (the stack is explicit).
    private mutating func element() throws -> Element {
        var stack: [Element] = []
        var root: Element?
        repeat {
            let start = offset
            if starts(with: "</") {
                offset += 2
                let closing = try name("an element name after '</'")
                skipSpace()
                guard current == UInt8(ascii: ">") else { throw error("expected '>' to end </\(closing)>") }
                offset += 1
                guard let open = stack.popLast() else { throw error("</\(closing)> closes no element", at: start) }
                guard open.name == closing else {
                    throw error(
                        "</\(closing)> does not close <\(open.name)> (opened at \(open.line):\(open.column))", at: start
                    )
                }
                if stack.isEmpty { root = open }
            } else if starts(with: "<!--") {
                try skip(past: "-->", unterminated: "comment is not closed ('-->')", start: start)
            } else if starts(with: "<![CDATA[") {
                offset += 9
                let textStart = offset
                try skip(past: "]]>", unterminated: "CDATA section is not closed (']]>')", start: start)
                stack.last?.text += String(decoding: bytes[textStart..<offset - 3], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>", unterminated: "processing instruction is not closed ('?>')", start: start)
            } else if current == UInt8(ascii: "<") {
                offset += 1
                let (line, column) = location(start)
                let elementName = try name("an element name after '<'")
                let (attributes, selfClosing) = try attributeList(of: elementName)
                let element = Element(name: elementName, attributes: attributes, line: line, column: column)
                stack.last?.children.append(element)
                if selfClosing {
                    if stack.isEmpty { root = element }
                } else {
                    guard stack.count < Self.maximumDepth else {
                        throw error("elements nest deeper than \(Self.maximumDepth) levels", at: start)
                    }
                    stack.append(element)
                }
            } else if atEnd {
                let open = stack.last.map { "<\($0.name)> (opened at \($0.line):\($0.column))" } ?? "an element"
                throw error("the file ends inside \(open)")
            } else {
                let text = try characterData()
                stack.last?.text += text
            }
        } while root == nil
        guard let root else { throw error("expected an element") }
        return root
    }

    private mutating func attributeList(of element: String) throws -> ([String: String], Bool) {
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = current.map(Self.isSpace) ?? false
            skipSpace()
            if starts(with: "/>") {
                offset += 2
                return (attributes, true)
            }
            if current == UInt8(ascii: ">") {
                offset += 1
                return (attributes, false)
            }
            if atEnd { throw error("the file ends inside the start tag <\(element)>") }
            guard hadSpace else { throw error("expected white space, '>' or '/>' in <\(element)>") }
            let attributeStart = offset
            let attribute = try name("an attribute name, '>' or '/>' in <\(element)>")
            skipSpace()
            guard current == UInt8(ascii: "=") else { throw error("expected '=' after attribute '\(attribute)'") }
            offset += 1
            skipSpace()
            guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("expected a quoted value for attribute '\(attribute)'")
            }
            offset += 1
            let valueStart = offset
            while let byte = current, byte != quote {
                if byte == UInt8(ascii: "<") { throw error("'<' in the value of attribute '\(attribute)'") }
                offset += 1
            }
            guard !atEnd else { throw error("the value of attribute '\(attribute)' is not closed", at: valueStart - 1) }
            let value = try decodeEntities(valueStart..<offset)
            offset += 1
            guard attributes[attribute] == nil else {
                throw error("attribute '\(attribute)' is written twice in <\(element)>", at: attributeStart)
            }
            attributes[attribute] = value
        }
    }

    private mutating func characterData() throws -> String {
        let start = offset
        while let byte = current, byte != UInt8(ascii: "<") { offset += 1 }
        return try decodeEntities(start..<offset)
    }

    /// The text of `range` with entity and character references decoded.
    private func decodeEntities(_ range: Range<Int>) throws -> String {
        guard bytes[range].contains(UInt8(ascii: "&")) else { return String(decoding: bytes[range], as: UTF8.self) }
        var result: [UInt8] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                result.append(byte)
                index += 1
                continue
            }
            guard let end = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: ";")), end - index <= 12 else {
                throw error("'&' starts no entity reference (write '&amp;' for '&')", at: index)
            }
            let reference = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            if let scalar = XMLCharacterReference.scalar(named: reference) {
                result += Array(String(Character(scalar)).utf8)
            } else if reference.hasPrefix("#") {
                throw error("'&\(reference);' is not a character", at: index)
            } else {
                throw error("unknown entity '&\(reference);'", at: index)
            }
            index = end + 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
