extension Parser {
    // MARK: - Comparisons

    /// ```
    /// Comparison -> "TRUEPREDICATE" | "FALSEPREDICATE"
    ///             | Quantifier Additive Operator Options? Additive
    ///             | Additive (Operator Options? Additive)?
    /// ```
    mutating func parseComparison() throws(ParseFailure) -> Operand {
        if check(.truePredicate) || check(.falsePredicate) {
            let token = advance()
            return .predicate(try makePredicate(.constant(token.kind == .keyword(.truePredicate)), token.range))
        }
        var quantifier: (Quantifier, Token)?
        switch current.kind {
        case .keyword(.any), .keyword(.some): quantifier = (.any, advance())
        case .keyword(.all): quantifier = (.all, advance())
        case .keyword(.none): quantifier = (.none, advance())
        default: break
        }
        let leftOperand = try parseAdditive(after: quantifier?.1.display)
        guard let (op, opToken) = parseOperator() else {
            if let quantifier {
                throw expected("a comparison operator", after: "\(quantifier.1.display) \(text(leftOperand.range))")
            }
            return leftOperand
        }
        let left = try requireExpression(leftOperand)
        let options = try parseOptions(after: opToken)
        let right = try requireExpression(try parseAdditive(after: opToken.quotedDisplay))
        let start = quantifier?.1.range ?? left.range
        let comparison = Comparison(
            quantifier: quantifier?.0, left: left, op, options: options, right: right)
        return .predicate(try makePredicate(.comparison(comparison), start.union(right.range)))
    }

    /// `Operator -> "=" | "==" | "!=" | "<>" | "<" | … | "UTI-CONFORMS-TO" | "UTI-EQUALS"`
    mutating func parseOperator() -> (ComparisonOperator, Token)? {
        let op: ComparisonOperator? =
            switch current.kind {
            case .punctuation(.equal), .punctuation(.assignEqual): .equalTo
            case .punctuation(.notEqual), .punctuation(.lessGreater): .notEqualTo
            case .punctuation(.less): .lessThan
            case .punctuation(.lessEqual), .punctuation(.equalLess): .lessThanOrEqualTo
            case .punctuation(.greater): .greaterThan
            case .punctuation(.greaterEqual), .punctuation(.equalGreater): .greaterThanOrEqualTo
            case .keyword(.between): .between
            case .keyword(.in): .in
            case .keyword(.contains): .contains
            case .keyword(.beginsWith): .beginsWith
            case .keyword(.endsWith): .endsWith
            case .keyword(.like): .like
            case .keyword(.matches): .matches
            case .keyword(.utiConformsTo): .utiConformsTo
            case .keyword(.utiEquals): .utiEquals
            default: nil
            }
        guard let op else { return nil }
        return (op, advance())
    }

