/// Prints predicates and expressions as canonical predicate text.
///
/// Canonical means: keywords upper case, `==`/`!=`/`<=`/`>=` spellings, strings in double
/// quotes, `SOME` as `ANY`, `SELF.` dropped before a key, and only the parentheses precedence
/// needs. For every parsed node `p`, `PredicateParser.parse(PredicatePrinter.print(p)) == p`.
public enum PredicatePrinter {
    /// The canonical text of a predicate.
    public static func print(_ predicate: PredicateNode) -> String {
        if predicate.height > CompiledPredicate.inlineHeight {
            return LargeStack.run { writeInline(predicate) }
        }
        return writeInline(predicate)
    }

    private static func writeInline(_ predicate: PredicateNode) -> String {
        var output = ""
        write(predicate, to: &output)
        return output
    }

    /// The canonical text of an expression.
    public static func print(_ expression: ExpressionNode) -> String {
        if expression.height > CompiledPredicate.inlineHeight {
            return LargeStack.run { writeInline(expression) }
        }
        return writeInline(expression)
    }

    private static func writeInline(_ expression: ExpressionNode) -> String {
        var output = ""
        write(expression, to: &output)
        return output
    }

    /// A string literal in double quotes, with `\\`, `\"` and control characters escaped.
    public static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A real number as a literal that parses back to the same value (`1.5`, `1e-05`, `1e999` for ∞).
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "(0.0 / 0.0)" }
        if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
        return value.description
    }

    /// A key as written after `.`: plain, `#escaped` if reserved.
    static func key(_ name: String) -> String {
        Keyword.isReserved(name) ? "#" + name : name
    }

    // MARK: - Predicates

    private static func write(_ predicate: PredicateNode, to output: inout String) {
        switch predicate.kind {
        case .constant(let value):
            output += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner):
            output += "NOT "
            writeOperand(inner, parenthesize: isCompound(inner), to: &output)
        case .and(let children):
            for (offset, child) in children.enumerated() {
                if offset > 0 { output += " AND " }
                var isOr = false
                var isEmptyAnd = false
                if case .or = child.kind { isOr = true }
                if case .and = child.kind { isEmptyAnd = true }
                writeOperand(child, parenthesize: isOr || isEmptyAnd, to: &output)
            }
        case .or(let children):
            for (offset, child) in children.enumerated() {
                if offset > 0 { output += " OR " }
                var nestedOr = false
                if case .or = child.kind { nestedOr = true }
                writeOperand(child, parenthesize: nestedOr, to: &output)
            }
        case .comparison(let comparison):
            if let quantifier = comparison.quantifier { output += quantifier.rawValue + " " }
            write(comparison.left, to: &output)
            output += " " + comparison.comparisonOperator.rawValue
            if !comparison.options.isEmpty { output += "[" + comparison.options.letters + "]" }
            output += " "
            write(comparison.right, to: &output)
        }
    }

    private static func isCompound(_ predicate: PredicateNode) -> Bool {
        switch predicate.kind {
        case .and, .or: return true
        default: return false
        }
    }

    private static func writeOperand(_ predicate: PredicateNode, parenthesize: Bool, to output: inout String) {
        if parenthesize { output += "(" }
        write(predicate, to: &output)
        if parenthesize { output += ")" }
    }

    // MARK: - Expressions

    private static func write(_ expression: ExpressionNode, to output: inout String) {
        switch expression.kind {
        case .constant(let value):
            writeConstant(value, to: &output)
        case .evaluatedObject:
            output += "SELF"
        case .variable(let name):
            output += "$" + name
        case .keyPath(let base, let components):
            writeKeyPath(base: base, components: components, to: &output)
        case .aggregate(let elements):
            output += "{"
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += ", " }
                write(element, to: &output)
            }
            output += "}"
        case .subquery(let collection, let variable, let predicate):
            output += "SUBQUERY("
            write(collection, to: &output)
            output += ", $" + variable + ", "
            write(predicate, to: &output)
            output += ")"
        case .arithmetic(let op, let left, let right):
            writeArithmeticOperand(left, parent: op, isRight: false, to: &output)
            output += " " + op.rawValue + " "
            writeArithmeticOperand(right, parent: op, isRight: true, to: &output)
        case .negate(let inner):
            output += "-"
            writeParenthesizedUnlessAtomic(inner, to: &output)
        case .argument(_, let specifier):
            output += "%" + specifier
        case .function(let name, let arguments):
            output += name + "("
            for (offset, argument) in arguments.enumerated() {
                if offset > 0 { output += ", " }
                write(argument, to: &output)
            }
            output += ")"
        case .cast(let value, let type):
            output += "CAST("
            write(value, to: &output)
            output += ", "
            write(type, to: &output)
            output += ")"
        case .assignment(let variable, let value):
            output += "$" + variable + " := "
            write(value, to: &output)
        }
    }

    private static func writeConstant(_ value: PlistValue, to output: inout String) {
        switch value {
        case .string(let string): output += quote(string)
        case .integer(let integer): output += String(integer)
        case .real(let real): output += format(real)
        case .bool(let bool): output += bool ? "TRUE" : "FALSE"
        case .null: output += "nil"
        case .array(let elements):
            output += "{"
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += ", " }
                writeConstant(element, to: &output)
            }
            output += "}"
        case .dictionary, .date, .data:
            // Not expressible as a literal; only nodes built in code can hold these.
            output += value.description
        }
    }

    private static func isAtomic(_ expression: ExpressionNode) -> Bool {
        switch expression.kind {
        case .arithmetic, .negate, .assignment: return false
        case .constant(let value):
            if let number = value.number, case .bool = value {
                return number >= 0
            }
            if case .integer(let integer) = value { return integer >= 0 }
            if case .real(let real) = value { return real >= 0 && real.isFinite }
            return true
        default: return true
        }
    }

    private static func writeParenthesizedUnlessAtomic(_ expression: ExpressionNode, to output: inout String) {
        let atomic = isAtomic(expression)
        if !atomic { output += "(" }
        write(expression, to: &output)
        if !atomic { output += ")" }
    }

    private static func writeArithmeticOperand(
        _ operand: ExpressionNode, parent: ArithmeticOperator, isRight: Bool, to output: inout String
    ) {
        var parenthesize = false
        switch operand.kind {
        case .arithmetic(let op, _, _):
            if op.precedence < parent.precedence {
                parenthesize = true
            } else if op.precedence == parent.precedence {
                // `+ - * /` associate to the left, `**` to the right.
                parenthesize = parent == .power ? !isRight : isRight
            }
        case .negate, .assignment:
            parenthesize = true
        default:
            parenthesize = !isAtomic(operand)
        }
        if parenthesize { output += "(" }
        write(operand, to: &output)
        if parenthesize { output += ")" }
    }

    private static func writeKeyPath(base: ExpressionNode, components: [KeyPathComponent], to output: inout String) {
        var needsSeparator = true
        if case .evaluatedObject = base.kind, let first = components.first, first.isNamed {
            needsSeparator = false
        } else {
            writeParenthesizedUnlessAtomic(base, to: &output)
        }
        for component in components {
            switch component {
            case .key(let name):
                output += (needsSeparator ? "." : "") + key(name)
            case .collectionOperator(let name):
                output += (needsSeparator ? "." : "") + "@" + name
            case .argumentKey:
                output += (needsSeparator ? "." : "") + "%K"
            case .index(let index):
                output += "["
                write(index, to: &output)
                output += "]"
            case .first: output += "[FIRST]"
            case .last: output += "[LAST]"
            case .size: output += "[SIZE]"
            }
            needsSeparator = true
        }
    }
}

extension KeyPathComponent {
    /// Whether the component is written after a `.` (as opposed to `[…]`).
    fileprivate var isNamed: Bool {
        switch self {
        case .key, .collectionOperator, .argumentKey: return true
        case .index, .first, .last, .size: return false
        }
    }
}

extension PredicateNode: CustomStringConvertible {
    /// The canonical text (see ``PredicatePrinter``).
    public var description: String { PredicatePrinter.print(self) }
}

extension ExpressionNode: CustomStringConvertible {
    /// The canonical text (see ``PredicatePrinter``).
    public var description: String { PredicatePrinter.print(self) }
}
