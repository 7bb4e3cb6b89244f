/// The value a traced node produced.
public enum TraceValue: Sendable {
    /// A predicate's truth value.
    case bool(Bool)
    /// An expression's value.
    case value(PlistValue)
    /// The node failed.
    case error(PredicateEvaluationError)
}

/// One evaluated node: its canonical text, its value, and the nodes evaluated below it.
public struct TraceNode: Sendable {
    /// The canonical text of the node (or, for collection elements, `[i] value` / `$x = value`).
    public var text: String
    /// Where the node was written.
    public var range: SourceRange
    /// What it evaluated to.
    public var value: TraceValue
    /// The sub-evaluations, in the order they ran (short-circuited children are absent).
    public var children: [TraceNode]
    /// Whether this child decided its parent's outcome: the false operand of a false `AND`, the
    /// true operand of a true `OR`, the operand of `NOT`, the element that settled `ANY`/`ALL`/`NONE`.
    public var isDecisive: Bool

    /// Creates a trace node.
    public init(
        text: String, range: SourceRange, value: TraceValue, children: [TraceNode] = [], isDecisive: Bool = false
    ) {
        self.text = text
        self.range = range
        self.value = value
        self.children = children
        self.isDecisive = isDecisive
    }
}

/// The full record of one traced evaluation.
public struct EvaluationTrace: Sendable {
    /// The root predicate's node.
    public var root: TraceNode
    /// The outcome: the truth value, or the first error.
    public var result: Result<Bool, PredicateEvaluationError>

    /// Creates a trace.
    public init(root: TraceNode, result: Result<Bool, PredicateEvaluationError>) {
        self.root = root
        self.result = result
    }
}
