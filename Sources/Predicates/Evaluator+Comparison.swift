extension Evaluator {
    /// Evaluates both sides, then the (possibly quantified) comparison.
    mutating func evaluate(_ comparison: CompiledComparison, _ object: PlistValue, range: SourceRange)
        throws(PredicateEvaluationError) -> Bool
    {
        if !tracing, let result = try anyBoundKeyFastPath(comparison, range: range) { return result }
        let left = try value(comparison.left, object)
        let right = try value(comparison.right, object)
        if let quantifier = comparison.quantifier {
            return try quantified(quantifier, comparison, left: left, right: right, range: range)
        }
        return try compare(comparison, left, right, range: range)
    }

    /// One comparison of two values (no quantifier).
    func compare(_ comparison: CompiledComparison, _ left: PlistValue, _ right: PlistValue, range: SourceRange)
        throws(PredicateEvaluationError) -> Bool
    {
        let options = comparison.options
        switch comparison.comparisonOperatorKind {
        case .equalTo:
            return Evaluator.equal(left, right, options)
        case .notEqualTo:
            return !Evaluator.equal(left, right, options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if left.isNull || right.isNull { return false }
            let order = try ordering(left, right, options, range: range)
            switch comparison.op {
            case .lessThan: return order < 0
            case .lessThanOrEqualTo: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .between:
            guard case .array(let bounds) = right, bounds.count == 2 else {
                throw PredicateEvaluationError(
                    .typeMismatch, "BETWEEN needs a list of two bounds such as {1, 5}, got \(Evaluator.short(right))",
                    range: comparison.right.source.range)
            }
            if left.isNull || bounds[0].isNull || bounds[1].isNull { return false }
            let lower = try ordering(left, bounds[0], options, range: range)
            let upper = try ordering(left, bounds[1], options, range: range)
            return lower >= 0 && upper <= 0
        case .in:
            return try membership(
                of: left, in: right, comparison: comparison, collectionRange: comparison.right.source.range,
                range: range)
        case .contains:
            if case .string = left {
                return try stringOperation(comparison, left, right, range: range)
            }
            return try membership(
                of: right, in: left, comparison: comparison, collectionRange: comparison.left.source.range, range: range
            )
        case .beginsWith, .endsWith, .like, .matches:
            return try stringOperation(comparison, left, right, range: range)
        case .utiConformsTo, .utiEquals:
            if left.isNull || right.isNull { return false }
            guard case .string(let type) = left, case .string(let other) = right else {
                let bad = left.stringValue == nil ? left : right
                throw PredicateEvaluationError(
                    .typeMismatch,
                    "\(comparison.op.rawValue) compares two type identifiers, got a \(bad.typeName) (\(Evaluator.short(bad)))"
                        + (bad == left && left.typeName == "array" ? "; use ANY before the left side" : ""),
                    range: range)
            }
            return comparison.op == .utiConformsTo
                ? environment.conforms(type, other) : environment.equalTypes(type, other)
        }
    }

    /// `element IN collection` / `collection CONTAINS element`.
    private func membership(
        of element: PlistValue, in collection: PlistValue, comparison: CompiledComparison,
        collectionRange: SourceRange, range: SourceRange
    ) throws(PredicateEvaluationError) -> Bool {
        switch collection {
        case .array(let array):
            return array.contains { Evaluator.equal(element, $0, comparison.options) }
        case .dictionary(let dictionary):
            return dictionary.values.contains { Evaluator.equal(element, $0, comparison.options) }
        case .string(let string):
            // `"b" IN "abc"`: substring test.
            guard case .string(let needle) = element else {
                if element.isNull { return false }
                throw PredicateEvaluationError(
                    .typeMismatch, "cannot look for a \(element.typeName) in a string", range: range)
            }
            return StringFolding.contains(string, needle, comparison.options)
        case .null:
            return false
        default:
            throw PredicateEvaluationError(
                .notACollection,
                "\(comparison.op.rawValue) needs an array, a dictionary or a string, got a \(collection.typeName) (\(Evaluator.short(collection)))",
                range: collectionRange)
        }
    }

    /// `==` as `isEqual:` would decide it: numbers by value (Booleans are 0/1), strings with options.
    static func equal(_ left: PlistValue, _ right: PlistValue, _ options: StringOptions) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)):
            if options.isEmpty { return a == b }
            return StringFolding.fold(a, options) == StringFolding.fold(b, options)
        case (.integer(let a), .integer(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], equal(value, other, options) else { return false }
            }
            return true
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        default:
            if let a = left.number, let b = right.number { return a == b }
            return false
        }
    }

    /// -1, 0 or 1 for two numbers, two strings or two dates; anything else is a type mismatch.
    func ordering(_ left: PlistValue, _ right: PlistValue, _ options: StringOptions, range: SourceRange)
        throws(PredicateEvaluationError) -> Int
    {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let a), .string(let b)):
            let x = StringFolding.fold(a, options)
            let y = StringFolding.fold(b, options)
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.date(let a), .date(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        default:
            if let a = left.number, let b = right.number { return a < b ? -1 : (a == b ? 0 : 1) }
            throw PredicateEvaluationError(
                .typeMismatch,
                "cannot order a \(left.typeName) (\(Evaluator.short(left))) against a \(right.typeName) (\(Evaluator.short(right)))",
                range: range)
        }
    }
}

extension Evaluator {
    /// `ANY $variable.key op "constant"` for `UTI-CONFORMS-TO`, `UTI-EQUALS` and option-less `==`:
    /// the shape of nearly every activation rule, evaluated without intermediate values.
    /// Returns `nil` when the comparison or the data has another shape (the general path decides).
    private func anyBoundKeyFastPath(_ comparison: CompiledComparison, range: SourceRange)
        throws(PredicateEvaluationError) -> Bool?
    {
        guard comparison.quantifier == .any, case .boundVariableKey(let slot, let key) = comparison.left.kind,
            case .constant(.string(let constant)) = comparison.right.kind,
            case .dictionary(let dictionary) = bindings[slot].value,
            case .array(let elements)? = dictionary[key]
        else { return nil }
        switch comparison.op {
        case .utiConformsTo:
            for element in elements {
                guard case .string(let type) = element else { return nil }
                if environment.conforms(type, constant) { return true }
            }
            return false
        case .utiEquals:
            for element in elements {
                guard case .string(let type) = element else { return nil }
                if environment.equalTypes(type, constant) { return true }
            }
            return false
        case .equalTo where comparison.options.isEmpty:
            for element in elements {
                guard case .string(let type) = element else { return nil }
                if type == constant { return true }
            }
            return false
        default:
            return nil
        }
    }
}

extension CompiledComparison {
    /// The operator, named for the switch above.
    var comparisonOperatorKind: ComparisonOperator { op }
}
