/// "Did you mean": the nearest real word — a rule key, a type identifier, a command or an
/// option — to a misspelt one. The linter and the command line share it, so both suggest the same.
package enum Suggestion {
    /// The candidate `word` was probably meant to be, or nil.
    ///
    /// Three tries, in this order: a candidate that differs from `word` only in case; then the first
    /// candidate that `word` is a prefix of, ignoring case (an abbreviation, or a key missing its
    /// `WithMaxCount`); then the candidate nearest by edit distance, ignoring case, when it is close
    /// enough to be a typo (at most a third of the word's length, and at least 1). A candidate
    /// spelled exactly as `word` is never suggested.
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        guard !lowered.isEmpty else { return nil }
        let others = candidates.filter { $0 != word }
        if let sameButCase = others.first(where: { $0.lowercased() == lowered }) { return sameButCase }
        if let prefixed = others.first(where: { $0.lowercased().hasPrefix(lowered) }) { return prefixed }
        var best: (String, Int)?
        for candidate in others {
            let distance = editDistance(lowered, candidate.lowercased())
            if best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
        }
        if let best, best.1 <= max(1, word.count / 3) { return best.0 }
        return nil
    }

    /// Levenshtein distance over characters, an adjacent transposition counting as one edit.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[y.count]
    }
}
