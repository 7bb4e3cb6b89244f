public import Predicates

/// A readable tree saying how a rule reached its outcome: each node's text, its value, the nodes
/// below it, and whether it decided its parent's outcome.
public struct Explanation: Sendable, Hashable {
    /// What the node is: a predicate's canonical text, a key, an attachment, an attempt.
    public var text: String
    /// What it came to (`true`, `false`, a value, `error: …`), if anything.
    public var value: String?
    /// The nodes evaluated below it, in order.
    public var children: [Explanation]
    /// Whether this node decided its parent's outcome.
    public var isDecisive: Bool

    /// Creates a node.
    public init(_ text: String, value: String? = nil, children: [Explanation] = [], isDecisive: Bool = false) {
        self.text = text
        self.value = value
        self.children = children
        self.isDecisive = isDecisive
    }

    /// The tree of a traced predicate evaluation.
    public init(trace node: TraceNode) {
        let value: String
        switch node.value {
        case .bool(let flag): value = flag ? "true" : "false"
        case .value(let plist): value = Explanation.short(plist.description)
        case .error(let error): value = "error: \(error.message)"
        }
        self.init(
            node.text, value: value, children: node.children.map(Explanation.init(trace:)), isDecisive: node.isDecisive)
    }

    /// The deepest node reached by following decisive children from here: where the outcome was decided.
    public var decidingPath: [Explanation] {
        var path = [self]
        var current = self
        while let next = current.children.last(where: \.isDecisive) {
            path.append(next)
            current = next
        }
        return path
    }

    /// The number of nodes in the tree.
    public var nodeCount: Int { 1 + children.reduce(0) { $0 + $1.nodeCount } }

    static func short(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(117)) + "…" : text
    }
}
