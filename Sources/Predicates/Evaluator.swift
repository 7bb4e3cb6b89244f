/// Walks a compiled predicate against an object.
///
/// One `evaluate` per node kind; each operator family lives in its own `Evaluator+….swift` file.
/// With `tracing` off nothing is recorded and no text is built, which keeps the fast path fast.
struct Evaluator {
    let environment: EvaluationEnvironment
    let tracing: Bool
    /// SUBQUERY bindings, innermost last.
    var bindings: [(name: String, value: PlistValue)] = []
    var steps = 0
    /// While tracing: one array of finished child nodes per node being evaluated.
    var traceStack: [[TraceNode]] = []

    init(environment: EvaluationEnvironment, tracing: Bool) {
        self.environment = environment
        self.tracing = tracing
        if tracing { traceStack = [[]] }
    }

    mutating func step(_ range: SourceRange) throws(PredicateEvaluationError) {
        steps += 1
        if steps > environment.maxSteps {
            throw PredicateEvaluationError(
                .budgetExceeded, "evaluation took more than \(environment.maxSteps) steps", range: range)
        }
    }

    // MARK: - Tracing helpers

    mutating func beginTrace() {
        if tracing { traceStack.append([]) }
    }

    mutating func endTrace(text: @autoclosure () -> String, range: SourceRange, value: TraceValue) {
        guard tracing else { return }
        let children = traceStack.removeLast()
        traceStack[traceStack.count - 1].append(TraceNode(text: text(), range: range, value: value, children: children))
    }

    /// Marks the most recently finished child (or all children) of the node being traced as decisive.
    mutating func markDecisive(all: Bool = false) {
        guard tracing, !traceStack.isEmpty else { return }
        let top = traceStack.count - 1
        guard !traceStack[top].isEmpty else { return }
        if all {
            for index in traceStack[top].indices { traceStack[top][index].isDecisive = true }
        } else {
            traceStack[top][traceStack[top].count - 1].isDecisive = true
        }
    }

    // MARK: - Predicates

    mutating func evaluate(_ node: CompiledNode, _ object: PlistValue) throws(PredicateEvaluationError) -> Bool {
        try step(node.source.range)
        guard tracing else { return try evaluateUntraced(node, object) }
        beginTrace()
        do {
            let value = try evaluateUntraced(node, object)
            endTrace(text: node.source.description, range: node.source.range, value: .bool(value))
            return value
        } catch {
            endTrace(text: node.source.description, range: node.source.range, value: .error(error))
            throw error
        }
    }

    private mutating func evaluateUntraced(_ node: CompiledNode, _ object: PlistValue) throws(PredicateEvaluationError)
        -> Bool
    {
        switch node.kind {
        case .constant(let value):
            return value
        case .not(let inner):
            let value = try evaluate(inner, object)
            markDecisive()
            return !value
        case .and(let children):
            for child in children where !(try evaluate(child, object)) {
                markDecisive()
                return false
            }
            markDecisive(all: true)
            return true
        case .or(let children):
            for child in children where try evaluate(child, object) {
                markDecisive()
                return true
            }
            markDecisive(all: true)
            return false
        case .comparison(let comparison):
            return try evaluate(comparison, object, range: node.source.range)
        }
    }

    // MARK: - Expressions

    mutating func value(_ expression: CompiledExpression, _ object: PlistValue) throws(PredicateEvaluationError)
        -> PlistValue
    {
        guard tracing else { return try valueUntraced(expression, object) }
        beginTrace()
        do {
            let result = try valueUntraced(expression, object)
            endTrace(text: expression.source.description, range: expression.source.range, value: .value(result))
            return result
        } catch {
            endTrace(text: expression.source.description, range: expression.source.range, value: .error(error))
            throw error
        }
    }

    private mutating func valueUntraced(_ expression: CompiledExpression, _ object: PlistValue)
        throws(PredicateEvaluationError) -> PlistValue
    {
        switch expression.kind {
        case .constant(let value):
            return value
        case .evaluatedObject:
            return object
        case .variable(let name):
            return try variable(name, range: expression.source.range)
        case .boundVariable(let slot):
            return bindings[slot].value
        case .boundVariableKey(let slot, let key):
            return try valueForKey(key, of: bindings[slot].value, range: expression.source.range)
        case .keyPath(let base, let components):
            let baseValue = try value(base, object)
            return try apply(components[...], to: baseValue, object: object, range: expression.source.range)
        case .aggregate(let elements):
            var values: [PlistValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try value(element, object)) }
            return .array(values)
        case .subquery(let collection, let variable, let predicate):
            return .array(
                try subquery(collection, variable, predicate, object, countOnly: false, range: expression.source.range)
                    .1)
        case .subqueryCount(let collection, let variable, let predicate, let rest):
            let count = try subquery(
                collection, variable, predicate, object, countOnly: true, range: expression.source.range
            ).0
            return try apply(rest[...], to: .integer(count), object: object, range: expression.source.range)
        case .arithmetic(let op, let left, let right):
            let leftValue = try value(left, object)
            let rightValue = try value(right, object)
            return try arithmetic(op, leftValue, rightValue, range: expression.source.range)
        case .negate(let inner):
            return try negate(try value(inner, object), range: expression.source.range)
        case .argument(let index, let specifier):
            return try argument(index, specifier: specifier, range: expression.source.range)
        case .unsupported(let message):
            throw PredicateEvaluationError(.unsupportedExpression, message, range: expression.source.range)
        }
    }

    func variable(_ name: String, range: SourceRange) throws(PredicateEvaluationError) -> PlistValue {
        var index = bindings.count - 1
        while index >= 0 {
            if bindings[index].name == name { return bindings[index].value }
            index -= 1
        }
        guard let variables = environment.variables else {
            throw PredicateEvaluationError(
                .undefinedVariable, "$\(name) is not defined (no SUBQUERY binds it and no variables are given)",
                range: range)
        }
        return variables[name] ?? .null
    }

    func argument(_ index: Int, specifier: String, range: SourceRange) throws(PredicateEvaluationError) -> PlistValue {
        guard let arguments = environment.arguments else {
            throw PredicateEvaluationError(
                .missingArgument, "%\(specifier) is a format argument, and no arguments are given", range: range)
        }
        guard index < arguments.count else {
            throw PredicateEvaluationError(
                .missingArgument, "%\(specifier) is format argument \(index + 1), but only \(arguments.count) given",
                range: range)
        }
        return arguments[index]
    }
}
