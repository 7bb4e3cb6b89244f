/// "Did you mean": the nearest real key or type identifier to a misspelt one.
enum Suggestion {
    /// The candidate closest to `word` when it is close enough to be a typo (edit distance at most
    /// a third of the word's length, and at least 1), or one that `word` is a prefix of.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        guard !lowered.isEmpty else { return nil }
        if let prefixed = candidates.first(where: { $0.lowercased().hasPrefix(lowered) && $0.lowercased() != lowered })
        {
            return prefixed
        }
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
        }
        if let best, best.1 > 0, best.1 <= max(1, word.count / 3) { return best.0 }
        return nil
    }

    /// Levenshtein distance over characters, an adjacent transposition counting as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
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
