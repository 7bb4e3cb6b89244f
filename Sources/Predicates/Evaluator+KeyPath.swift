extension Evaluator {
    /// Applies key-path components in order; a key applied to an array maps over its elements.
    mutating func apply(
        _ components: ArraySlice<CompiledComponent>, to start: PlistValue, object: PlistValue, range: SourceRange
    ) throws(PredicateEvaluationError) -> PlistValue {
        var current = start
        var index = components.startIndex
        while index < components.endIndex {
            let component = components[index]
            index += 1
            switch component {
            case .key(let name):
                current = try valueForKey(name, of: current, range: range)
            case .argumentKey(let argumentIndex):
                let argument = try self.argument(argumentIndex, specifier: "K", range: range)
                guard case .string(let name) = argument else {
                    throw PredicateEvaluationError(
                        .typeMismatch, "%K needs a string argument, got a \(argument.typeName)", range: range)
                }
                current = try valueForKey(name, of: current, range: range)
            case .collectionOperator(let name):
                // The operator consumes the rest of the path (`@sum.price`), except `@count`.
                if name == "count" {
                    current = try count(current, range: range)
                    continue
                }
                let rest = components[index...]
                index = components.endIndex
                current = try collectionOperator(name, current, rest: rest, object: object, range: range)
            case .index(let indexExpression):
                let key = try value(indexExpression, object)
                current = try subscriptValue(current, key, range: range)
            case .first, .last:
                switch current {
                case .array(let array):
                    current = (component.isFirst ? array.first : array.last) ?? .null
                case .null: current = .null
                default:
                    throw PredicateEvaluationError(
                        .notACollection, "[FIRST]/[LAST] needs an array, got a \(current.typeName)", range: range)
                }
            case .size:
                current = try count(current, range: range)
            }
        }
        return current
    }

    /// KVC-style `valueForKey:` on a plist value.
    func valueForKey(_ key: String, of value: PlistValue, range: SourceRange) throws(PredicateEvaluationError)
        -> PlistValue
    {
        switch value {
        case .dictionary(let dictionary):
            return dictionary[key] ?? .null
        case .array(let array):
            var mapped: [PlistValue] = []
            mapped.reserveCapacity(array.count)
            for element in array { mapped.append(try valueForKey(key, of: element, range: range)) }
            return .array(mapped)
        case .null:
            return .null
        default:
            throw PredicateEvaluationError(
                .invalidKeyPath, "cannot read key '\(key)' of a \(value.typeName) (\(value.description.prefix(40)))",
                range: range)
        }
    }

    func count(_ value: PlistValue, range: SourceRange) throws(PredicateEvaluationError) -> PlistValue {
        switch value {
        case .array(let array): return .integer(array.count)
        case .dictionary(let dictionary): return .integer(dictionary.count)
        case .null: return .null
        default:
            throw PredicateEvaluationError(
                .notACollection, "@count needs an array or a dictionary, got a \(value.typeName)", range: range)
        }
    }

    func subscriptValue(_ value: PlistValue, _ key: PlistValue, range: SourceRange) throws(PredicateEvaluationError)
        -> PlistValue
    {
        switch (value, key) {
        case (.array(let array), _):
            guard let number = key.number, number == number.rounded(), let index = Int(exactly: number) else {
                throw PredicateEvaluationError(
                    .typeMismatch, "an array index must be an integer, got \(key.description)", range: range)
            }
            guard index >= 0, index < array.count else {
                throw PredicateEvaluationError(
                    .indexOutOfRange, "index \(index) is outside an array of \(array.count) elements", range: range)
            }
            return array[index]
        case (.dictionary(let dictionary), .string(let name)):
            return dictionary[name] ?? .null
        case (.null, _):
            return .null
        default:
            throw PredicateEvaluationError(
                .typeMismatch, "cannot subscript a \(value.typeName) with a \(key.typeName)", range: range)
        }
    }

    /// The elements of a collection operand, or `nil` for a non-collection.
    func elements(of value: PlistValue) -> [PlistValue]? {
        switch value {
        case .array(let array): return array
        case .dictionary(let dictionary): return Array(dictionary.values)
        case .null: return []
        default: return nil
        }
    }
}

extension CompiledComponent {
    fileprivate var isFirst: Bool {
        if case .first = self { return true }
        return false
    }
}
