extension Evaluator {
    // MARK: - SUBQUERY

    /// Runs `SUBQUERY(collection, $variable, predicate)`; returns the count and, unless
    /// `countOnly`, the selected elements.
    mutating func subquery(
        _ collection: CompiledExpression, _ variable: String, _ predicate: CompiledNode, _ object: PlistValue,
        countOnly: Bool, range: SourceRange
    ) throws(PredicateEvaluationError) -> (Int, [PlistValue]) {
        let collectionValue = try value(collection, object)
        guard let elements = elements(of: collectionValue) else {
            throw PredicateEvaluationError(
                .notACollection, "SUBQUERY needs an array, got a \(collectionValue.typeName)", range: range)
        }
        var count = 0
        var selected: [PlistValue] = []
        bindings.append((variable, .null))
        defer { bindings.removeLast() }
        let slot = bindings.count - 1
        for (offset, element) in elements.enumerated() {
            try step(range)
            bindings[slot].value = element
            beginTrace()
            let matched: Bool
            do {
                matched = try evaluate(predicate, element)
            } catch {
                endTrace(text: "[\(offset)] $\(variable) = \(Self.short(element))", range: range, value: .error(error))
                throw error
            }
            endTrace(text: "[\(offset)] $\(variable) = \(Self.short(element))", range: range, value: .bool(matched))
            if matched {
                count += 1
                if !countOnly { selected.append(element) }
            }
        }
        return (count, selected)
    }

    static func short(_ value: PlistValue) -> String {
        let text = value.description
        return text.count > 80 ? String(text.prefix(77)) + "…" : text
    }

    // MARK: - ANY / ALL / NONE

    /// A quantified comparison: the left side must be a collection; each element is compared.
    mutating func quantified(
        _ quantifier: Quantifier, _ comparison: CompiledComparison, left: PlistValue, right: PlistValue,
        range: SourceRange
    ) throws(PredicateEvaluationError) -> Bool {
        guard let elements = elements(of: left) else {
            throw PredicateEvaluationError(
                .notACollection,
                "\(quantifier.rawValue) needs an array on its left, got a \(left.typeName) (\(Self.short(left)))",
                range: comparison.left.source.range)
        }
        for (offset, element) in elements.enumerated() {
            try step(range)
            beginTrace()
            let matched: Bool
            do {
                matched = try compare(comparison, element, right, range: range)
            } catch {
                endTrace(text: "[\(offset)] \(Self.short(element))", range: range, value: .error(error))
                throw error
            }
            endTrace(text: "[\(offset)] \(Self.short(element))", range: range, value: .bool(matched))
            switch quantifier {
            case .any where matched:
                markDecisive()
                return true
            case .all where !matched:
                markDecisive()
                return false
            case .none where matched:
                markDecisive()
                return false
            default: continue
            }
        }
        return quantifier != .any
    }

    // MARK: - Collection operators

    /// `@sum`, `@avg`, `@min`, `@max`, `@distinctUnionOfObjects`, `@unionOfObjects`,
    /// `@unionOfArrays`, `@distinctUnionOfArrays`: `rest` is applied to each element first.
    mutating func collectionOperator(
        _ name: String, _ value: PlistValue, rest: ArraySlice<CompiledComponent>, object: PlistValue,
        range: SourceRange
    ) throws(PredicateEvaluationError) -> PlistValue {
        if case .null = value { return .null }
        guard let elements = elements(of: value) else {
            throw PredicateEvaluationError(
                .notACollection, "@\(name) needs an array, got a \(value.typeName)", range: range)
        }
        var mapped: [PlistValue] = []
        mapped.reserveCapacity(elements.count)
        for element in elements {
            try step(range)
            mapped.append(try apply(rest, to: element, object: object, range: range))
        }
        let present = mapped.filter { !$0.isNull }
        switch name {
        case "sum", "avg":
            var total = 0.0
            var integerTotal = 0
            var allIntegers = true
            for element in present {
                guard let number = element.number else {
                    throw PredicateEvaluationError(
                        .typeMismatch, "@\(name) needs numbers, found a \(element.typeName)", range: range)
                }
                total += number
                if case .integer(let integer) = element, allIntegers {
                    let (sum, overflow) = integerTotal.addingReportingOverflow(integer)
                    if overflow { allIntegers = false } else { integerTotal = sum }
                } else {
                    allIntegers = false
                }
            }
            if name == "avg" { return present.isEmpty ? .null : .real(total / Double(present.count)) }
            return allIntegers ? .integer(integerTotal) : .real(total)
        case "min", "max":
            var best: PlistValue?
            for element in present {
                guard let current = best else {
                    best = element
                    continue
                }
                let order = try ordering(element, current, [], range: range)
                if (name == "min" && order < 0) || (name == "max" && order > 0) { best = element }
            }
            return best ?? .null
        case "unionOfObjects":
            return .array(present)
        case "distinctUnionOfObjects":
            return .array(distinct(present))
        case "unionOfArrays", "distinctUnionOfArrays":
            var flattened: [PlistValue] = []
            for element in present {
                guard case .array(let inner) = element else {
                    throw PredicateEvaluationError(
                        .typeMismatch, "@\(name) needs an array of arrays, found a \(element.typeName)", range: range)
                }
                flattened.append(contentsOf: inner.filter { !$0.isNull })
            }
            return .array(name == "unionOfArrays" ? flattened : distinct(flattened))
        default:
            throw PredicateEvaluationError(
                .unsupportedExpression, "unknown collection operator @\(name)", range: range)
        }
    }

    private func distinct(_ values: [PlistValue]) -> [PlistValue] {
        var result: [PlistValue] = []
        for value in values where !result.contains(where: { Evaluator.equal($0, value, []) }) {
            result.append(value)
        }
        return result
    }
}
