/*
 The predicate grammar this parser accepts: the NSPredicate format language as activation rules use it
 and the Predicate Programming Guide define it. Keywords are case-insensitive; `#word` makes a
 reserved word a key. Precedence, loosest first: OR, AND, NOT, comparison, + -, * /, unary -, **,
 postfix `.`/`[]`.

   Predicate      -> OrExpr EOF                                  (the result must be a predicate)
   OrExpr         -> AndExpr (("OR" | "||") AndExpr)*
   AndExpr        -> NotExpr (("AND" | "&&") NotExpr)*
   NotExpr        -> ("NOT" | "!")* Comparison
   Comparison     -> "TRUEPREDICATE" | "FALSEPREDICATE"
                   | Quantifier Additive Operator Options? Additive
                   | Additive (Operator Options? Additive)?      (no operator: only a parenthesised predicate)
   Quantifier     -> "ANY" | "SOME" | "ALL" | "NONE"
   Operator       -> "=" | "==" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
                   | "BETWEEN" | "IN" | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE" | "MATCHES"
                   | "UTI-CONFORMS-TO" | "UTI-EQUALS"
   Options        -> "[" letters "]"                             (letters from c, d, n, l)
   Additive       -> Multiplicative (("+" | "-") Multiplicative)*
   Multiplicative -> Unary (("*" | "/") Unary)*
   Unary          -> "-" Unary | Power
   Power          -> Postfix ("**" Unary)?                       (right-associative)
   Postfix        -> Primary ("." Component | "[" Index "]")*
   Component      -> identifier | "#" word | "@" identifier | "%K"
   Index          -> "FIRST" | "LAST" | "SIZE" | Additive
   Primary        -> "(" OrExpr ")"                              (a predicate or an expression)
                   | string | number | "TRUE" | "YES" | "FALSE" | "NO" | "NULL" | "NIL" | "SELF"
                   | variable (":=" Additive)?
                   | identifier | "#" word | "@" identifier | "%K" | "%@" | "%d" | …
                   | "{" (Additive ("," Additive)*)? "}"
                   | "SUBQUERY" "(" Additive "," variable "," OrExpr ")"
                   | "CAST" "(" Additive "," Additive ")"
                   | identifier "(" (Additive ("," Additive)*)? ")"      (FUNCTION(…) and other calls)

 Predicates and expressions share parentheses, so every level returns an `Operand` that is one or
 the other; the level that needs a particular one checks it and reports a located error.
 */

/// Limits that keep hostile input from exhausting time or stack.
public struct ParserLimits: Sendable, Hashable {
    /// The deepest nesting accepted: parentheses, braces, brackets, SUBQUERY, `NOT`s, unary
    /// minus and the height of the resulting tree all count.
    ///
    /// The default, 1 024, accepts the 1 000-deep predicates Apple's parser accepts and still
    /// keeps recursion far from the stack limit.
    public var maxDepth: Int
    /// The longest source accepted, in UTF-8 bytes (default 1 MiB).
    public var maxInputBytes: Int

    /// Creates limits.
    public init(maxDepth: Int = 1_024, maxInputBytes: Int = 1 << 20) {
        self.maxDepth = maxDepth
        self.maxInputBytes = maxInputBytes
    }

    /// `maxDepth` 1 024, `maxInputBytes` 1 MiB.
    public static let `default` = ParserLimits()
}

/// Parses predicate format strings into ``PredicateNode`` trees.
public enum PredicateParser {
    /// Parses `source` as a predicate.
    ///
    /// - Parameters:
    ///   - source: the predicate text, e.g. `ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image"`.
    ///   - limits: nesting and length limits.
    /// - Returns: the predicate tree; every node carries its source range.
    /// - Throws: ``PredicateSyntaxError`` with a code, message, range, line and column.
    public static func parse(_ source: String, limits: ParserLimits = .default) throws(PredicateSyntaxError)
        -> PredicateNode
    {
        let length = source.utf8.count
        guard length <= limits.maxInputBytes else {
            throw PredicateSyntaxError(
                .inputTooLong, "predicate is \(length) bytes long; the limit is \(limits.maxInputBytes)",
                range: SourceRange(0..<0), source: source)
        }
        let tokens: [Token]
        do throws(ParseFailure) {
            tokens = try Lexer.tokenize(source)
        } catch {
            throw error.error
        }
        let parse: @Sendable () -> Result<PredicateNode, PredicateSyntaxError> = {
            do throws(ParseFailure) {
                var parser = Parser(tokens: tokens, source: source, limits: limits)
                return .success(try parser.parsePredicate())
            } catch {
                return .failure(error.error)
            }
        }
        // Few nesting tokens cannot nest deeply: parse on the caller's stack. Otherwise use a
        // large stack (debug frames on the recursive path take kilobytes per level).
        let result = Parser.nestingTokenCount(tokens) <= Parser.inlineNestingTokens ? parse() : LargeStack.run(parse)
        return try result.get()
    }
}

