/// A predicate prepared once for fast, repeated evaluation.
///
/// Compiling pre-folds constant strings for `[c]`/`[d]`, compiles constant `MATCHES` patterns and
/// `LIKE` patterns, and turns `SUBQUERY(…).@count` into a counting loop that builds no array.
/// A compiled predicate is immutable and `Sendable`; reuse it across objects and threads.
public struct CompiledPredicate: Sendable {
    /// The predicate this was compiled from.
    public let predicate: PredicateNode
    let root: CompiledNode

    /// Compiles a parsed predicate.
    public init(_ predicate: PredicateNode) {
        self.predicate = predicate
        self.root = Compiler.compile(predicate)
    }

    /// Parses and compiles `source`.
    ///
    /// - Throws: ``PredicateSyntaxError``.
    public init(parsing source: String, limits: ParserLimits = .default) throws(PredicateSyntaxError) {
        self.init(try PredicateParser.parse(source, limits: limits))
    }

    /// Evaluates the predicate against `object` without recording a trace (the fast path).
    ///
    /// - Parameters:
    ///   - object: what `SELF` and bare key paths refer to.
    ///   - environment: variables, format arguments, UTI relations and the step budget.
    /// - Returns: whether the object satisfies the predicate.
    /// - Throws: ``PredicateEvaluationError``; never traps.
    public func evaluate(_ object: PlistValue, environment: EvaluationEnvironment = EvaluationEnvironment())
        throws(PredicateEvaluationError) -> Bool
    {
        if predicate.height <= CompiledPredicate.inlineHeight {
            var evaluator = Evaluator(environment: environment, tracing: false)
            return try evaluator.evaluate(root, object)
        }
        let root = self.root
        return try LargeStack.run { () -> Result<Bool, PredicateEvaluationError> in
            var evaluator = Evaluator(environment: environment, tracing: false)
            do throws(PredicateEvaluationError) {
                return .success(try evaluator.evaluate(root, object))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    /// Trees up to this height evaluate on the caller's stack; taller ones on a large stack.
    static let inlineHeight = 48

    /// Evaluates the predicate and records every node's value: the raw material of `explain`.
    ///
    /// - Returns: the trace tree and the outcome (a truth value or the error).
    public func trace(_ object: PlistValue, environment: EvaluationEnvironment = EvaluationEnvironment())
        -> EvaluationTrace
    {
        if predicate.height <= CompiledPredicate.inlineHeight { return traceInline(object, environment: environment) }
        return LargeStack.run { [self] in traceInline(object, environment: environment) }
    }

    private func traceInline(_ object: PlistValue, environment: EvaluationEnvironment) -> EvaluationTrace {
        var evaluator = Evaluator(environment: environment, tracing: true)
        let result: Result<Bool, PredicateEvaluationError>
        do {
            result = .success(try evaluator.evaluate(root, object))
        } catch {
            result = .failure(error)
        }
        let fallback = TraceNode(
            text: predicate.description, range: predicate.range,
            value: { () -> TraceValue in
                switch result {
                case .success(let value): return .bool(value)
                case .failure(let error): return .error(error)
                }
            }())
        var rootNode = evaluator.traceStack.first?.first ?? fallback
        rootNode.isDecisive = true
        return EvaluationTrace(root: rootNode, result: result)
    }
}

extension PredicateNode {
    /// Evaluates this predicate once (compiling it first); prefer ``CompiledPredicate`` for reuse.
    ///
    /// - Throws: ``PredicateEvaluationError``.
    public func evaluate(_ object: PlistValue, environment: EvaluationEnvironment = EvaluationEnvironment())
        throws(PredicateEvaluationError) -> Bool
    {
        try CompiledPredicate(self).evaluate(object, environment: environment)
    }
}
