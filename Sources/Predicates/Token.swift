/// A reserved word of the predicate language; matched case-insensitively.
enum Keyword: String, Sendable, Hashable, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", matches = "MATCHES", contains = "CONTAINS", beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI", anyKey = "ANYKEY"
    case subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

    /// Keywords keyed by their upper-case spelling.
    static let byName: [String: Keyword] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// Whether `word` (any case) is reserved and so needs a `#` to be used as a key.
    static func isReserved(_ word: String) -> Bool { byName[word.uppercased()] != nil }
}

/// Operator and punctuation tokens.
enum Punctuation: String, Sendable, Hashable {
    case leftParen = "(", rightParen = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", comma = ",", dot = "."
    case equal = "==", assignEqual = "=", notEqual = "!=", lessGreater = "<>"
    case less = "<", lessEqual = "<=", equalLess = "=<", greater = ">", greaterEqual = ">=", equalGreater = "=>"
    case andAnd = "&&", orOr = "||", bang = "!"
    case plus = "+", minus = "-", star = "*", slash = "/", starStar = "**", colonEqual = ":="
}

/// What a token is.
enum TokenKind: Sendable, Hashable {
    /// A key name; `escaped` when written `#word`.
    case identifier(String, escaped: Bool)
    case keyword(Keyword)
    /// `$name`.
    case variable(String)
    /// `@name` (a collection operator such as `@count`).
    case atName(String)
    case string(String)
    case integer(Int)
    case double(Double)
    /// `%@`, `%K`, `%d`, …: the conversion letters after `%`.
    case argument(String)
    case punctuation(Punctuation)
    case endOfInput
}

/// One token with its UTF-8 source range.
struct Token: Sendable, Hashable {
    var kind: TokenKind
    var range: SourceRange

    /// A short human description for error messages.
    var display: String {
        switch kind {
        case .identifier(let name, let escaped): return escaped ? "'#\(name)'" : "'\(name)'"
        case .keyword(let keyword): return keyword.rawValue
        case .variable(let name): return "'$\(name)'"
        case .atName(let name): return "'@\(name)'"
        case .string: return "a string"
        case .integer(let value): return "the number \(value)"
        case .double(let value): return "the number \(value)"
        case .argument(let spec): return "'%\(spec)'"
        case .punctuation(let punctuation): return "'\(punctuation.rawValue)'"
        case .endOfInput: return "the end of the input"
        }
    }

    /// ``display`` in single quotes, for "after '=='" (without quoting what is quoted already).
    var quotedDisplay: String { display.hasPrefix("'") ? display : "'\(display)'" }
}