/// A syntax error boxed in a class while it propagates, so that every parse frame reserves
/// one pointer for a thrown error instead of the whole error struct (deep nesting stays cheap).
final class ParseFailure: Error, @unchecked Sendable {
    // @unchecked: immutable after init; `error` is a Sendable struct.
    let error: PredicateSyntaxError
    init(_ error: PredicateSyntaxError) { self.error = error }
}

/// A parse result that is either a predicate or an expression (see the grammar note above).
enum Operand {
    case predicate(PredicateNode)
    case expression(ExpressionNode)

    var range: SourceRange {
        switch self {
        case .predicate(let node): return node.range
        case .expression(let node): return node.range
        }
    }
}

/// The recursive-descent parser; one function per production.
struct Parser {
    /// Token lists with at most this many nesting tokens parse on the caller's stack.
    static let inlineNestingTokens = 16

    /// How many tokens could each open a nesting level: an upper bound on the parse depth.
    static func nestingTokenCount(_ tokens: [Token]) -> Int {
        var count = 0
        for token in tokens {
            switch token.kind {
            case .punctuation(.leftParen), .punctuation(.leftBrace), .punctuation(.leftBracket),
                .punctuation(.bang), .punctuation(.minus), .punctuation(.starStar), .punctuation(.colonEqual),
                .keyword(.not):
                count += 1
            default:
                continue
            }
        }
        return count
    }

    let tokens: [Token]
    let source: String
    let limits: ParserLimits
    var index = 0
    var depth = 0
    var argumentCount = 0

    init(tokens: [Token], source: String, limits: ParserLimits) {
        self.tokens = tokens
        self.source = source
        self.limits = limits
    }

    // MARK: - Token access

    var current: Token { tokens[index] }

    var previous: Token? { index > 0 ? tokens[index - 1] : nil }

    mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    func check(_ punctuation: Punctuation) -> Bool { current.kind == .punctuation(punctuation) }

    func check(_ keyword: Keyword) -> Bool { current.kind == .keyword(keyword) }

    mutating func consume(_ punctuation: Punctuation) -> Token? {
        check(punctuation) ? advance() : nil
    }

    func error(_ code: PredicateSyntaxError.Code, _ message: String, _ range: SourceRange) -> ParseFailure {
        ParseFailure(PredicateSyntaxError(code, message, range: range, source: source))
    }

    /// The source text of a range, shortened for messages.
    func text(_ range: SourceRange) -> String {
        let bytes = Array(source.utf8)
        let lower = Swift.min(range.utf8.lowerBound, bytes.count)
        let upper = Swift.min(range.utf8.upperBound, bytes.count)
        let text = String(decoding: bytes[lower..<upper], as: UTF8.self)
        return text.count > 40 ? String(text.prefix(37)) + "…" : text
    }

    /// An error for `current` when `what` was expected after `after`.
    func expected(_ what: String, after: String? = nil) -> ParseFailure {
        if current.kind == .endOfInput {
            let anchor = previous?.range ?? current.range
            let afterText = after.map { " after \($0)" } ?? ""
            return error(.unexpectedEnd, "expected \(what)\(afterText), but the input ends here", anchor)
        }
        if check(.rightParen) && depth == 0 {
            return error(.unmatchedParenthesis, "unmatched ')': no '(' opens it", current.range)
        }
        let afterText = after.map { " after \($0)" } ?? ""
        return error(.unexpectedToken, "expected \(what)\(afterText), found \(current.display)", current.range)
    }

    /// Enters one nesting level; throws before recursing if the limit is reached.
    mutating func enter(_ range: SourceRange) throws(ParseFailure) {
        depth += 1
        if depth > limits.maxDepth {
            throw error(.nestingTooDeep, "nesting is deeper than the limit of \(limits.maxDepth) levels", range)
        }
    }

    func checkHeight(_ height: Int, _ range: SourceRange) throws(ParseFailure) {
        if height > limits.maxDepth {
            throw error(
                .nestingTooDeep, "the predicate nests deeper than the limit of \(limits.maxDepth) levels", range)
        }
    }

    func makePredicate(_ kind: PredicateNode.Kind, _ range: SourceRange) throws(ParseFailure) -> PredicateNode {
        let node = PredicateNode(kind, range: range)
        try checkHeight(node.height, range)
        return node
    }

