extension Evaluator {
    /// `CONTAINS` (on a string), `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`, honouring `[c]`/`[d]`.
    ///
    /// Either side nil gives false; a non-string is a type mismatch.
    func stringOperation(_ comparison: CompiledComparison, _ left: PlistValue, _ right: PlistValue, range: SourceRange)
        throws(PredicateEvaluationError) -> Bool
    {
        if left.isNull || right.isNull { return false }
        guard case .string(let subject) = left, case .string(let pattern) = right else {
            let bad = left.stringValue == nil ? left : right
            throw PredicateEvaluationError(
                .typeMismatch,
                "\(comparison.op.rawValue) needs strings, got a \(bad.typeName) (\(Evaluator.short(bad)))",
                range: range)
        }
        let options = comparison.options
        switch comparison.op {
        case .matches:
            let text =
                options.contains(.diacriticInsensitive) ? StringFolding.fold(subject, [.diacriticInsensitive]) : subject
            if let compiled = comparison.regex {
                return try StringFolding.wholeMatch(compiled, text)
            }
            return try StringFolding.wholeMatch(
                StringFolding.regex(pattern, options: options, range: comparison.right.source.range), text)
        default:
            break
        }
        let folded = StringFolding.fold(subject, options)
        let needle = comparison.foldedRight ?? StringFolding.fold(pattern, options)
        switch comparison.op {
        case .contains: return !needle.isEmpty && folded.contains(needle)
        case .beginsWith: return !needle.isEmpty && folded.hasPrefix(needle)
        case .endsWith: return !needle.isEmpty && folded.hasSuffix(needle)
        case .like: return Evaluator.like(Array(folded), Array(needle))
        default: return false
        }
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one, `\` escapes the next; whole string.
    ///
    /// Linear-time greedy matching with one backtrack point, so hostile patterns stay cheap.
    static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        // Pre-scan the pattern into tokens so escapes are handled once.
        enum Piece: Equatable { case star, one, literal(Character) }
        var pieces: [Piece] = []
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            if character == "\\", index + 1 < pattern.count {
                pieces.append(.literal(pattern[index + 1]))
                index += 2
                continue
            }
            pieces.append(character == "*" ? .star : character == "?" ? .one : .literal(character))
            index += 1
        }
        var t = 0
        var p = 0
        var starPiece = -1
        var starText = 0
        while t < text.count {
            if p < pieces.count, pieces[p] == .one || pieces[p] == .literal(text[t]) {
                t += 1
                p += 1
            } else if p < pieces.count, pieces[p] == .star {
                starPiece = p
                starText = t
                p += 1
            } else if starPiece >= 0 {
                p = starPiece + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < pieces.count, pieces[p] == .star { p += 1 }
        return p == pieces.count
    }
}