    /// `Options -> "[" letters "]"` with letters from c, d, n, l.
    mutating func parseOptions(after opToken: Token) throws(ParseFailure) -> StringOptions {
        guard let open = consume(.leftBracket) else { return [] }
        guard case .identifier(let letters, escaped: false) = current.kind else {
            throw expected("string options such as c, d or cd", after: "'['")
        }
        var options: StringOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default:
                throw error(
                    .invalidOption,
                    "unknown string option '\(letter)' after \(opToken.display); use c, d or cd", current.range)
            }
        }
        _ = advance()
        guard consume(.rightBracket) != nil else {
            if current.kind == .endOfInput {
                throw error(.unclosedParenthesis, "unclosed '[': the option block is never closed", open.range)
            }
            throw expected("']'", after: "the string options")
        }
        return options
    }

    // MARK: - Arithmetic

    /// `Additive -> Multiplicative (("+" | "-") Multiplicative)*`
    mutating func parseAdditive(after context: String? = nil) throws(ParseFailure) -> Operand {
        var left = try parseMultiplicative(after: context)
        while check(.plus) || check(.minus) {
            let token = advance()
            let op: ArithmeticOperator = token.kind == .punctuation(.plus) ? .add : .subtract
            let right = try requireExpression(try parseMultiplicative(after: token.quotedDisplay))
            let leftExpression = try requireExpression(left)
            left = .expression(
                try makeExpression(.arithmetic(op, leftExpression, right), leftExpression.range.union(right.range)))
        }
        return left
    }

    /// `Multiplicative -> Unary (("*" | "/") Unary)*`
    mutating func parseMultiplicative(after context: String?) throws(ParseFailure) -> Operand {
        var left = try parseUnary(after: context)
        while check(.star) || check(.slash) {
            let token = advance()
            let op: ArithmeticOperator = token.kind == .punctuation(.star) ? .multiply : .divide
            let right = try requireExpression(try parseUnary(after: token.quotedDisplay))
            let leftExpression = try requireExpression(left)
            left = .expression(
                try makeExpression(.arithmetic(op, leftExpression, right), leftExpression.range.union(right.range)))
        }
        return left
    }

    /// `Unary -> "-" Unary | Power`
    mutating func parseUnary(after context: String?) throws(ParseFailure) -> Operand {
        guard let minus = consume(.minus) else { return try parsePower(after: context) }
        try enter(minus.range)
        defer { depth -= 1 }
        let operand = try requireExpression(try parseUnary(after: "'-'"))
        return .expression(try makeExpression(.negate(operand), minus.range.union(operand.range)))
    }

    /// `Power -> Postfix ("**" Unary)?`
    mutating func parsePower(after context: String?) throws(ParseFailure) -> Operand {
        let base = try parsePostfix(after: context)
        guard let token = consume(.starStar) else { return base }
        let baseExpression = try requireExpression(base)
        try enter(token.range)
        defer { depth -= 1 }
        let exponent = try requireExpression(try parseUnary(after: "'**'"))
        return .expression(
            try makeExpression(
                .arithmetic(.power, baseExpression, exponent), baseExpression.range.union(exponent.range)))
    }

    // MARK: - Key paths

    /// `Postfix -> Primary ("." Component | "[" Index "]")*`
    mutating func parsePostfix(after context: String?) throws(ParseFailure) -> Operand {
        let primary = try parsePrimary(after: context)
        guard check(.dot) || check(.leftBracket) else { return primary }
        var expression = try requireExpression(primary)
        while check(.dot) || check(.leftBracket) {
            let component: KeyPathComponent
            let end: SourceRange
            if let dot = consume(.dot) {
                (component, end) = try parseComponent(after: dot)
            } else {
                let open = advance()
                (component, end) = try parseIndex(open: open)
            }
            let range = expression.range.union(end)
            if case .keyPath(let base, let components) = expression.kind {
                expression = try makeExpression(.keyPath(base: base, components: components + [component]), range)
            } else {
                expression = try makeExpression(.keyPath(base: expression, components: [component]), range)
            }
        }
        return .expression(expression)
    }

    /// `Component -> identifier | "#" word | "@" identifier | "%K"`
    mutating func parseComponent(after dot: Token) throws(ParseFailure) -> (KeyPathComponent, SourceRange) {
        switch current.kind {
        case .identifier(let name, _):
            return (.key(name), advance().range)
        case .atName(let name):
            return (.collectionOperator(name), advance().range)
        case .argument("K"):
            let index = argumentCount
            argumentCount += 1
            return (.argumentKey(index: index), advance().range)
        case .keyword(let keyword):
            throw error(
                .unexpectedToken,
                "\(keyword.rawValue) is a reserved word; write #\(text(current.range)) to use it as a key",
                current.range)
        case .punctuation(.dot):
            throw error(.unexpectedToken, "empty key path component: '..'", dot.range.union(current.range))
        default:
            throw expected("a key name", after: "'.'")
        }
    }

    /// `Index -> "FIRST" | "LAST" | "SIZE" | Additive` between `[` and `]`.
    mutating func parseIndex(open: Token) throws(ParseFailure) -> (KeyPathComponent, SourceRange) {
        try enter(open.range)
        defer { depth -= 1 }
        let component: KeyPathComponent
        switch current.kind {
        case .keyword(.first):
            _ = advance()
            component = .first
        case .keyword(.last):
            _ = advance()
            component = .last
        case .keyword(.size):
            _ = advance()
            component = .size
        default:
            component = .index(try requireExpression(try parseAdditive(after: "'['")))
        }
        guard let close = consume(.rightBracket) else {
            if current.kind == .endOfInput {
                throw error(.unclosedParenthesis, "unclosed '[': the index is never closed with ']'", open.range)
            }
            throw expected("']'", after: "the index")
        }
        return (component, close.range)
    }
}