    func makeExpression(_ kind: ExpressionNode.Kind, _ range: SourceRange) throws(ParseFailure)
        -> ExpressionNode
    {
        let node = ExpressionNode(kind, range: range)
        try checkHeight(node.height, range)
        return node
    }

    // MARK: - Operand checks

    /// Requires a predicate; an expression gets a message that says what is missing.
    mutating func requirePredicate(_ operand: Operand) throws(ParseFailure) -> PredicateNode {
        switch operand {
        case .predicate(let node): return node
        case .expression(let node):
            let terminators: Set<TokenKind> = [
                .endOfInput, .punctuation(.rightParen), .punctuation(.comma), .punctuation(.rightBrace),
                .punctuation(.andAnd), .punctuation(.orOr), .keyword(.and), .keyword(.or),
            ]
            if !terminators.contains(current.kind) {
                throw expected("a comparison operator", after: "'\(text(node.range))'")
            }
            throw error(
                .expectedPredicate,
                "'\(text(node.range))' is an expression, not a predicate; compare it with something (e.g. == 1)",
                node.range)
        }
    }

    /// Requires an expression.
    mutating func requireExpression(_ operand: Operand) throws(ParseFailure) -> ExpressionNode {
        switch operand {
        case .expression(let node): return node
        case .predicate(let node):
            throw error(
                .expectedExpression, "'\(text(node.range))' is a predicate; a value is needed here", node.range)
        }
    }

    // MARK: - Predicates

    /// `Predicate -> OrExpr EOF`
    mutating func parsePredicate() throws(ParseFailure) -> PredicateNode {
        if current.kind == .endOfInput {
            throw error(.emptyInput, "the predicate is empty", current.range)
        }
        let predicate = try requirePredicate(try parseOrExpr())
        guard current.kind == .endOfInput else {
            if check(.rightParen) {
                throw error(.unmatchedParenthesis, "unmatched ')': no '(' opens it", current.range)
            }
            throw error(
                .unexpectedToken,
                "expected AND, OR or the end of the predicate, found \(current.display)", current.range)
        }
        return predicate
    }

    /// `OrExpr -> AndExpr (("OR" | "||") AndExpr)*`
    mutating func parseOrExpr() throws(ParseFailure) -> Operand {
        let first = try parseAndExpr()
        guard check(.or) || check(.orOr) else { return first }
        var children = [try requirePredicate(first)]
        while check(.or) || check(.orOr) {
            let op = advance()
            guard current.kind != .endOfInput else { throw expected("a predicate", after: op.display) }
            children.append(try requirePredicate(try parseAndExpr()))
        }
        let range = children[0].range.union(children[children.count - 1].range)
        return .predicate(try makePredicate(.or(flatten(children, or: true)), range))
    }

    /// `AndExpr -> NotExpr (("AND" | "&&") NotExpr)*`
    mutating func parseAndExpr() throws(ParseFailure) -> Operand {
        let first = try parseNotExpr()
        guard check(.and) || check(.andAnd) else { return first }
        var children = [try requirePredicate(first)]
        while check(.and) || check(.andAnd) {
            let op = advance()
            guard current.kind != .endOfInput else { throw expected("a predicate", after: op.display) }
            children.append(try requirePredicate(try parseNotExpr()))
        }
        let range = children[0].range.union(children[children.count - 1].range)
        return .predicate(try makePredicate(.and(flatten(children, or: false)), range))
    }

    /// Splices directly nested `.and`/`.or` children (from parentheses) into their parent.
    private func flatten(_ children: [PredicateNode], or: Bool) -> [PredicateNode] {
        var result: [PredicateNode] = []
        for child in children {
            switch child.kind {
            case .or(let nested) where or: result.append(contentsOf: nested)
            case .and(let nested) where !or: result.append(contentsOf: nested)
            default: result.append(child)
            }
        }
        return result
    }

    /// `NotExpr -> ("NOT" | "!")* Comparison`
    mutating func parseNotExpr() throws(ParseFailure) -> Operand {
        var negations: [Token] = []
        while check(.not) || check(.bang) {
            negations.append(advance())
            if negations.count > limits.maxDepth {
                throw error(
                    .nestingTooDeep, "more than \(limits.maxDepth) consecutive NOTs",
                    negations[negations.count - 1].range)
            }
        }
        guard !negations.isEmpty else { return try parseComparison() }
        if current.kind == .endOfInput {
            throw expected("a predicate", after: negations[negations.count - 1].display)
        }
        var predicate = try requirePredicate(try parseComparison())
        for negation in negations.reversed() {
            predicate = try makePredicate(.not(predicate), negation.range.union(predicate.range))
        }
        return .predicate(predicate)
    }
}
