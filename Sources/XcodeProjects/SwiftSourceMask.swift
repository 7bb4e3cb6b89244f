/// A Swift file's lines with everything that is not code (comments, string literals) blanked
/// out, so line-based rewrites never touch a comment or a string.
struct SwiftSourceMask {
    /// The original lines (without their newline).
    var lines: [String]
    /// The same lines, each character outside code replaced by a space (same scalar count).
    var code: [String]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        code = []
        enum State: Equatable {
            case code
            case blockComment(Int)
            case string(hashes: Int, multiline: Bool)
        }
        var state = State.code
        for line in lines {
            let scalars = Array(line.unicodeScalars)
            var out = String.UnicodeScalarView()
            var i = 0
            func peek(_ offset: Int) -> Unicode.Scalar? { i + offset < scalars.count ? scalars[i + offset] : nil }
            while i < scalars.count {
                let c = scalars[i]
                switch state {
                case .code:
                    if c == "/", peek(1) == "/" {
                        out.append(contentsOf: Array(repeating: " ", count: scalars.count - i))
                        i = scalars.count
                        continue
                    }
                    if c == "/", peek(1) == "*" {
                        state = .blockComment(1)
                        out.append(contentsOf: "  ".unicodeScalars)
                        i += 2
                        continue
                    }
                    // #"…"#, "…", """…"""
                    var hashes = 0
                    while peek(hashes) == "#" { hashes += 1 }
                    if peek(hashes) == "\"" {
                        let multiline = peek(hashes + 1) == "\"" && peek(hashes + 2) == "\""
                        let length = hashes + (multiline ? 3 : 1)
                        state = .string(hashes: hashes, multiline: multiline)
                        out.append(contentsOf: Array(repeating: " ", count: length))
                        i += length
                        continue
                    }
                    out.append(c)
                    i += 1
                case .blockComment(let depth):
                    if c == "*", peek(1) == "/" {
                        state = depth == 1 ? .code : .blockComment(depth - 1)
                        out.append(contentsOf: "  ".unicodeScalars)
                        i += 2
                    } else if c == "/", peek(1) == "*" {
                        state = .blockComment(depth + 1)
                        out.append(contentsOf: "  ".unicodeScalars)
                        i += 2
                    } else {
                        out.append(" ")
                        i += 1
                    }
                case .string(let hashes, let multiline):
                    if c == "\\", hashes == 0 {
                        out.append(contentsOf: "  ".unicodeScalars)
                        i += 2
                        continue
                    }
                    let closing = multiline ? 3 : 1
                    if c == "\"", (0..<closing).allSatisfy({ peek($0) == "\"" }),
                        (0..<hashes).allSatisfy({ peek(closing + $0) == "#" })
                    {
                        state = .code
                        out.append(contentsOf: Array(repeating: " ", count: closing + hashes))
                        i += closing + hashes
                        continue
                    }
                    out.append(" ")
                    i += 1
                }
            }
            // A single-line string does not continue on the next line.
            if case .string(_, false) = state { state = .code }
            code.append(String(String.UnicodeScalarView(out.prefix(scalars.count))))
        }
    }
}
