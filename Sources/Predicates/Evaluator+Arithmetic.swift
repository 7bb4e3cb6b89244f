extension Evaluator {
    /// `+ - * / **` on numbers (Booleans count as 0/1); integers stay integers until they overflow.
    func arithmetic(_ op: ArithmeticOperator, _ left: PlistValue, _ right: PlistValue, range: SourceRange)
        throws(PredicateEvaluationError) -> PlistValue
    {
        guard let leftNumber = left.number, let rightNumber = right.number else {
            let bad = left.number == nil ? left : right
            throw PredicateEvaluationError(
                .arithmetic, "'\(op.rawValue)' needs numbers, got a \(bad.typeName) (\(Evaluator.short(bad)))",
                range: range)
        }
        if case .integer(let a) = left, case .integer(let b) = right {
            let result: (Int, Bool)? =
                switch op {
                case .add: a.addingReportingOverflow(b)
                case .subtract: a.subtractingReportingOverflow(b)
                case .multiply: a.multipliedReportingOverflow(by: b)
                case .divide, .power: nil
                }
            if let (value, overflow) = result, !overflow { return .integer(value) }
        }
        let value: Double
        switch op {
        case .add: value = leftNumber + rightNumber
        case .subtract: value = leftNumber - rightNumber
        case .multiply: value = leftNumber * rightNumber
        case .divide:
            guard rightNumber != 0 else {
                throw PredicateEvaluationError(.arithmetic, "division by zero", range: range)
            }
            value = leftNumber / rightNumber
        case .power:
            value = StringFolding.power(leftNumber, rightNumber)
            if case .integer = left, case .integer = right, rightNumber >= 0, value.magnitude < 9.0e15 {
                return .integer(Int(value))
            }
        }
        guard value.isFinite else {
            throw PredicateEvaluationError(
                .arithmetic, "'\(op.rawValue)' overflows: the result is not a finite number", range: range)
        }
        return .real(value)
    }

    /// Unary minus.
    func negate(_ value: PlistValue, range: SourceRange) throws(PredicateEvaluationError) -> PlistValue {
        switch value {
        case .integer(let integer):
            let (negated, overflow) = (0).subtractingReportingOverflow(integer)
            return overflow ? .real(-Double(integer)) : .integer(negated)
        case .real(let real): return .real(-real)
        case .bool(let bool): return .integer(bool ? -1 : 0)
        default:
            throw PredicateEvaluationError(
                .arithmetic, "'-' needs a number, got a \(value.typeName) (\(Evaluator.short(value)))", range: range)
        }
    }
}
