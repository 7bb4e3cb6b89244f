extension Parser {
    /// ```
    /// Primary -> "(" OrExpr ")"
    ///          | string | number | "TRUE" | "YES" | "FALSE" | "NO" | "NULL" | "NIL" | "SELF"
    ///          | variable (":=" Additive)?
    ///          | identifier | "#" word | "@" identifier | "%K" | "%@" | "%d" | …
    ///          | "{" (Additive ("," Additive)*)? "}"
    ///          | "SUBQUERY" "(" Additive "," variable "," OrExpr ")"
    ///          | "CAST" "(" Additive "," Additive ")"
    ///          | identifier "(" (Additive ("," Additive)*)? ")"
    /// ```
    mutating func parsePrimary(after context: String?) throws(ParseFailure) -> Operand {
        let token = current
        switch token.kind {
        case .punctuation(.leftParen):
            return try parseParenthesized()
        case .punctuation(.leftBrace):
            return .expression(try parseAggregate())
        case .string(let value):
            _ = advance()
            return .expression(try makeExpression(.constant(.string(value)), token.range))
        case .integer(let value):
            _ = advance()
            return .expression(try makeExpression(.constant(.integer(value)), token.range))
        case .double(let value):
            _ = advance()
            return .expression(try makeExpression(.constant(.real(value)), token.range))
        case .keyword(.true), .keyword(.yes):
            _ = advance()
            return .expression(try makeExpression(.constant(.bool(true)), token.range))
        case .keyword(.false), .keyword(.no):
            _ = advance()
            return .expression(try makeExpression(.constant(.bool(false)), token.range))
        case .keyword(.null), .keyword(.nil):
            _ = advance()
            return .expression(try makeExpression(.constant(.null), token.range))
        case .keyword(.self):
            _ = advance()
            return .expression(try makeExpression(.evaluatedObject, token.range))
        case .keyword(.subquery):
            return .expression(try parseSubquery())
        case .keyword(.cast):
            return .expression(try parseCast())
        case .variable(let name):
            _ = advance()
            guard consume(.colonEqual) != nil else {
                return .expression(try makeExpression(.variable(name), token.range))
            }
            try enter(token.range)
            defer { depth -= 1 }
            let value = try requireExpression(try parseAdditive(after: "':='"))
            return .expression(
                try makeExpression(.assignment(variable: name, value: value), token.range.union(value.range)))
        case .identifier(let name, let escaped):
            _ = advance()
            if !escaped, check(.leftParen) { return .expression(try parseFunction(name: name, nameToken: token)) }
            let base = try makeExpression(
                .evaluatedObject, SourceRange(token.range.utf8.lowerBound..<token.range.utf8.lowerBound))
            return .expression(try makeExpression(.keyPath(base: base, components: [.key(name)]), token.range))
        case .atName(let name):
            _ = advance()
            let base = try makeExpression(
                .evaluatedObject, SourceRange(token.range.utf8.lowerBound..<token.range.utf8.lowerBound))
            return .expression(
                try makeExpression(.keyPath(base: base, components: [.collectionOperator(name)]), token.range))
        case .argument(let specifier):
            _ = advance()
            let index = argumentCount
            argumentCount += 1
            if specifier == "K" {
                let base = try makeExpression(
                    .evaluatedObject, SourceRange(token.range.utf8.lowerBound..<token.range.utf8.lowerBound))
                return .expression(
                    try makeExpression(.keyPath(base: base, components: [.argumentKey(index: index)]), token.range))
            }
            return .expression(try makeExpression(.argument(index: index, specifier: specifier), token.range))
        case .keyword(let keyword):
            if [.fetch, .anyKey, .caseInsensitive, .ci].contains(keyword) {
                throw error(.unexpectedToken, "\(keyword.rawValue) is not supported in a predicate", token.range)
            }
            throw expected("an expression", after: context)
        default:
            throw expected("an expression", after: context)
        }
    }

    /// `"(" OrExpr ")"`: a parenthesised predicate or expression.
    mutating func parseParenthesized() throws(ParseFailure) -> Operand {
        let open = advance()
        try enter(open.range)
        defer { depth -= 1 }
        if check(.rightParen) {
            throw error(
                .unexpectedToken, "empty parentheses: '()' holds neither a predicate nor a value",
                open.range.union(current.range))
        }
        let inner = try parseOrExpr()
        guard consume(.rightParen) != nil else {
            if current.kind == .endOfInput {
                throw error(
                    .unclosedParenthesis,
                    "unclosed '(': add ')' to close the parenthesis opened at \(open.range.location(in: source))",
                    open.range)
            }
            if case .expression = inner {
                throw expected("')' or a comparison operator", after: "'\(text(inner.range))'")
            }
            throw expected("')'", after: "'\(text(inner.range))'")
        }
        return inner
    }

    /// `"{" (Additive ("," Additive)*)? "}"`
    mutating func parseAggregate() throws(ParseFailure) -> ExpressionNode {
        let open = advance()
        try enter(open.range)
        defer { depth -= 1 }
        var elements: [ExpressionNode] = []
        if let close = consume(.rightBrace) {
            return try makeExpression(.aggregate([]), open.range.union(close.range))
        }
        while true {
            if check(.comma) || check(.rightBrace) {
                throw error(
                    .unexpectedToken, "empty element in '{…}': expected a value before \(current.display)",
                    current.range)
            }
            elements.append(try requireExpression(try parseAdditive(after: elements.isEmpty ? "'{'" : "','")))
            if consume(.comma) != nil { continue }
            if let close = consume(.rightBrace) {
                return try makeExpression(.aggregate(elements), open.range.union(close.range))
            }
            if current.kind == .endOfInput {
                throw error(.unclosedParenthesis, "unclosed '{': add '}' to close the list", open.range)
            }
            throw expected("',' or '}'", after: "a list element")
        }
    }

    /// `"SUBQUERY" "(" Additive "," variable "," OrExpr ")"`
    mutating func parseSubquery() throws(ParseFailure) -> ExpressionNode {
        let keyword = advance()
        guard let open = consume(.leftParen) else { throw expected("'('", after: "SUBQUERY") }
        try enter(open.range)
        defer { depth -= 1 }
        let usage = "SUBQUERY takes three arguments: SUBQUERY(collection, $variable, predicate)"
        let collection = try requireExpression(try parseAdditive(after: "SUBQUERY("))
        guard consume(.comma) != nil else {
            if current.kind == .endOfInput { throw expected("','", after: "the SUBQUERY collection") }
            throw error(.invalidSubquery, "\(usage); found \(current.display)", current.range)
        }
        guard case .variable(let variable) = current.kind else {
            if current.kind == .endOfInput { throw expected("a $variable", after: "','") }
            throw error(
                .invalidSubquery, "the second argument of SUBQUERY must be a $variable, found \(current.display)",
                current.range)
        }
        _ = advance()
        guard consume(.comma) != nil else {
            if current.kind == .endOfInput { throw expected("','", after: "the SUBQUERY variable") }
            throw error(.invalidSubquery, "\(usage); found \(current.display)", current.range)
        }
        let predicate = try requirePredicate(try parseOrExpr())
        guard let close = consume(.rightParen) else {
            if current.kind == .endOfInput {
                throw error(.unclosedParenthesis, "unclosed 'SUBQUERY(': add ')' to close it", open.range)
            }
            throw expected("')'", after: "the SUBQUERY predicate")
        }
        return try makeExpression(
            .subquery(collection: collection, variable: variable, predicate: predicate),
            keyword.range.union(close.range))
    }

    /// `"CAST" "(" Additive "," Additive ")"`
    mutating func parseCast() throws(ParseFailure) -> ExpressionNode {
        let keyword = advance()
        let (arguments, close) = try parseArgumentList(after: "CAST")
        guard arguments.count == 2 else {
            throw error(.unexpectedToken, "CAST takes two arguments: CAST(value, 'Type')", keyword.range.union(close))
        }
        return try makeExpression(.cast(arguments[0], arguments[1]), keyword.range.union(close))
    }

    /// `identifier "(" (Additive ("," Additive)*)? ")"`
    mutating func parseFunction(name: String, nameToken: Token) throws(ParseFailure) -> ExpressionNode {
        let (arguments, close) = try parseArgumentList(after: "'\(name)'")
        return try makeExpression(.function(name: name, arguments: arguments), nameToken.range.union(close))
    }

    /// `"(" (Additive ("," Additive)*)? ")"`
    mutating func parseArgumentList(after what: String) throws(ParseFailure) -> ([ExpressionNode], SourceRange) {
        guard let open = consume(.leftParen) else { throw expected("'('", after: what) }
        try enter(open.range)
        defer { depth -= 1 }
        var arguments: [ExpressionNode] = []
        if let close = consume(.rightParen) { return ([], close.range) }
        while true {
            arguments.append(try requireExpression(try parseAdditive(after: arguments.isEmpty ? "'('" : "','")))
            if consume(.comma) != nil { continue }
            if let close = consume(.rightParen) { return (arguments, close.range) }
            if current.kind == .endOfInput {
                throw error(.unclosedParenthesis, "unclosed '(' of \(what): add ')'", open.range)
            }
            throw expected("',' or ')'", after: "an argument")
        }
    }
}
