import Foundation

/// Case and diacritic folding for `[c]`/`[d]`, and regular expressions for `MATCHES`.
enum StringFolding {
    /// `string` folded for `options` (`[c]` lower-cases, `[d]` strips diacritics).
    static func fold(_ string: String, _ options: StringOptions) -> String {
        var foldOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldOptions.insert(.diacriticInsensitive) }
        if foldOptions.isEmpty { return string }
        // Fast path: ASCII needs no diacritic folding, only lower-casing.
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            return foldOptions.contains(.caseInsensitive) ? string.lowercased() : string
        }
        return string.folding(options: foldOptions, locale: nil)
    }

    /// Compiles a `MATCHES` pattern so that it must match the whole string.
    static func regex(_ pattern: String, options: StringOptions, range: SourceRange)
        -> Result<NSRegularExpression, PredicateEvaluationError>
    {
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let folded = options.contains(.diacriticInsensitive) ? fold(pattern, [.diacriticInsensitive]) : pattern
        do {
            return .success(try NSRegularExpression(pattern: "(?:" + folded + ")\\z", options: regexOptions))
        } catch {
            return .failure(
                PredicateEvaluationError(
                    .invalidRegularExpression, "\(PredicatePrinter.quote(pattern)) is not a valid regular expression",
                    range: range))
        }
    }

    /// Whether the compiled pattern matches all of `string`; a pattern that failed to compile throws.
    static func wholeMatch(_ compiled: Result<NSRegularExpression, PredicateEvaluationError>, _ string: String)
        throws(PredicateEvaluationError) -> Bool
    {
        let regex: NSRegularExpression
        switch compiled {
        case .success(let value): regex = value
        case .failure(let error): throw error
        }
        let range = NSRange(string.startIndex..., in: string)
        return regex.firstMatch(in: string, options: [.anchored], range: range) != nil
    }

    /// Whether `haystack` contains `needle` under `options` (an empty needle is never contained).
    static func contains(_ haystack: String, _ needle: String, _ options: StringOptions) -> Bool {
        let folded = fold(needle, options)
        return !folded.isEmpty && fold(haystack, options).contains(folded)
    }

    /// `base ** exponent`, exact for small integer cases.
    static func power(_ base: Double, _ exponent: Double) -> Double {
        Foundation.pow(base, exponent)
    }
}
